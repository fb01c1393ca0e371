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
struct WorkoutChanges: Codable, Sendable, Equatable {
    struct ExerciseChange: Codable, Sendable, Equatable {
        var exerciseId: String
        var sets: [SetChange]

        enum CodingKeys: String, CodingKey {
            case exerciseId = "exercise_id"
            case sets
        }
    }

    struct SetChange: Codable, Sendable, Equatable {
        var weightKg: Double?
        var reps: Int
        var rir: Int?

        enum CodingKeys: String, CodingKey {
            case weightKg = "weight_kg"
            case weight
            case reps, rir
        }

        init(weightKg: Double?, reps: Int, rir: Int?) {
            self.weightKg = weightKg
            self.reps = reps
            self.rir = rir
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            weightKg = try container.decodeIfPresent(Double.self, forKey: .weightKg, alias: .weight)
            reps = try container.decode(Int.self, forKey: .reps)
            rir = try container.decodeIfPresent(Int.self, forKey: .rir)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(weightKg, forKey: .weightKg)
            try container.encode(reps, forKey: .reps)
            try container.encodeIfPresent(rir, forKey: .rir)
        }
    }

    var name: String?
    var exercises: [ExerciseChange]?
}

/// Archived workouts: newest first, immutable except through `update`, which recomputes analytics.
struct HistoryService: Sendable {
    let context: WorkoutsContext

    func recent(userId: String, limit: Int, cursor: String?) async throws -> WorkoutPage {
        var after: (end: Int64, id: String)?
        if let cursor {
            guard let decoded = PageCursor.decode(cursor), decoded.scope.hasPrefix("h:"), let end = Int64(decoded.scope.dropFirst(2)) else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list")
            }
            after = (end, decoded.position)
        }
        let filter: SQLQueryString = after.map { "AND (end_time < \(bind: $0.end) OR (end_time = \(bind: $0.end) AND id < \(bind: $0.id)))" } ?? ""
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
            next = PageCursor(scope: "h:\(try last.decode(column: "end_time", as: Int64.self))", position: try last.decode(column: "id", as: String.self)).encoded
        }
        return WorkoutPage(items: items, nextCursor: next)
    }

    func get(userId: String, id: String) async throws -> CompletedWorkout {
        try await context.document(CompletedWorkout.self, table: "workouts_history", id: id, userId: userId, sql: context.database.sql, what: "workout")
    }

    /// Edits a completed workout (name, or its exercises and sets), recomputes analytics and publishes
    /// `WorkoutEdited` in the same transaction.
    func update(userId: String, id: String, changes: WorkoutChanges) async throws -> CompletedWorkout {
        let name = try changes.name.map { try WorkoutsValidation.name($0) }
        let references = (changes.exercises ?? []).enumerated().map { ("exercises[\($0.offset)].exercise_id", $0.element.exerciseId) }
        let catalog = try await context.exercises(references)
        let context = self.context
        return try await context.database.transaction { tx in
            var workout = try await context.document(
                CompletedWorkout.self, table: "workouts_history", id: id, userId: userId, sql: tx.sql, lock: true, what: "workout")
            if let name { workout.name = name }
            if let exercises = changes.exercises {
                guard exercises.count <= WorkoutsValidation.maxExercises else { throw ServiceError.invalidArgument(field: "exercises", reason: "at most 50 exercises") }
                workout.exercises = try exercises.enumerated().map { index, change in
                    guard change.sets.count <= 30 else { throw ServiceError.invalidArgument(field: "exercises[\(index)].sets", reason: "at most 30 sets") }
                    let sets = try change.sets.enumerated().map { setIndex, set in
                        let field = "exercises[\(index)].sets[\(setIndex)]"
                        return WorkoutSet(
                            id: context.ids.makeID(), setIndex: setIndex,
                            weightKg: try WorkoutsValidation.weight(set.weightKg, field: "\(field).weight_kg"),
                            reps: try WorkoutsValidation.reps(set.reps, field: "\(field).reps"),
                            rir: try WorkoutsValidation.rir(set.rir, field: "\(field).rir"), completedAt: workout.endTime)
                    }
                    return WorkoutExercise(
                        instanceId: context.ids.makeID(), exerciseId: change.exerciseId, name: catalog[change.exerciseId]?.name ?? change.exerciseId,
                        sets: sets)
                }
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

    /// Deletes the archived workout and publishes `WorkoutDeleted`; returns it as it was.
    @discardableResult
    func delete(userId: String, id: String) async throws -> CompletedWorkout {
        let context = self.context
        return try await context.database.transaction { tx in
            guard
                let document = try await tx.sql.raw(
                    "DELETE FROM workouts_history WHERE id = \(bind: id) AND user_id = \(bind: userId) RETURNING document"
                ).first(decodingColumn: "document", as: String.self)
            else { throw ServiceError(.notFound, "That workout does not exist.", details: ["id": id]) }
            let now = context.clock.now()
            try await tx.publish(WorkoutDeleted(userId: userId, workoutId: id, deletedAt: now), id: "workout-deleted:\(id)", occurredAt: now)
            return try JSONCoding.load(CompletedWorkout.self, from: document)
        }
    }
}
