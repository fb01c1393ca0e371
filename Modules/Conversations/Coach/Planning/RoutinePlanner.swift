import Contracts

/// Plans a training routine from a `PlanRequest` and the exercise catalog, with no model and no randomness: the
/// same request and catalog always give the same routine.
///
/// 1. The split: the one asked for, or one chosen from the days (`SplitSchedule`).
/// 2. Each day: its kind's slots (`TrainingDay`), less those the user's `avoid` spares (`MovementSlot.sparing`),
///    each filled from the slot's curated catalog ids the equipment allows (`ExercisePool`), rotating through
///    them so "Upper B" differs from "Upper A", never one exercise twice in a day; slots are kept in order while
///    their sets fit the session's minutes (`SessionBudget`), and a day left with fewer than two exercises is topped
///    up from its kind's backup slots.
/// 3. Sets, reps and RIR by goal and role (`SetPrescription`); then the week's sets per major muscle group are
///    trimmed to about twenty (`WeeklyVolume`).
/// 4. The name ("4-day Upper/Lower (dumbbells)") and a description of the goal, the order of the days and
///    their length.
public struct RoutinePlanner: Sendable {
    public let catalog: any ExerciseCatalog

    public init(catalog: any ExerciseCatalog) {
        self.catalog = catalog
    }

    /// The routine for the request: one template per training day, `frequency` the days a week. Throws
    /// `INVALID_ARGUMENT` when the days (named or implied by the split) are unknown or outside 1…7, or the
    /// equipment is unknown (ask first: `PlanRequestReader.missing(_:)`); `FAILED_PRECONDITION` when the catalog has
    /// no exercise at all for one of the days; and what the catalog throws.
    public func plan(_ request: PlanRequest) async throws -> RoutinePlan {
        guard let days = request.plannedDays, (1...7).contains(days) else {
            throw ServiceError.invalidArgument(field: "days", reason: "must be from 1 to 7")
        }
        guard let equipment = request.equipment else {
            throw ServiceError.invalidArgument(field: "equipment", reason: "is required")
        }
        let schedule = SplitSchedule(requested: request.split, days: days)
        let spared = request.avoid.reduce(into: Set<MovementSlot>()) { $0.formUnion(MovementSlot.sparing($1)) }
        var pool = ExercisePool(catalog: catalog, equipment: equipment)
        var seen: [TrainingDay: Int] = [:]
        var sessions: [[DraftExercise]] = []
        for kind in schedule.days {
            let rotation = seen[kind, default: 0] + (kind.follows.map { seen[$0, default: 0] } ?? 0)
            seen[kind, default: 0] += 1
            let slots = kind.slotLists[rotation % kind.slotLists.count].filter { !spared.contains($0) }
            let session = try await self.session(
                slots, backup: kind.backupSlots.filter { !spared.contains($0) }, rotation: rotation, request: request, pool: &pool)
            guard !session.isEmpty else {
                throw ServiceError(.failedPrecondition, "The exercise catalog has nothing for a \(kind.title) day with this equipment.")
            }
            sessions.append(session)
        }
        WeeklyVolume.trim(&sessions, minimumSets: SetPrescription.minimumSets(request.goal))
        let names = Self.sessionNames(schedule.days)
        return RoutinePlan(
            name: Self.name(days: days, split: schedule.split, equipment: equipment),
            description: Self.description(request: request, schedule: schedule, names: names, sessions: sessions),
            frequency: days,
            templates: zip(names, sessions).map { TemplatePlan(name: $0, exercises: $1.map(\.planned)) })
    }

    /// One session: the slots in order while they fit the budget's sets and exercises (the first two always), then
    /// backup slots while the session has fewer than two exercises.
    func session(
        _ slots: [MovementSlot], backup: [MovementSlot], rotation: Int, request: PlanRequest, pool: inout ExercisePool
    ) async throws -> [DraftExercise] {
        let budget = SessionBudget(minutes: request.minutes)
        var session: [DraftExercise] = []
        var used: Set<String> = []
        func add(_ slot: MovementSlot) async throws {
            guard let exercise = try await pool.pick(slot, rotation: rotation, excluding: used) else { return }
            let role: SetPrescription.Role = !slot.isCompound ? .isolation : session.isEmpty ? .primary : .compound
            let prescription = SetPrescription(goal: request.goal, role: role)
            let planned = session.reduce(0) { $0 + $1.prescription.sets }
            let fits = session.count < budget.exercises && planned + prescription.sets <= budget.sets
            guard session.count < SessionBudget.minimumExercises || fits else { return }
            session.append(DraftExercise(exercise: exercise, prescription: prescription))
            used.insert(exercise.id)
        }
        for slot in slots { try await add(slot) }
        for slot in backup where session.count < SessionBudget.minimumExercises { try await add(slot) }
        return session
    }
}
