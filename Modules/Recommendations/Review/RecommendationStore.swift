import Contracts
import Foundation
import Platform
import SQLKit

/// Recommendations as stored, the judged sessions the deload rule reads back, and the auto-pilot setting.
struct RecommendationStore: Sendable {
    /// How long a recommendation waits for review (docs/product.md).
    static let timeToLive: TimeInterval = 7 * 86_400

    let database: Database

    // MARK: Judged sessions

    /// Records each exercise of a workout with its verdict and top set (replacing a run before: a job may run twice).
    func recordSessions(userId: String, workoutId: String, endedAt: Date, _ sessions: [ExerciseSession], in tx: Transaction) async throws {
        for session in sessions where session.verdict != .unprescribed || session.top != nil {
            let grams = session.top.map { Int(saturating: ($0.weightKg * 1000).rounded()) }
            try await tx.sql.raw(
                """
                INSERT INTO recommendations_sessions (user_id, exercise_id, workout_id, ended_at, verdict, top_weight_grams, top_reps)
                VALUES (\(bind: userId), \(bind: session.exerciseId), \(bind: workoutId), \(bind: endedAt.millisecondsSince1970), \(bind: session.verdict.rawValue),
                        \(bind: grams), \(bind: session.top?.reps))
                ON CONFLICT (user_id, exercise_id, workout_id) DO UPDATE SET verdict = excluded.verdict, ended_at = excluded.ended_at,
                    top_weight_grams = excluded.top_weight_grams, top_reps = excluded.top_reps
                """
            ).run()
        }
    }

    /// The verdict of the exercise's judged session before `endedAt` (another workout), or nil.
    func previousVerdict(userId: String, exerciseId: String, before endedAt: Date, excluding workoutId: String) async throws
        -> SessionVerdict?
    {
        let row = try await database.sql.raw(
            """
            SELECT verdict FROM recommendations_sessions
            WHERE user_id = \(bind: userId) AND exercise_id = \(bind: exerciseId) AND ended_at < \(bind: endedAt.millisecondsSince1970)
              AND workout_id <> \(bind: workoutId) AND verdict <> 'unprescribed'
            ORDER BY ended_at DESC LIMIT 1
            """
        ).first()
        return try row.flatMap { SessionVerdict(rawValue: try $0.decode(column: "verdict", as: String.self)) }
    }

    /// The exercise's top set in its session before `endedAt` (another workout), or nil.
    func previousTop(userId: String, exerciseId: String, before endedAt: Date, excluding workoutId: String) async throws -> TopSet? {
        let row = try await database.sql.raw(
            """
            SELECT top_weight_grams, top_reps FROM recommendations_sessions
            WHERE user_id = \(bind: userId) AND exercise_id = \(bind: exerciseId) AND ended_at < \(bind: endedAt.millisecondsSince1970)
              AND workout_id <> \(bind: workoutId) AND top_weight_grams IS NOT NULL
            ORDER BY ended_at DESC LIMIT 1
            """
        ).first()
        guard let row, let grams = try row.decode(column: "top_weight_grams", as: Int?.self),
            let reps = try row.decode(column: "top_reps", as: Int?.self)
        else { return nil }
        return TopSet(weightKg: Double(grams) / 1000, reps: reps)
    }

    /// A deleted workout's traces: its judged sessions and its pending recommendations (one reviewed or applied stays,
    /// as the history of what changed). Answers how many recommendations went.
    @discardableResult
    func forget(userId: String, workoutId: String, in tx: Transaction) async throws -> Int {
        try await tx.sql.raw(
            "DELETE FROM recommendations_sessions WHERE user_id = \(bind: userId) AND workout_id = \(bind: workoutId)"
        ).run()
        return try await tx.sql.raw(
            """
            DELETE FROM recommendations_items
            WHERE user_id = \(bind: userId) AND workout_id = \(bind: workoutId) AND status = 'pending_review'
            RETURNING id
            """
        ).all().count
    }

    // MARK: Recommendations

    /// Stores a new recommendation unless one with its id exists (a job run again). A new template-scoped one
    /// supersedes the target's older pending ones (they expire): only the newest step of a template is offered.
    /// Answers whether it was new.
    @discardableResult
    func insert(_ item: Recommendation, userId: String, proposed: [PlannedExercise]?, in tx: Transaction) async throws -> Bool {
        let targetKey = item.target.templateId ?? item.target.exerciseId ?? ""
        let now = item.createdAt.millisecondsSince1970
        let inserted = try await tx.sql.raw(
            """
            INSERT INTO recommendations_items
                (user_id, id, scope, target_key, target, changes, proposed, status, workout_id, created_at, updated_at, expires_at, reviewed_at)
            VALUES (\(bind: userId), \(bind: item.id), \(bind: item.scope.rawValue), \(bind: targetKey), \(bind: try JSONCoding.store(item.target)),
                    \(bind: try JSONCoding.store(item.changes)), \(bind: try proposed.map { try JSONCoding.store($0) }), \(bind: item.status.rawValue),
                    \(bind: item.workoutId ?? Self.noWorkout), \(bind: now), \(bind: now), \(bind: item.expiresAt.millisecondsSince1970),
                    \(bind: item.reviewedAt?.millisecondsSince1970))
            ON CONFLICT (user_id, id) DO NOTHING
            RETURNING id
            """
        ).all()
        guard !inserted.isEmpty else { return false }
        if item.scope == .template {
            try await tx.sql.raw(
                """
                UPDATE recommendations_items SET status = 'expired', updated_at = \(bind: now)
                WHERE user_id = \(bind: userId) AND scope = 'template' AND target_key = \(bind: targetKey) AND status = 'pending_review'
                  AND id <> \(bind: item.id) AND created_at <= \(bind: now)
                """
            ).run()
        }
        return true
    }

