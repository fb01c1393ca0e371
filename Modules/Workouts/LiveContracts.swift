import Contracts
import Foundation
import Platform
import SQLKit

/// Workouts' `PlanLibrary`.
public struct SQLPlanLibrary: PlanLibrary {
    let templates: TemplateService
    let routines: RoutineService

    public func templates(userId: String) async throws -> [WorkoutTemplate] {
        try await templates.list(userId: userId)
    }

    public func template(userId: String, id: String) async throws -> WorkoutTemplate {
        try await templates.get(userId: userId, id: id)
    }

    public func routines(userId: String) async throws -> [Routine] {
        try await routines.list(userId: userId).map(\.routine)
    }

    public func routine(userId: String, id: String) async throws -> Routine {
        try await routines.get(userId: userId, id: id).routine
    }

    /// The setting and the routine from one snapshot (deleting a routine clears the setting in the same
    /// transaction, so a routine deleted meanwhile is nil, not NOT_FOUND).
    public func activeRoutine(userId: String) async throws -> Routine? {
        let routines = self.routines
        return try await routines.context.database.readTransaction { sql in
            guard let id = try await routines.activeRoutineId(userId: userId, sql: sql) else { return nil }
            return try await routines.stored(userId: userId, id: id, sql: sql).routine
        }
    }

    public func createRoutine(userId: String, plan: RoutinePlan, activate: Bool, idempotencyKey: String?) async throws -> CreatedRoutine {
        let key = try IdempotencyStore.checkKey(idempotencyKey)
        // An activating and a saving request are different requests under one key.
        let operation = activate ? "createRoutineFromPlan" : "saveRoutineFromPlan"
        let fingerprint = try IdempotencyStore.requestFingerprint(operation: operation, request: plan)
        let name = try WorkoutsValidation.name(plan.name)
        let description = try WorkoutsValidation.description(plan.description)
        let frequency = try RoutineService.frequency(plan.frequency)
        guard (1...30).contains(plan.templates.count) else {
            throw ServiceError.invalidArgument(field: "templates", reason: "must hold 1 to 30 templates")
        }
        // Template by template, its name then its exercises; a field is named within its template
        // (`templates[1].exercises[0].exercise_id`).
        var resolved: [(String, [TemplateExercise])] = []
        for (index, template) in plan.templates.enumerated() {
            let templateName = try WorkoutsValidation.name(template.name, field: "templates[\(index)].name")
            do {
                resolved.append((templateName, try await templates.resolve(template.exercises)))
            } catch let error as ServiceError {
                throw error.nested(under: "templates[\(index)].")
            }
        }
        let context = templates.context
        let drafts = resolved
        return try await context.database.transaction { tx in
            try await context.idempotency.run(
                in: tx, userId: userId, key: key, operation: operation, fingerprint: fingerprint
            ) {
                var created: [WorkoutTemplate] = []
                // A millisecond apart, so that the user's template list (in creation order) shows them in the plan's
                // order rather than by their random ids, as they would all share one millisecond.
                let now = context.clock.now()
                for (index, (templateName, exercises)) in drafts.enumerated() {
                    created.append(
                        try await TemplateService.insert(
                            userId: userId, name: templateName, description: nil, exercises: exercises,
                            createdAt: now.addingTimeInterval(Double(index) / 1000), context: context, sql: tx.sql))
                }
                let routine = try await RoutineService.insert(
                    userId: userId, name: name, description: description, templateIds: created.map(\.id), frequency: frequency,
                    context: context,
                    sql: tx.sql)
                guard activate else { return CreatedRoutine(routine: routine, templates: created) }
                try await tx.sql.raw(
                    """
                    INSERT INTO workouts_user_settings (user_id, active_routine_id, updated_at)
                    VALUES (\(bind: userId), \(bind: routine.id), \(bind: context.clock.now().millisecondsSince1970))
                    ON CONFLICT (user_id) DO UPDATE SET active_routine_id = excluded.active_routine_id, updated_at = excluded.updated_at
                    """
                ).run()
                return CreatedRoutine(routine: routine, templates: created)
            }
        }.value()
    }

    public func createTemplate(userId: String, plan: TemplatePlan, idempotencyKey: String?) async throws -> WorkoutTemplate {
        try await templates.create(userId: userId, draft: TemplateDraft(name: plan.name, exercises: plan.exercises), key: idempotencyKey)
            .value()
    }

    public func applyTemplateChanges(
        userId: String, templateId: String, expectedVersion: Int, exercises: [PlannedExercise], idempotencyKey: String?
    ) async throws -> WorkoutTemplate {
        try await templates.patch(
            userId: userId, id: templateId, expectedVersion: expectedVersion, changes: TemplatePatch(exercises: exercises),
            key: idempotencyKey
        ).value()
    }

    public func updateRoutine(userId: String, routineId: String, expectedVersion: Int, changes: RoutineChanges, idempotencyKey: String?)
        async throws -> Routine
    {
        try await routines.patch(
            userId: userId, id: routineId, expectedVersion: expectedVersion,
            changes: RoutinePatch(
                name: changes.name, description: changes.description, templateIds: changes.templateIds, frequency: changes.frequency),
            key: idempotencyKey
        ).value().routine
    }
}

/// Workouts' `TrainingLog`.
public struct SQLTrainingLog: TrainingLog {
    let history: HistoryService

