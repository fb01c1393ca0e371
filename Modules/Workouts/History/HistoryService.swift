import Contracts
import Foundation
import Platform
import SQLKit

/// A page of archived workouts.
struct WorkoutPage: Codable, Sendable, Equatable {
    var items: [CompletedWorkout]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }
}

/// Changes to an archived workout; analytics are recomputed from the new sets.
///
/// `exercises` replaces the list. An exercise sent with its `instance_id` is that exercise edited: it keeps its
/// instance id (and its name unless `exercise_id` changes it), and each of its sets sent with its `id` keeps that id,
/// its targets and when it was done. Exercises and sets sent without ids are new; new sets count as done at the
/// workout's end. So a client can change one set's reps and every other id stays as it was. Every set sent is
/// the set as done, weight and reps (RIR optional): an archived set is a logged one, as `logSet` needs both.
struct WorkoutChanges: Codable, Sendable, Equatable {
    struct ExerciseChange: Codable, Sendable, Equatable {
        var instanceId: String?
        var exerciseId: String?
        var sets: [SetChange]

        enum CodingKeys: String, CodingKey {
            case instanceId = "instance_id"
            case exerciseId = "exercise_id"
            case sets
        }

        init(instanceId: String? = nil, exerciseId: String?, sets: [SetChange]) {
            self.instanceId = instanceId
            self.exerciseId = exerciseId
            self.sets = sets
        }
    }

    struct SetChange: Codable, Sendable, Equatable {
        var id: String?
        var weightKg: Double?
        var reps: Int
        var rir: Int?

        enum CodingKeys: String, CodingKey {
            case id
            case weightKg = "weight_kg"
            case weight
            case reps, rir
        }

        init(id: String? = nil, weightKg: Double?, reps: Int, rir: Int?) {
            self.id = id
            self.weightKg = weightKg
            self.reps = reps
            self.rir = rir
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(String.self, forKey: .id)
            weightKg = try container.decodeIfPresent(Double.self, forKey: .weightKg, alias: .weight)
            reps = try container.decode(Int.self, forKey: .reps)
            rir = try container.decodeIfPresent(Int.self, forKey: .rir)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(id, forKey: .id)
            try container.encodeIfPresent(weightKg, forKey: .weightKg)
            try container.encode(reps, forKey: .reps)
            try container.encodeIfPresent(rir, forKey: .rir)
        }
    }

    var name: String?
    var exercises: [ExerciseChange]?
}

extension WorkoutChanges: PatchChanges {}

/// Archived workouts: newest first, immutable except through `update`, which recomputes analytics.
struct HistoryService: Sendable {
    let context: WorkoutsContext

