import Contracts

/// Finds exercises to put in place of one: the same movement (its slot among the planner's `MovementSlot`s) with
/// other equipment or variation, or, when the user asks to spare a body area the movement loads, movements that
/// train the same region and spare it, by `AreaLoad`'s table (the planner's too): for the knees hip-dominant work
/// (hinges, glute work, leg curls) in place of squats, lunges and leg extensions; for the lower back split squats,
/// leg curls and glute work in place of squats and hinges, and pulldowns or supported rows in place of bent-over
/// rows; for the shoulders raises in place of overhead pressing, and flyes or floor and neutral-grip presses in
/// place of pressing.
struct SwapFinder {
    let catalog: any ExerciseCatalog

    /// The movements to look in, and the area they spare when the slot loads one the user asked to spare.
    static func targets(for slot: MovementSlot, sparing areas: [String]) -> (slots: [MovementSlot], spared: String?) {
        for area in areas where AreaLoad.loadedSlots(area).contains(slot) {
            return (AreaLoad.alternatives(to: slot, sparing: area), area)
        }
        return ([slot], nil)
    }

    /// The slot an exercise fills: the one whose curated list holds it, else the first whose main muscle and
    /// mechanic it shares.
    static func slot(of exercise: Exercise) -> MovementSlot? {
        MovementSlot.allCases.first { $0.candidateIds.contains(exercise.id) }
            ?? MovementSlot.allCases.first { slot in
                slot.muscles.first == exercise.primaryMuscles.first && slot.isCompound == (exercise.mechanic != "isolation")
            }
    }

    /// Up to `count` alternatives the equipment allows, none of `excluding` (the exercise itself and the rest of the
    /// day); and the area they spare, when they do.
    func alternatives(to exercise: Exercise, sparing areas: [String], equipment: EquipmentSet, excluding: Set<String>, count: Int)
        async throws -> (exercises: [Exercise], spared: String?)
    {
        guard let slot = Self.slot(of: exercise) else { return ([], nil) }
        let targets = Self.targets(for: slot, sparing: areas)
        var pool = ExercisePool(catalog: catalog, equipment: equipment, sparing: areas)
        var used = excluding.union([exercise.id])
        var found: [Exercise] = []
        // Round-robin over the target movements, so three alternatives are three kinds of movement when they can be.
        var exhausted = Set<MovementSlot>()
        while found.count < count, exhausted.count < targets.slots.count {
            for target in targets.slots where !exhausted.contains(target) && found.count < count {
                if let next = try await pool.pick(target, rotation: 0, excluding: used) {
                    found.append(next)
                    used.insert(next.id)
                } else {
                    exhausted.insert(target)
                }
            }
        }
        return (found, targets.spared)
    }

    /// The equipment a day's exercises use, as the set to choose alternatives from: a full gym when any of them needs
    /// equipment a user cannot name (a bench, an e-z bar) or the day is empty.
    func equipment(of exerciseIds: [String]) async throws -> EquipmentSet {
        var kinds = Set<EquipmentSet.Kind>()
        for id in exerciseIds {
            guard let exercise = try await catalog.exercise(id: id) else { continue }
            guard let value = exercise.equipment else { continue }
            guard let kind = EquipmentSet.Kind(rawValue: value) else { return .fullGym }
            kinds.insert(kind)
        }
        return kinds.isEmpty ? .fullGym : EquipmentSet(kinds)
    }
}