    public func recentWorkouts(userId: String, limit: Int) async throws -> [CompletedWorkout] {
        try await recentWorkouts(userId: userId, limit: limit, cursor: nil).workouts
    }

    /// A page of the user's completed workouts, newest first, and the cursor of the next page if more follow
    /// (as `getRecentWorkouts` pages; the admin CLI lists history with it).
    public func recentWorkouts(userId: String, limit: Int, cursor: String?) async throws -> (
        workouts: [CompletedWorkout], nextCursor: String?
    ) {
        let page = try await history.recent(userId: userId, limit: try WorkoutsValidation.limit(limit), cursor: cursor)
        return (page.items, page.nextCursor)
    }

    public func workout(userId: String, id: String) async throws -> CompletedWorkout? {
        do {
            return try await history.get(userId: userId, id: id)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    public func completedWorkouts(userId: String, endedFrom: Date?, endedBefore: Date?, limit: Int, cursor: String?) async throws
        -> CompletedWorkoutPage
    {
        try await history.range(userId: userId, from: endedFrom, before: endedBefore, limit: limit, cursor: cursor)
    }

    public func usersWithHistory(after: String?, limit: Int) async throws -> [String] {
        guard (1...1000).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 1000") }
        let filter: SQLQueryString = after.map { "WHERE user_id > \(bind: $0)" } ?? ""
        return try await history.context.database.sql.raw(
            "SELECT DISTINCT user_id FROM workouts_history \(filter) ORDER BY user_id LIMIT \(literal: limit)"
        ).all(decodingColumn: "user_id", as: String.self)
    }
}

/// Workouts' `ActiveWorkoutControl`.
public struct SQLActiveWorkoutControl: ActiveWorkoutControl {
    let active: ActiveWorkoutService

    public func activeWorkout(userId: String) async throws -> ActiveWorkout? {
        try await active.active(userId: userId)
    }

    public func logSet(
        userId: String, workoutId: String, exerciseInstanceId: String, setId: String, weightKg: Double, reps: Int, rir: Int?,
        idempotencyKey: String
    ) async throws -> ActiveWorkout {
        _ = try await active.logSet(
            userId: userId,
            request: .init(
                workoutId: workoutId, exerciseInstanceId: exerciseInstanceId, setId: setId, weightKg: weightKg, reps: reps, rir: rir),
            key: idempotencyKey)
        return try await current(userId: userId, workoutId: workoutId)
    }

    public func addExercise(userId: String, workoutId: String, exerciseId: String, sets: Int, idempotencyKey: String) async throws
        -> ActiveWorkout
    {
        try await active.addExercise(
            userId: userId, request: .init(workoutId: workoutId, exerciseId: exerciseId, sets: sets), key: idempotencyKey
        )
        .value()
    }

    public func swapExercise(
        userId: String, workoutId: String, exerciseInstanceId: String, newExerciseId: String, idempotencyKey: String
    ) async throws -> ActiveWorkout {
        try await active.swapExercise(
            userId: userId, request: .init(workoutId: workoutId, exerciseInstanceId: exerciseInstanceId, newExerciseId: newExerciseId),
            key: idempotencyKey
        ).value()
    }

    public func startWorkout(userId: String, start: WorkoutStart, idempotencyKey: String) async throws -> ActiveWorkout {
        let request: ActiveWorkoutService.StartRequest
        switch start {
        case .template(let templateId, let routineId): request = .init(templateId: templateId, routineId: routineId)
        case .plan(let name, let exercises): request = .init(name: name, exercises: exercises)
        }
        return try await active.start(userId: userId, request: request, idempotencyKey: idempotencyKey).value()
    }

    public func prescribeSet(
        userId: String, workoutId: String, exerciseInstanceId: String, setId: String, targetReps: Int?, targetWeightKg: Double?,
        targetRir: Int?, idempotencyKey: String
    ) async throws -> ActiveWorkout {
        let ops = [
            ("target_reps", targetReps.map(Double.init)), ("target_weight_kg", targetWeightKg), ("target_rir", targetRir.map(Double.init)),
        ]
        .compactMap { field, value in
            value.map { PatchOperation.setField(exerciseInstanceId: exerciseInstanceId, setId: setId, field: field, value: $0) }
        }
        guard !ops.isEmpty else {
            throw ServiceError.invalidArgument(field: "target_reps", reason: "name at least one target to set")
        }
        return try await active.patch(userId: userId, request: .init(workoutId: workoutId, ops: ops), key: idempotencyKey).value()
    }

    public func removeSet(userId: String, workoutId: String, exerciseInstanceId: String, setId: String, idempotencyKey: String) async throws
        -> ActiveWorkout
    {
        try await active.patch(
            userId: userId,
            request: .init(workoutId: workoutId, ops: [.removeSet(exerciseInstanceId: exerciseInstanceId, setId: setId)]),
            key: idempotencyKey
        ).value()
    }

    public func completeWorkout(userId: String, workoutId: String, idempotencyKey: String) async throws -> CompletedWorkout {
        try await active.complete(userId: userId, workoutId: workoutId, key: idempotencyKey).value()
    }

    public func cancelWorkout(userId: String, workoutId: String, idempotencyKey: String) async throws {
        _ = try await active.cancel(userId: userId, workoutId: workoutId, key: idempotencyKey).value()
    }

    private func current(userId: String, workoutId: String) async throws -> ActiveWorkout {
        try await active.workout(userId: userId, id: workoutId)
    }
}
