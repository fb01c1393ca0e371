import Contracts
import Foundation
import Platform
import SQLKit
import Synchronization

/// The hot path of every set logged: the active workout as rows. A header row (`workouts_active`: status,
/// version, name, times), one row per exercise and one per set. Saving compares the workout before and after
/// the change and writes only what differs, so logging a set is two small UPDATEs whatever the workout's
/// size, while a change of structure (add, remove, reorder, swap) rewrites that workout's exercise and set
/// rows. Totals are derived from the sets, never stored.
enum ActiveWorkoutStorage {
    /// Inserts a new workout: header, exercises and sets.
    static func insert(_ workout: ActiveWorkout, sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO workouts_active (id, user_id, status, version, name, source_template_id, source_routine_id, start_time,
                                         created_at, updated_at)
            VALUES (\(bind: workout.id), \(bind: workout.userId), \(bind: workout.status.rawValue), \(bind: workout.version),
                    \(bind: workout.name), \(bind: workout.sourceTemplateId), \(bind: workout.sourceRoutineId),
                    \(bind: workout.startTime.millisecondsSince1970), \(bind: workout.createdAt.millisecondsSince1970),
                    \(bind: workout.updatedAt.millisecondsSince1970))
            """
        ).run()
        try await insertRows(of: workout, sql: sql)
    }

    /// Writes what changed from `original` to `updated` (the same workout, loaded in this transaction).
    static func save(from original: ActiveWorkout, to updated: ActiveWorkout, sql: any SQLDatabase) async throws {
        if updated.status == original.status, updated.name == original.name {
            // Only the version and time: the in-progress index (over status) is left alone.
            try await sql.run(
                updateVersion(SQLValue(updated.version), SQLValue(updated.updatedAt.millisecondsSince1970), SQLValue(updated.id)))
        } else {
            let ended = updated.status == .inProgress ? nil : updated.updatedAt.millisecondsSince1970
            try await sql.run(
                updateHeader(
                    SQLValue(updated.status.rawValue), SQLValue(updated.version), SQLValue(updated.name),
                    SQLValue(updated.updatedAt.millisecondsSince1970), SQLValue(ended), SQLValue(updated.id)))
        }
        guard sameShape(original.exercises, updated.exercises) else {
            try await sql.raw("DELETE FROM workouts_active_sets WHERE workout_id = \(bind: updated.id)").run()
            try await sql.raw("DELETE FROM workouts_active_exercises WHERE workout_id = \(bind: updated.id)").run()
            try await insertRows(of: updated, sql: sql)
            return
        }
        for index in updated.exercises.indices {
            let before = original.exercises[index].sets
            let after = updated.exercises[index].sets
            if sameStorage(before, after) { continue }
            for position in after.indices where before[position] != after[position] {
                let new = after[position]
                try await sql.run(
                    updateSet(
                        SQLValue(new.setIndex), SQLValue(new.targetReps), SQLValue(new.targetRir), SQLValue(new.targetWeightKg),
                        SQLValue(new.weightKg), SQLValue(new.reps), SQLValue(new.rir), SQLValue(new.completedAt?.millisecondsSince1970),
                        SQLValue(updated.id), SQLValue(new.id)))
            }
        }
    }

    /// Whether two versions of the exercise list have the same exercises and sets, in the same order, so
    /// only set values can differ.
    static func sameShape(_ a: [WorkoutExercise], _ b: [WorkoutExercise]) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices {
            guard a[index].instanceId == b[index].instanceId, a[index].exerciseId == b[index].exerciseId, a[index].name == b[index].name
            else { return false }
            let x = a[index].sets
            let y = b[index].sets
            guard x.count == y.count else { return false }
            if sameStorage(x, y) { continue }
            for position in x.indices where x[position].id != y[position].id { return false }
        }
        return true
    }

    /// Whether two arrays share their storage, so hold the same elements without comparing them: a change to
    /// one set of a workout copies only that exercise's sets, the other exercises keep theirs.
    private static func sameStorage<T>(_ a: [T], _ b: [T]) -> Bool {
        a.count == b.count && a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }

    /// `plannedWeights`: false for migration 3, which runs before migration 7 adds `target_weight_kg` (the
    /// documents it moves have none).
    static func insertRows(of workout: ActiveWorkout, sql: any SQLDatabase, plannedWeights: Bool = true) async throws {
        guard !workout.exercises.isEmpty else { return }
        // Bounded batches keep each statement under every engine's bind-parameter limit.
        for chunk in Array(workout.exercises.enumerated()).chunked(200) {
            var query = SQLQueryString(
                "INSERT INTO workouts_active_exercises (workout_id, user_id, position, instance_id, exercise_id, name) VALUES ")
            for (offset, (position, exercise)) in chunk.enumerated() {
                if offset > 0 { query.appendLiteral(", ") }
                query.appendInterpolation(
                    "(\(bind: workout.id), \(bind: workout.userId), \(bind: position), \(bind: exercise.instanceId), \(bind: exercise.exerciseId), \(bind: exercise.name))"
                        as SQLQueryString)
            }
            try await sql.raw(query).run()
        }
        let sets = workout.exercises.flatMap { exercise in exercise.sets.enumerated().map { (exercise.instanceId, $0, $1) } }
        let plannedColumn: SQLQueryString = plannedWeights ? "target_weight_kg, " : ""
        for chunk in sets.chunked(200) {
            var query: SQLQueryString = """
                INSERT INTO workouts_active_sets (workout_id, user_id, instance_id, position, set_id, set_index, target_reps, target_rir,
                                                  \(plannedColumn)weight_kg, reps, rir, completed_at) VALUES 
                """
            for (offset, (instanceId, position, set)) in chunk.enumerated() {
                if offset > 0 { query.appendLiteral(", ") }
                let planned: SQLQueryString = plannedWeights ? "\(bind: set.targetWeightKg), " : ""
                query.appendInterpolation(
                    """
                    (\(bind: workout.id), \(bind: workout.userId), \(bind: instanceId), \(bind: position), \(bind: set.id), \(bind: set.setIndex),
                     \(bind: set.targetReps), \(bind: set.targetRir), \(planned)\(bind: set.weightKg), \(bind: set.reps), \(bind: set.rir),
                     \(bind: set.completedAt?.millisecondsSince1970))
                    """ as SQLQueryString)
            }
            try await sql.raw(query).run()
        }
    }

    /// The header columns of a workout, as selected by `headerColumns`.
    struct Header {
        var id: String
        var userId: String
        var status: WorkoutStatus
        var version: Int
        var name: String?
        var sourceTemplateId: String?
        var sourceRoutineId: String?
        var startTime: Date
        var createdAt: Date
        var updatedAt: Date

        init(row: any SQLRow) throws {
            id = try row.decode(column: "id", as: String.self)
            userId = try row.decode(column: "user_id", as: String.self)
            let statusText = try row.decode(column: "status", as: String.self)
            guard let status = WorkoutStatus(rawValue: statusText) else {
                throw ServiceError(.internalError, "A stored workout has an unknown status.", details: ["status": statusText])
            }
            self.status = status
            version = try row.decode(column: "version", as: Int.self)
            name = try row.decode(column: "name", as: String?.self)
            sourceTemplateId = try row.decode(column: "source_template_id", as: String?.self)
            sourceRoutineId = try row.decode(column: "source_routine_id", as: String?.self)
            startTime = Date(millisecondsSince1970: try row.decode(column: "start_time", as: Int64.self))
            createdAt = Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self))
            updatedAt = Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self))
        }
    }

    static let headerColumnList =
        "id, user_id, status, version, name, source_template_id, source_routine_id, start_time, created_at, updated_at"
    static let headerColumns = SQLQueryString(headerColumnList)

    /// A workout's header, locked for the writing transaction on PostgreSQL (SQLite has its single writer).
    static let lockedHeader = FixedSQL(
        sqlite: "SELECT \(headerColumnList) FROM workouts_active WHERE id = ? AND user_id = ?",
        postgres: "SELECT \(headerColumnList) FROM workouts_active WHERE id = ? AND user_id = ? FOR UPDATE")
    /// A workout's header and the answer stored under an idempotency key, in one read (the key's columns are
    /// NULL when it was never used). Parameters: key, workout id, user id.
    static let headerAndStoredAnswer = FixedSQL(
        """
        SELECT \(headerColumnList.split(separator: ", ").map { "h.\($0)" }.joined(separator: ", ")),
               i.request_hash, i.response, i.response_format
        FROM workouts_active h
        LEFT JOIN workouts_idempotency i ON i.user_id = h.user_id AND i.idempotency_key = ?
        WHERE h.id = ? AND h.user_id = ?
        """)
    static let updateVersion = FixedSQL("UPDATE workouts_active SET version = ?, updated_at = ? WHERE id = ?")
    static let updateHeader = FixedSQL(
        "UPDATE workouts_active SET status = ?, version = ?, name = ?, updated_at = ?, ended_at = ? WHERE id = ?")
    static let updateSet = FixedSQL(
        """
        UPDATE workouts_active_sets SET set_index = ?, target_reps = ?, target_rir = ?, target_weight_kg = ?, weight_kg = ?, reps = ?, rir = ?,
            completed_at = ?
        WHERE workout_id = ? AND set_id = ?
        """)

    /// The whole workout under `header`: its exercises and sets, read in this transaction.
    static func load(_ header: Header, sql: any SQLDatabase) async throws -> ActiveWorkout {
        let exerciseRows = try await sql.raw(
            """
            SELECT instance_id, exercise_id, name FROM workouts_active_exercises
            WHERE workout_id = \(bind: header.id) ORDER BY position
            """
        ).all()
        let setRows = try await sql.raw(
            """
            SELECT instance_id, set_id, set_index, target_reps, target_rir, target_weight_kg, weight_kg, reps, rir, completed_at
            FROM workouts_active_sets WHERE workout_id = \(bind: header.id) ORDER BY instance_id, position
            """
        ).all()
        var sets: [String: [WorkoutSet]] = [:]
        for row in setRows {
            let set = WorkoutSet(
                id: try row.decode(column: "set_id", as: String.self), setIndex: try row.decode(column: "set_index", as: Int.self),
                targetReps: try row.decode(column: "target_reps", as: Int?.self),
                targetRir: try row.decode(column: "target_rir", as: Int?.self),
                targetWeightKg: try row.decode(column: "target_weight_kg", as: Double?.self),
                weightKg: try row.decode(column: "weight_kg", as: Double?.self), reps: try row.decode(column: "reps", as: Int?.self),
                rir: try row.decode(column: "rir", as: Int?.self),
                completedAt: try row.decode(column: "completed_at", as: Int64?.self).map(Date.init(millisecondsSince1970:)))
            sets[try row.decode(column: "instance_id", as: String.self), default: []].append(set)
        }
        let exercises = try exerciseRows.map { row in
            let instanceId = try row.decode(column: "instance_id", as: String.self)
            return WorkoutExercise(
                instanceId: instanceId, exerciseId: try row.decode(column: "exercise_id", as: String.self),
                name: try row.decode(column: "name", as: String.self), sets: sets[instanceId] ?? [])
        }
        return ActiveWorkout(
            id: header.id, userId: header.userId, name: header.name, sourceTemplateId: header.sourceTemplateId,
            sourceRoutineId: header.sourceRoutineId, status: header.status, startTime: header.startTime, version: header.version,
            exercises: exercises, totals: WorkoutAnalyzer.totals(exercises), createdAt: header.createdAt, updatedAt: header.updatedAt)
    }
}

/// Active workouts this process wrote last, by id, so the next write only needs the stored version to
/// know it still holds the latest workout and can skip reading its exercise and set rows.
final class ActiveWorkoutCache: Sendable {
    private let entries = Mutex<[String: ActiveWorkout]>([:])
    private let limit: Int

    init(limit: Int = 10_000) {
        self.limit = limit
    }

    func get(_ id: String) -> ActiveWorkout? { entries.withLock { $0[id] } }

    func put(_ workout: ActiveWorkout) {
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[workout.id] = workout
        }
    }

    func remove(_ id: String) { entries.withLock { $0[id] = nil } }
}
