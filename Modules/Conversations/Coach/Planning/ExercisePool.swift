import Contracts
import Foundation

/// The exercises a plan can give each slot with the user's equipment: the slot's curated ids that the catalog
/// has and the equipment allows, in the table's order; when none of those is left for a session, catalog
/// exercises found by the slot's muscle. Never an expert move (a plan does not know the lifter's experience, so it
/// plans as for a beginner), a move that hangs from a bar the user does not have (`EquipmentSet+Bars.swift`), or
/// one that loads an area the user asked to spare (`AreaLoad`), or one the user said they do not want (its name holds
/// one of `dislikes`, singular or plural: "lunges" rules out "Dumbbell Lunges" and "Barbell Walking Lunge").
///
/// Each slot's curated ids are read once per plan with `exercise(id:)`, so an id missing from the catalog (an operator
/// imported another one) is simply passed over. The fallback searches
/// `ExerciseQuery(muscle:equipment:category: "strength")` once per equipment kind, and keeps exercises whose
/// first primary muscle is the slot's, whose mechanic matches it (compound or isolation, when the catalog says),
/// and whose level is not expert.
struct ExercisePool {
    let catalog: any ExerciseCatalog
    let equipment: EquipmentSet
    /// The body areas to spare.
    let sparing: [String]
    /// What the user does not want, each as the lower-case stem a name must not hold ("lunge" for "lunges").
    let disliked: [String]
    private var curated: [MovementSlot: [Exercise]] = [:]
    private var searched: [MovementSlot: [Exercise]] = [:]

    init(catalog: any ExerciseCatalog, equipment: EquipmentSet, sparing: [String] = [], dislikes: [String] = []) {
        self.catalog = catalog
        self.equipment = equipment
        self.sparing = sparing
        self.disliked = dislikes.compactMap(Self.stem)
    }

    /// A dislike as the stem an exercise's name is matched on: lower case, a plural's "s" dropped; nil when too short
    /// to mean an exercise ("a").
    static func stem(_ dislike: String) -> String? {
        var stem = dislike.lowercased().trimmingCharacters(in: .whitespaces)
        if stem.count > 3, stem.hasSuffix("s"), !stem.hasSuffix("ss") { stem.removeLast() }
        return stem.count >= 3 ? stem : nil
    }

    /// Whether the user said they do not want the exercise.
    func isDisliked(_ exercise: Exercise) -> Bool {
        let name = exercise.name.lowercased()
        return disliked.contains { name.contains($0) }
    }

    /// The exercise for the slot in the `rotation`-th session of its kind (0 for "A"), other than the ones the
    /// session already holds; nil when the catalog has none the equipment allows.
    mutating func pick(_ slot: MovementSlot, rotation: Int, excluding used: Set<String>) async throws -> Exercise? {
        if let exercise = first(of: try await curatedCandidates(slot), from: rotation, excluding: used) { return exercise }
        return first(of: try await searchedCandidates(slot), from: rotation, excluding: used)
    }

    /// The first exercise not yet used, starting at `rotation` and wrapping around, among the equipment the user
    /// would reach for first: with a full gym, anything but kettlebells and bands (home substitutes); with named
    /// equipment, the exercises that use it (dumbbells mean a dumbbell squat on "Lower B" too, not a bodyweight
    /// squat for variety's sake). The others come after, when none of those is left.
    private func first(of candidates: [Exercise], from rotation: Int, excluding used: Set<String>) -> Exercise? {
        let preferred = candidates.filter { exercise in
            equipment.isFullGym
                ? !["kettlebells", "bands"].contains(exercise.equipment)
                : !EquipmentSet.bodyOnly.allows(catalogEquipment: exercise.equipment)
        }
        let others = candidates.filter { !preferred.contains($0) }
        for group in [preferred, others] where !group.isEmpty {
            let rotated = (0..<group.count).lazy.map { group[(rotation + $0) % group.count] }
            if let exercise = rotated.first(where: { !used.contains($0.id) }) { return exercise }
        }
        return nil
    }

    /// The slot's curated exercises the catalog has and the equipment allows, in the table's order.
    private mutating func curatedCandidates(_ slot: MovementSlot) async throws -> [Exercise] {
        if let known = curated[slot] { return known }
        var found: [Exercise] = []
        for id in slot.candidateIds {
            if let exercise = try await catalog.exercise(id: id), allows(exercise, in: slot) { found.append(exercise) }
        }
        curated[slot] = found
        return found
    }

    /// Catalog exercises for the slot's muscle that the equipment allows, found by search.
    private mutating func searchedCandidates(_ slot: MovementSlot) async throws -> [Exercise] {
        if let known = searched[slot] { return known }
        var found: [Exercise] = []
        let values: [String?] = equipment.catalogValues ?? [nil]
        for value in values {
            var cursor: String?
            repeat {
                let page = try await catalog.search(
                    ExerciseQuery(muscle: slot.muscles[0], equipment: value, category: "strength", limit: 100, cursor: cursor))
                found += page.items.filter { Self.fits($0, slot) && allows($0, in: slot) }
                cursor = page.nextCursor
            } while cursor != nil
        }
        searched[slot] = found
        return found
    }

    /// Whether the user can do the exercise in the slot: their equipment, not expert, sparing their areas.
    private func allows(_ exercise: Exercise, in slot: MovementSlot) -> Bool {
        equipment.allows(exercise) && exercise.level != "expert" && !AreaLoad.loads(exercise, filling: slot, areas: sparing)
            && !isDisliked(exercise)
    }

    /// Whether a searched exercise can fill the slot.
    private static func fits(_ exercise: Exercise, _ slot: MovementSlot) -> Bool {
        guard exercise.primaryMuscles.first == slot.muscles[0], exercise.level != "expert" else { return false }
        guard let mechanic = exercise.mechanic else { return true }
        return mechanic == (slot.isCompound ? "compound" : "isolation")
    }
}
