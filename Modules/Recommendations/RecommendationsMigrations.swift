import Platform

/// Recommendations' tables: the analyst's notes, the judged sessions the deload rule and freeform sets read back, the
/// recommendations and the auto-pilot setting.
enum RecommendationsMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "analysis notes, session verdicts, recommendations, settings") { _ in
            [
                """
                CREATE TABLE recommendations_notes (
                    user_id TEXT NOT NULL,
                    id TEXT NOT NULL,
                    section TEXT NOT NULL,
                    period TEXT NOT NULL,
                    headline TEXT NOT NULL,
                    findings TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, id)
                )
                """,
                "CREATE INDEX recommendations_notes_section ON recommendations_notes (user_id, section, created_at)",
                "CREATE INDEX recommendations_notes_expiry ON recommendations_notes (expires_at)",
                """
                CREATE TABLE recommendations_sessions (
                    user_id TEXT NOT NULL,
                    exercise_id TEXT NOT NULL,
                    workout_id TEXT NOT NULL,
                    ended_at BIGINT NOT NULL,
                    verdict TEXT NOT NULL,
                    PRIMARY KEY (user_id, exercise_id, workout_id)
                )
                """,
                "CREATE INDEX recommendations_sessions_recent ON recommendations_sessions (user_id, exercise_id, ended_at)",
                """
                CREATE TABLE recommendations_items (
                    user_id TEXT NOT NULL,
                    id TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    target_key TEXT NOT NULL,
                    target TEXT NOT NULL,
                    changes TEXT NOT NULL,
                    proposed TEXT,
                    status TEXT NOT NULL,
                    workout_id TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    reviewed_at BIGINT,
                    PRIMARY KEY (user_id, id)
                )
                """,
                "CREATE INDEX recommendations_items_listing ON recommendations_items (user_id, created_at, id)",
                "CREATE INDEX recommendations_items_pending ON recommendations_items (status, expires_at)",
                """
                CREATE TABLE recommendations_settings (
                    user_id TEXT PRIMARY KEY,
                    auto_pilot_enabled BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
            ]
        },
        Migration(version: 2, name: "each judged session's top set; recommendations by workout") { _ in
            [
                "ALTER TABLE recommendations_sessions ADD COLUMN top_weight_grams BIGINT",
                "ALTER TABLE recommendations_sessions ADD COLUMN top_reps BIGINT",
                "CREATE INDEX recommendations_sessions_workout ON recommendations_sessions (user_id, workout_id)",
                "CREATE INDEX recommendations_items_workout ON recommendations_items (user_id, workout_id)",
            ]
        },
    ]
}
