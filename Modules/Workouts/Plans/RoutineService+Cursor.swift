import Contracts
import Foundation
import Platform
import SQLKit

extension RoutineService {
    /// Advances the cursor for a completed workout. Idempotent, and an older completion never moves the
    /// cursor back.
    func advanceCursor(_ event: WorkoutCompleted) async throws {
        guard let routineId = event.sourceRoutineId, let templateId = event.sourceTemplateId else { return }
        let context = self.context
        try await context.database.transaction { tx in
            guard var stored = try await Self.lockedForCursor(routineId, userId: event.userId, context: context, sql: tx.sql) else { return }
            if let last = stored.routine.lastCompletedAt, last >= event.completedAt { return }
            // A workout deleted before its completion reached the cursor never moves it (its deletion found the
            // cursor elsewhere, and had nothing to step back).
            guard try await Self.archived(event.workoutId, userId: event.userId, sql: tx.sql) else { return }
            guard stored.cursor.advance(workoutId: event.workoutId, templateId: templateId, completedAt: event.completedAt) else { return }
            try await Self.save(stored, sql: tx.sql)
        }
    }

    /// Steps the cursor back when the workout that last moved it is deleted, as if it had never been done
    /// (`RoutineCursor.stepBack`): the completion before it, of a workout still archived, is the routine's last
    /// (with none remembered, the newest of the routine's workouts among the user's latest in the history). An
    /// older workout deleted is only forgotten. Idempotent.
    func rewindCursor(_ event: WorkoutDeleted) async throws {
        guard let routineId = event.sourceRoutineId else { return }
        let context = self.context
        try await context.database.transaction { tx in
            guard var stored = try await Self.lockedForCursor(routineId, userId: event.userId, context: context, sql: tx.sql) else { return }
            var cursor = stored.cursor
            switch cursor.forget(workoutId: event.workoutId) {
            case .nothing:
                return
            case .older:
                break
            case .newest(let deleted):
                var recent = cursor.recent ?? []
                // A completion whose workout was deleted meanwhile (its event not handled yet) is passed over.
                while let newest = recent.first, try await !Self.archived(newest.workoutId, userId: event.userId, sql: tx.sql) {
                    recent.removeFirst()
                }
                // With none remembered (completions from before they were kept, or one whose event came after a newer
                // one's), the newest of the routine's workouts in the recent history.
                if recent.isEmpty,
                    let found = try await Self.newestArchived(of: routineId, userId: event.userId, before: deleted.completedAt, sql: tx.sql)
                {
                    // Remembered from now on, so that deleting it steps back in turn.
                    recent = [found]
                }
                cursor.recent = recent
                cursor.stepBack(from: deleted)
            }
            stored.cursor = cursor
            try await Self.save(stored, sql: tx.sql)
        }
    }

    /// How many of a user's newest archived workouts `newestArchived` looks through.
    static let historyLookback = 200

    /// The newest of the user's `historyLookback` newest workouts archived before `before` that was started from
    /// the routine from one of its templates, as a remembered completion whose slot is unknown, or nil. (A newer
    /// one is a completion still on its way to the cursor, which moves it when it arrives.)
    static func newestArchived(of routineId: String, userId: String, before: Date, sql: any SQLDatabase) async throws -> RoutineCursor.Step? {
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

    /// The routine, locked (PostgreSQL) for its cursor to move, or nil when it is gone (an event handler then has
    /// nothing to do).
    static func lockedForCursor(_ routineId: String, userId: String, context: WorkoutsContext, sql: any SQLDatabase) async throws -> StoredRoutine? {
        try await sql.raw("SELECT document FROM workouts_routines WHERE id = \(bind: routineId) AND user_id = \(bind: userId)\(context.forUpdate)")
            .first(decodingColumn: "document", as: String.self)
            .map { try JSONCoding.load(StoredRoutine.self, from: $0) }
    }

    /// Whether the workout is still archived.
    static func archived(_ workoutId: String, userId: String, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT 1 AS found FROM workouts_history WHERE id = \(bind: workoutId) AND user_id = \(bind: userId)").first() != nil
    }
}