    func recent(userId: String, limit: Int, cursor: String?) async throws -> WorkoutPage {
        var after: (end: Int64, id: String)?
        if let cursor, !cursor.isEmpty {  // "" is the first page, as in every list (see `ExerciseQuery.cursor`)
            guard let decoded = PageCursor.decode(cursor), decoded.scope.hasPrefix("h:"), let end = Int64(decoded.scope.dropFirst(2)) else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list")
            }
            after = (end, decoded.position)
        }
        let filter: SQLQueryString =
            after.map { "AND (end_time < \(bind: $0.end) OR (end_time = \(bind: $0.end) AND id < \(bind: $0.id)))" } ?? ""
        let rows = try await context.database.sql.raw(
            """
            SELECT id, end_time, document FROM workouts_history WHERE user_id = \(bind: userId) \(filter)
            ORDER BY end_time DESC, id DESC LIMIT \(literal: limit + 1)
            """
        ).all()
        let page = rows.prefix(limit)
        let items = try page.map { try JSONCoding.load(CompletedWorkout.self, from: try $0.decode(column: "document", as: String.self)) }
        var next: String?
        if rows.count > limit, let last = page.last {
            next =
                PageCursor(
                    scope: "h:\(try last.decode(column: "end_time", as: Int64.self))",
                    position: try last.decode(column: "id", as: String.self)
                ).encoded
        }
        return WorkoutPage(items: items, nextCursor: next)
    }

    /// The user's workouts that ended in `[from, before)`, oldest first (end time, then id), for `TrainingLog`.
    func range(userId: String, from: Date?, before: Date?, limit: Int, cursor: String?) async throws -> CompletedWorkoutPage {
        guard (1...500).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 500") }
        var conditions: [SQLQueryString] = ["user_id = \(bind: userId)"]
        if let from { conditions.append("end_time >= \(bind: from.millisecondsSince1970)") }
        if let before { conditions.append("end_time < \(bind: before.millisecondsSince1970)") }
        if let cursor, !cursor.isEmpty {
            guard let decoded = PageCursor.decode(cursor), decoded.scope.hasPrefix("r:"), let end = Int64(decoded.scope.dropFirst(2)) else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list")
            }
            conditions.append("(end_time > \(bind: end) OR (end_time = \(bind: end) AND id > \(bind: decoded.position)))")
        }
        let rows = try await context.database.sql.raw(
            """
            SELECT id, end_time, document FROM workouts_history WHERE \(conditions.joined(separator: " AND "))
            ORDER BY end_time, id LIMIT \(literal: limit + 1)
            """
        ).all()
        let page = rows.prefix(limit)
        let items = try page.map { try JSONCoding.load(CompletedWorkout.self, from: try $0.decode(column: "document", as: String.self)) }
        var next: String?
        if rows.count > limit, let last = page.last {
            next =
                PageCursor(
                    scope: "r:\(try last.decode(column: "end_time", as: Int64.self))",
                    position: try last.decode(column: "id", as: String.self)
                ).encoded
        }
        return CompletedWorkoutPage(workouts: items, nextCursor: next)
    }

    func get(userId: String, id: String) async throws -> CompletedWorkout {
        try await context.document(
            CompletedWorkout.self, table: "workouts_history", id: id, userId: userId, sql: context.database.sql, what: "workout")
    }

    /// Edits a completed workout (name, or its exercises and sets), recomputes analytics and publishes
    /// `WorkoutEdited` in the same transaction. Idempotent under `key`.
    func update(userId: String, id: String, changes: WorkoutChanges, key: String? = nil) async throws -> IdempotentAnswer<CompletedWorkout>
    {
        // An edit that changes nothing would still move `updated_at` and send every reader of `WorkoutEdited` to work.
        guard !changes.changesNothing else { throw WorkoutChanges.nothingToChange("a new name or exercises") }
        let name = try changes.name.map { try WorkoutsValidation.name($0) }
        let exercises = try changes.exercises.map(Self.validated)
        let references = (exercises ?? []).enumerated().compactMap { index, change in
            change.exerciseId.map { ("exercises[\(index)].exercise_id", $0) }
        }
        let context = self.context
        let catalogFound = try await WorkoutsContext.deferringUnknownExercise { try await context.exercises(references) }
        let request = Edit(workoutId: id, changes: changes)
        return try await context.idempotency.write(userId: userId, key: key, operation: "updateWorkout", request: request) { tx in
            var workout = try await context.document(
                CompletedWorkout.self, table: "workouts_history", id: id, userId: userId, sql: tx.sql, lock: true, what: "workout")
            let catalog = try catalogFound.get()
            if let name { workout.name = name }
            if let exercises {
                workout.exercises = try Self.edited(workout, with: exercises, catalog: catalog, ids: context.ids)
            }
            let exerciseCatalog = try await context.catalog.exercises(ids: workout.exercises.map(\.exerciseId), sql: tx.sql)
            workout.analytics = WorkoutAnalyzer.analyze(workout.exercises, catalog: exerciseCatalog)
            workout.updatedAt = context.clock.now()
            try await tx.sql.raw(
                """
                UPDATE workouts_history SET document = \(bind: try JSONCoding.store(workout)),
                    updated_at = \(bind: workout.updatedAt.millisecondsSince1970)
                WHERE id = \(bind: id) AND user_id = \(bind: userId)
                """
            ).run()
            try await tx.publish(
                WorkoutEdited(userId: userId, workoutId: id, editedAt: workout.updatedAt),
                // Its own id: two edits within one millisecond are two events.
                id: "workout-edited:\(id):\(context.ids.makeID())", occurredAt: workout.updatedAt)
            return workout
        }
    }

    /// What a repeated `updateWorkout` must match.
    private struct Edit: Encodable {
        var workoutId: String
        var changes: WorkoutChanges
    }

    /// The exercises' shape and values checked (no database needed): limits, values, an exercise id for every
    /// new exercise, and no instance or set id given twice.
    static func validated(_ exercises: [WorkoutChanges.ExerciseChange]) throws -> [WorkoutChanges.ExerciseChange] {
        guard exercises.count <= WorkoutsValidation.maxExercises else {
            throw ServiceError.invalidArgument(field: "exercises", reason: "at most 50 exercises")
        }
        // A completed workout holds what was done, as completion archives it: at least one exercise, each with a
        // set. Emptying it is deleting it (`deleteWorkout`).
        guard !exercises.isEmpty else {
            throw ServiceError.invalidArgument(
                field: "exercises", reason: "must hold at least one exercise (deleteWorkout removes a workout)")
        }
        var instanceIds = Set<String>()
        var setIds = Set<String>()
        return try exercises.enumerated().map { index, change in
            var change = change
            let field = "exercises[\(index)]"
            if let instanceId = change.instanceId {
                guard instanceIds.insert(instanceId).inserted else {
                    throw ServiceError.invalidArgument(field: "\(field).instance_id", reason: "lists the same exercise twice")
                }
            } else if change.exerciseId == nil {
                throw ServiceError.invalidArgument(
                    field: "\(field).exercise_id", reason: "is required for an exercise without an instance_id")
            }
            guard (1...30).contains(change.sets.count) else {
                throw ServiceError.invalidArgument(field: "\(field).sets", reason: "must hold 1 to 30 sets")
            }
            for (setIndex, set) in change.sets.enumerated() {
                let setField = "\(field).sets[\(setIndex)]"
                if let id = set.id, !setIds.insert(id).inserted {
                    throw ServiceError.invalidArgument(field: "\(setField).id", reason: "lists the same set twice")
                }
                guard let weight = try WorkoutsValidation.weight(set.weightKg, field: "\(setField).weight_kg") else {
                    throw ServiceError.invalidArgument(
                        field: "\(setField).weight_kg", reason: "missing",
                        message: "Each set needs its weight in kg (0 for bodyweight) and reps, as it was done.")
                }
                change.sets[setIndex].weightKg = weight
                _ = try WorkoutsValidation.reps(set.reps, field: "\(setField).reps")
                change.sets[setIndex].rir = try WorkoutsValidation.rir(set.rir, field: "\(setField).rir")
            }
            return change
        }
    }

    /// The workout's new exercises: those sent with ids keep them (and, for sets, their targets and time);
    /// an id the workout does not hold is `NOT_FOUND`.
    static func edited(
        _ workout: CompletedWorkout, with changes: [WorkoutChanges.ExerciseChange], catalog: [String: Exercise], ids: any IDGenerator
    ) throws -> [WorkoutExercise] {
        try changes.enumerated().map { index, change in
            let field = "exercises[\(index)]"
            var existing: WorkoutExercise?
            if let instanceId = change.instanceId {
                guard let found = workout.exercises.first(where: { $0.instanceId == instanceId }) else {
                    throw ServiceError(.notFound, "That exercise is not in this workout.", details: ["\(field).instance_id": instanceId])
                }
                existing = found
            }
            guard let exerciseId = change.exerciseId ?? existing?.exerciseId else {
                throw ServiceError.invalidArgument(field: "\(field).exercise_id", reason: "is required for an exercise without instance_id")
            }
            // Changed to another exercise, kept sets keep their target reps and RIR but not the planned weight,
            // which was for the other exercise (as `swapExercise` does).
            let sameExercise = existing?.exerciseId == exerciseId
            let sets = try change.sets.enumerated().map { setIndex, set in
                var kept: WorkoutSet?
                if let id = set.id {
                    guard let found = existing?.sets.first(where: { $0.id == id }) else {
                        throw ServiceError(.notFound, "That set is not in this exercise.", details: ["\(field).sets[\(setIndex)].id": id])
                    }
                    kept = found
                }
                return WorkoutSet(
                    id: kept?.id ?? ids.makeID(), setIndex: setIndex, targetReps: kept?.targetReps, targetRir: kept?.targetRir,
                    targetWeightKg: sameExercise ? kept?.targetWeightKg : nil, weightKg: set.weightKg, reps: set.reps, rir: set.rir,
                    completedAt: kept?.completedAt ?? workout.endTime)
            }
            // A kept exercise keeps its name (as it was when done); another exercise takes the catalog's.
            let name = existing.flatMap { $0.exerciseId == exerciseId ? $0.name : nil } ?? catalog[exerciseId]?.name ?? exerciseId
            return WorkoutExercise(instanceId: existing?.instanceId ?? ids.makeID(), exerciseId: exerciseId, name: name, sets: sets)
        }
    }

    /// Deletes the archived workout, steps back the cursor of its routine if it last moved it, and publishes
    /// `WorkoutDeleted`, all in one transaction; answers it as it was. Idempotent under `key`
    /// (a retry after the answer was lost gets it again, not `NOT_FOUND`).
    @discardableResult
    func delete(userId: String, id: String, key: String? = nil) async throws -> IdempotentAnswer<CompletedWorkout> {
        let context = self.context
        return try await context.idempotency.write(userId: userId, key: key, operation: "deleteWorkout", request: ["workout_id": id]) {
            tx in
            if context.database.engine == .postgres {
                // The header first, as every path that deletes a workout's rows takes it (the eraser, the purge of
                // ended workouts): deleting the archive and the sets before waiting for it would deadlock with them.
                try await tx.sql.run(ActiveWorkoutService.lockWorkout(SQLValue(id), SQLValue(userId)))
            }
            guard
                let document = try await tx.sql.raw(
                    "DELETE FROM workouts_history WHERE id = \(bind: id) AND user_id = \(bind: userId) RETURNING document"
                ).first(decodingColumn: "document", as: String.self)
            else { throw ServiceError(.notFound, "That workout does not exist.", details: ["workout_id": id]) }
            // The rows it was run in (kept after completion, so a late write to it is refused as finished) go with
            // it: deleted, it is no longer stored anywhere, and a late write finds no workout.
            try await tx.sql.raw("DELETE FROM workouts_active_sets WHERE workout_id = \(bind: id) AND user_id = \(bind: userId)").run()
            try await tx.sql.raw("DELETE FROM workouts_active_exercises WHERE workout_id = \(bind: id) AND user_id = \(bind: userId)").run()
            try await tx.sql.raw("DELETE FROM workouts_active WHERE id = \(bind: id) AND user_id = \(bind: userId)").run()
            let now = context.clock.now()
            let deleted = try JSONCoding.load(CompletedWorkout.self, from: document)
            try await RoutineService(context: context).rewindCursor(after: deleted, sql: tx.sql)
            try await tx.publish(
                WorkoutDeleted(userId: userId, workoutId: id, sourceRoutineId: deleted.sourceRoutineId, deletedAt: now),
                id: "workout-deleted:\(id)", occurredAt: now)
            return deleted
        }
    }
}
