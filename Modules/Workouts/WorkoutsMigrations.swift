import Foundation
import Platform
import SQLKit

/// Workouts' tables. Documents (templates, routines, active and archived workouts) are JSON next to the
/// indexed key columns they are looked up by.
enum WorkoutsMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "catalog, plans, active workouts, history, idempotency") { _ in
            [
                """
                CREATE TABLE workouts_exercises (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    document TEXT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE workouts_templates (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    version BIGINT NOT NULL,
                    document TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX workouts_templates_user ON workouts_templates (user_id, created_at)",
                """
                CREATE TABLE workouts_routines (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    version BIGINT NOT NULL,
                    document TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX workouts_routines_user ON workouts_routines (user_id, created_at)",
                """
                CREATE TABLE workouts_user_settings (
                    user_id TEXT PRIMARY KEY,
                    active_routine_id TEXT,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE workouts_active (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    version BIGINT NOT NULL,
                    document TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                // At most one workout in progress per user, enforced by the database.
                "CREATE UNIQUE INDEX workouts_active_one_in_progress ON workouts_active (user_id) WHERE status = 'in_progress'",
                "CREATE INDEX workouts_active_user ON workouts_active (user_id, created_at)",
                """
                CREATE TABLE workouts_history (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    end_time BIGINT NOT NULL,
                    document TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX workouts_history_recent ON workouts_history (user_id, end_time, id)",
                """
                CREATE TABLE workouts_idempotency (
                    user_id TEXT NOT NULL,
                    idempotency_key TEXT NOT NULL,
                    operation TEXT NOT NULL,
                    request_hash TEXT NOT NULL,
                    response TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, idempotency_key)
                )
                """,
            ]
        },
        Migration(version: 2, name: "seed the exercise catalog") { db, _ in
            try await CatalogImport.upsert(try CatalogImport.bundled(), sql: db, at: Date())
        },
    ]
}