    /// One of the user's recommendations with the template exercises it proposes, or nil (another user's too).
    func find(userId: String, id: String) async throws -> (item: Recommendation, proposed: [PlannedExercise]?)? {
        guard
            let row = try await database.sql.raw(
                "SELECT * FROM recommendations_items WHERE user_id = \(bind: userId) AND id = \(bind: id)"
            ).first()
        else { return nil }
        let proposed = try row.decode(column: "proposed", as: String?.self)
        return (try Self.item(row), try proposed.map { try JSONCoding.load([PlannedExercise].self, from: $0) })
    }

    /// The user's recommendations, newest first, of `status` when given; `cursor` is the previous page's.
    func list(userId: String, status: RecommendationStatus?, limit: Int, cursor: String?) async throws -> (
        items: [Recommendation], nextCursor: String?
    ) {
        let after: SQLQueryString =
            try KeysetCursor.parse(cursor).map {
                "AND (created_at < \(bind: $0.milliseconds) OR (created_at = \(bind: $0.milliseconds) AND id < \(bind: $0.id)))"
            } ?? ""
        let filter: SQLQueryString = status.map { "AND status = \(bind: $0.rawValue)" } ?? ""
        let rows = try await database.sql.raw(
            """
            SELECT * FROM recommendations_items WHERE user_id = \(bind: userId) \(filter) \(after)
            ORDER BY created_at DESC, id DESC LIMIT \(bind: limit + 1)
            """
        ).all()
        let items = try rows.prefix(limit).map(Self.item)
        let next = rows.count > limit ? items.last.map { KeysetCursor(milliseconds: $0.createdAt.millisecondsSince1970, id: $0.id) } : nil
        return (items, next?.encoded())
    }

    /// Moves a pending recommendation of the user to `status`, in the caller's transaction. Answers whether it
    /// was pending.
    func resolve(userId: String, id: String, to status: RecommendationStatus, at now: Date, in tx: Transaction) async throws -> Bool {
        let rows = try await tx.sql.raw(
            """
            UPDATE recommendations_items SET status = \(bind: status.rawValue), updated_at = \(bind: now.millisecondsSince1970),
                reviewed_at = \(bind: now.millisecondsSince1970)
            WHERE user_id = \(bind: userId) AND id = \(bind: id) AND status = 'pending_review'
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// The expiry sweep: pending recommendations past their 7 days expire. Answers how many.
    func expireDue(now: Date) async throws -> Int {
        try await database.transaction { tx in
            try await tx.sql.raw(
                """
                UPDATE recommendations_items SET status = 'expired', updated_at = \(bind: now.millisecondsSince1970)
                WHERE status = 'pending_review' AND expires_at <= \(bind: now.millisecondsSince1970)
                RETURNING id
                """
            ).all().count
        }
    }

    /// What the `workout_id` column holds for a recommendation no workout made (a weekly review's).
    static let noWorkout = ""

    /// The exercises of the user's weekly-review recommendations made since `since` (each stall is proposed once in
    /// its 4 weeks, whatever became of the proposal).
    func reviewedExercises(userId: String, since: Date) async throws -> Set<String> {
        let rows = try await database.sql.raw(
            """
            SELECT changes FROM recommendations_items
            WHERE user_id = \(bind: userId) AND workout_id = \(bind: Self.noWorkout) AND created_at >= \(bind: since.millisecondsSince1970)
            """
        ).all()
        var ids: Set<String> = []
        for row in rows {
            let changes = try JSONCoding.load([ExerciseChange].self, from: try row.decode(column: "changes", as: String.self))
            ids.formUnion(changes.map(\.exerciseId))
        }
        return ids
    }

    static func item(_ row: any SQLRow) throws -> Recommendation {
        Recommendation(
            id: try row.decode(column: "id", as: String.self),
            scope: RecommendationScope(rawValue: try row.decode(column: "scope", as: String.self)) ?? .exercise,
            target: try JSONCoding.load(RecommendationTarget.self, from: try row.decode(column: "target", as: String.self)),
            changes: try JSONCoding.load([ExerciseChange].self, from: try row.decode(column: "changes", as: String.self)),
            status: RecommendationStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .expired,
            workoutId: try row.decode(column: "workout_id", as: String.self).nonEmpty,
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            expiresAt: Date(millisecondsSince1970: try row.decode(column: "expires_at", as: Int64.self)),
            reviewedAt: try row.decode(column: "reviewed_at", as: Int64?.self).map(Date.init(millisecondsSince1970:)))
    }

    // MARK: Settings

    func autoPilot(userId: String) async throws -> Bool {
        let row = try await database.sql.raw(
            "SELECT auto_pilot_enabled FROM recommendations_settings WHERE user_id = \(bind: userId)"
        ).first()
        return try row.map { try $0.decode(column: "auto_pilot_enabled", as: Int.self) != 0 } ?? false
    }

    func setAutoPilot(userId: String, enabled: Bool, now: Date) async throws {
        try await database.transaction { tx in
            try await tx.sql.raw(
                """
                INSERT INTO recommendations_settings (user_id, auto_pilot_enabled, updated_at)
                VALUES (\(bind: userId), \(bind: enabled ? 1 : 0), \(bind: now.millisecondsSince1970))
                ON CONFLICT (user_id) DO UPDATE SET auto_pilot_enabled = excluded.auto_pilot_enabled, updated_at = excluded.updated_at
                """
            ).run()
        }
    }

    /// Every row of the user, in one transaction (account deletion).
    func erase(userId: String) async throws {
        try await database.transaction { tx in
            for table in ["recommendations_notes", "recommendations_sessions", "recommendations_items", "recommendations_settings"] {
                try await tx.sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
            }
        }
    }
}

extension String {
    /// The text, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
