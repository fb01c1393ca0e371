import Contracts
import Foundation
import Platform
import SQLKit

extension RoutineService {
    /// Advances the cursor of the routine `workout` was started from, in the transaction that archives it, so
    /// that the next template is answered as soon as the completion is. An older completion never moves the
    /// cursor back.
    func advanceCursor(after workout: CompletedWorkout, sql: any SQLDatabase) async throws {
        guard let routineId = workout.sourceRoutineId, let templateId = workout.sourceTemplateId else { return }
        guard var stored = try await Self.lockedForCursor(routineId, userId: workout.userId, context: context, sql: sql) else { return }
        guard stored.cursor.advance(workoutId: workout.id, templateId: templateId, completedAt: workout.endTime) else { return }
        try await Self.save(stored, sql: sql)
    }

    /// Steps the cursor back, in the transaction that deletes `workout` from the history, when it is the workout
    /// that last moved it, as if it had never been done (`RoutineCursor.stepBack`): the completion before it, of a
    /// workout still archived, is the routine's last (with none remembered, the newest of the routine's workouts
    /// among the user's latest in the history). An older workout deleted is only forgotten.
    func rewindCursor(after workout: CompletedWorkout, sql: any SQLDatabase) async throws {
        guard let routineId = workout.sourceRoutineId else { return }
        guard var stored = try await Self.lockedForCursor(routineId, userId: workout.userId, context: context, sql: sql) else { return }
        var cursor = stored.cursor
        switch cursor.forget(workoutId: workout.id) {
        case .nothing:
            return
        case .older:
            break
        case .newest(let deleted):
            var recent = cursor.recent ?? []
            // A remembered completion whose workout is gone is passed over: one deleted while cursors were still
            // moved by the outbox, its deletion's event handled before its completion's.
            while let newest = recent.first, try await !Self.archived(newest.workoutId, userId: workout.userId, sql: sql) {
                recent.removeFirst()
            }
            // With none remembered (completions from before they were kept, or ones whose events came after a newer
            // one's while cursors were moved by the outbox), the newest of the routine's workouts in the recent history.
            if recent.isEmpty,
                let found = try await Self.newestArchived(of: routineId, userId: workout.userId, before: deleted.completedAt, sql: sql)
            {
                // Remembered from now on, so that deleting it steps back in turn.
                recent = [found]
            }
            cursor.recent = recent
            cursor.stepBack(from: deleted)
        }
        stored.cursor = cursor
        try await Self.save(stored, sql: sql)
    }

    /// How many of a user's newest archived workouts `newestArchived` looks through.
    static let historyLookback = 200

    /// The newest of the user's `historyLookback` newest workouts archived before `before` that was started from
    /// the routine from one of its templates, as a remembered completion whose slot is unknown, or nil. (A newer
    /// one cannot be the completion before the deleted one.)
    static func newestArchived(of routineId: String, userId: String, before: Date, sql: any SQLDatabase) async throws -> RoutineCursor.Step?
    {
        struct Origin: Decodable {
            var id: String
            var sourceTemplateId: String?
            var sourceRoutineId: String?
            var endTime: Date
            enum CodingKeys: String, CodingKey {
                case id
                case sourceTemplateId = "source_template_id"
                case sourceRoutineId = "source_routine_id"
                case endTime = "end_time"
            }
        }
        let documents = try await sql.raw(
            """
            SELECT document FROM workouts_history WHERE user_id = \(bind: userId) AND end_time < \(bind: before.millisecondsSince1970)
            ORDER BY end_time DESC, id DESC LIMIT \(bind: Self.historyLookback)
            """
        ).all(decodingColumn: "document", as: String.self)
        for document in documents {
            let origin = try JSONCoding.load(Origin.self, from: document)
            if origin.sourceRoutineId == routineId, let templateId = origin.sourceTemplateId {
                return RoutineCursor.Step(workoutId: origin.id, templateId: templateId, completedAt: origin.endTime, slot: nil)
            }
        }
        return nil
    }

    /// The routine, locked (PostgreSQL) for its cursor to move, or nil when it is gone (its cursor with it).
    static func lockedForCursor(_ routineId: String, userId: String, context: WorkoutsContext, sql: any SQLDatabase) async throws
        -> StoredRoutine?
    {
        try await sql.raw(
            "SELECT document FROM workouts_routines WHERE id = \(bind: routineId) AND user_id = \(bind: userId)\(context.forUpdate)"
        )
        .first(decodingColumn: "document", as: String.self)
        .map { try JSONCoding.load(StoredRoutine.self, from: $0) }
    }

    /// Whether the workout is still archived.
    static func archived(_ workoutId: String, userId: String, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT 1 AS found FROM workouts_history WHERE id = \(bind: workoutId) AND user_id = \(bind: userId)").first()
            != nil
    }
}
