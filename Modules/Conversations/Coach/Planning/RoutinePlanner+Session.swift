/// One session of a routine: its slots filled within the minutes asked for.
extension RoutinePlanner {
    /// A training day of the week being planned: its kind, which of its kind's sessions it is, and its exercises.
    struct PlannedDay: Sendable, Equatable {
        let kind: TrainingDay
        let rotation: Int
        var exercises: [DraftExercise] = []

        /// The day's slots: its kind's list for its rotation.
        var slots: [MovementSlot] { kind.slotLists[rotation % kind.slotLists.count] }

        func with(_ exercises: [DraftExercise]) -> PlannedDay {
            var day = self
            day.exercises = exercises
            return day
        }
    }

    /// One session: the essential slots, then the others in order while the session fits the budget's minutes and
    /// exercises, then backup slots while it has fewer than two exercises; last, when the essentials alone run over
    /// the minutes, their sets shortened (`shorten`).
    func session(_ day: PlannedDay, request: PlanRequest, budget: SessionBudget, pool: inout ExercisePool) async throws
        -> [DraftExercise]
    {
        var session: [DraftExercise] = []
        for (index, slot) in day.slots.enumerated() {
            guard let draft = try await draft(slot, day: day, session: session, goal: request.goal, pool: &pool) else { continue }
            let fits = session.count < budget.exercises && budget.fits((session + [draft]).map(\.prescription))
            if index < day.kind.essentials || fits { session.append(draft) }
        }
        for slot in day.kind.backupSlots where session.count < SessionBudget.minimumExercises {
            if let draft = try await draft(slot, day: day, session: session, goal: request.goal, pool: &pool) { session.append(draft) }
        }
        Self.shorten(&session, to: budget)
        return session
    }

    /// The exercise for a slot of the day, prescribed for its role, other than the session's: from the slot, or,
    /// when the areas to spare leave the slot nothing, from the first of `AreaLoad`'s alternatives that has one (one
    /// the day does not train yet first: a knee-friendly full-body day adds glute work before a second hinge), or,
    /// when the equipment has none, from its stand-ins (a row for a pulldown with dumbbells).
    func draft(_ slot: MovementSlot, day: PlannedDay, session: [DraftExercise], goal: PlanRequest.Goal, pool: inout ExercisePool)
        async throws -> DraftExercise?
    {
        let used = Set(session.map(\.exercise.id))
        var options = [slot]
        if let area = Self.area(pool.sparing, loading: slot) {
            let alternatives = AreaLoad.alternatives(to: slot, sparing: area).filter { $0 != slot }
            options += alternatives.filter { !day.slots.contains($0) } + alternatives.filter { day.slots.contains($0) }
        }
        options += slot.standIns.filter { !options.contains($0) }
        for option in options {
            guard let exercise = try await pool.pick(option, rotation: day.rotation, excluding: used) else { continue }
            let role: SetPrescription.Role = !option.isCompound ? .isolation : session.isEmpty ? .primary : .compound
            return DraftExercise(exercise: exercise, prescription: SetPrescription(goal: goal, role: role), slot: option)
        }
        return nil
    }

    /// The first of the areas whose movements the slot is.
    private static func area(_ areas: [String], loading slot: MovementSlot) -> String? {
        areas.first { AreaLoad.loadedSlots($0).contains(slot) }
    }

    /// Takes sets away, the last exercise's first, down to `SetPrescription.shortSessionSets` each, until the session
    /// fits the minutes or no set can go (a session of two exercises of two sets each under about 20 minutes).
    static func shorten(_ session: inout [DraftExercise], to budget: SessionBudget) {
        while !budget.fits(session.map(\.prescription)) {
            guard let last = session.lastIndex(where: { $0.prescription.sets > SetPrescription.shortSessionSets }) else { return }
            session[last].prescription.sets -= 1
        }
    }
}
