import Contracts
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
            _ = try await CatalogImport.upsert(try CatalogImport.bundled(), sql: db, at: Date())
        },
        // Logging a set rewrote the whole workout document (about 12 KB for 60 sets); as rows it is two small
        // UPDATEs. Workouts stored as documents are moved over, nothing is dropped before it is copied.
        Migration(version: 3, name: "active workouts as header, exercise and set rows") { db, _ in
            for statement in [
                "ALTER TABLE workouts_active ADD COLUMN name TEXT",
                "ALTER TABLE workouts_active ADD COLUMN source_template_id TEXT",
                "ALTER TABLE workouts_active ADD COLUMN source_routine_id TEXT",
                "ALTER TABLE workouts_active ADD COLUMN start_time BIGINT NOT NULL DEFAULT 0",
                """
                CREATE TABLE workouts_active_exercises (
                    workout_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    instance_id TEXT NOT NULL,
                    exercise_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    PRIMARY KEY (workout_id, instance_id)
                )
                """,
                "CREATE INDEX workouts_active_exercises_user ON workouts_active_exercises (user_id)",
                """
                CREATE TABLE workouts_active_sets (
                    workout_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    instance_id TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    set_id TEXT NOT NULL,
                    set_index INTEGER NOT NULL,
                    target_reps INTEGER,
                    target_rir INTEGER,
                    weight_kg DOUBLE PRECISION,
                    reps INTEGER,
                    rir INTEGER,
                    completed_at BIGINT,
                    PRIMARY KEY (workout_id, set_id)
                )
                """,
                "CREATE INDEX workouts_active_sets_user ON workouts_active_sets (user_id)",
            ] {
                try await db.raw(SQLQueryString(statement)).run()
            }
            for row in try await db.raw("SELECT document FROM workouts_active").all() {
                let workout = try JSONCoding.load(ActiveWorkout.self, from: try row.decode(column: "document", as: String.self))
                try await db.raw(
                    """
                    UPDATE workouts_active SET name = \(bind: workout.name), source_template_id = \(bind: workout.sourceTemplateId),
                        source_routine_id = \(bind: workout.sourceRoutineId), start_time = \(bind: workout.startTime.millisecondsSince1970)
                    WHERE id = \(bind: workout.id)
                    """
                ).run()
                try await ActiveWorkoutStorage.insertRows(of: workout, sql: db, plannedWeights: false)
            }
            try await db.raw("ALTER TABLE workouts_active DROP COLUMN document").run()
        },
        // Idempotent answers are kept as the JSON first sent (format 2), so a repeat is answered with the same
        // bytes without encoding anything; rows written before stay storage documents (format 1).
        Migration(version: 4, name: "idempotent answers as sent") { _ in
            ["ALTER TABLE workouts_idempotency ADD COLUMN response_format INTEGER NOT NULL DEFAULT 1"]
        },
        // Records expire (`IdempotencyStore.purgeExpired`); the purge finds the oldest by this index.
        Migration(version: 5, name: "idempotency records expire") { _ in
            ["CREATE INDEX workouts_idempotency_created ON workouts_idempotency (created_at)"]
        },
        // SQLite purges by insertion order (rowid) instead: the index put one more page in the WAL of every
        // commit of logged sets. PostgreSQL keeps it.
        Migration(version: 6, name: "SQLite purges idempotency records by insertion order") { engine in
            engine == .sqlite ? ["DROP INDEX IF EXISTS workouts_idempotency_created"] : []
        },
        // A template's planned weight goes with each set of a workout started from it.
        Migration(version: 7, name: "planned weight of active sets") { _ in
            ["ALTER TABLE workouts_active_sets ADD COLUMN target_weight_kg DOUBLE PRECISION"]
        },
        // A blank description is none (null) since templates and routines are written so; the ones written before
        // held "" or whitespace as sent. Nothing the user changed: versions and times stay.
        Migration(version: 8, name: "blank descriptions are none") { db, _ in
            try await clearBlankDescriptions(in: "workouts_templates", of: WorkoutTemplate.self, \.description, sql: db)
            try await clearBlankDescriptions(in: "workouts_routines", of: StoredRoutine.self, \.routine.description, sql: db)
        },
        // The rows of a completed or cancelled workout leave the active tables a while after it ended
        // (`EndedWorkoutRetention`), found by when it ended. A column of its own, not `updated_at`: that changes with
        // every set logged, and an index over it would cost each of those writes (on PostgreSQL, its HOT update).
        // Workouts ended before this take their last change as their end.
        Migration(version: 9, name: "when an active workout ended") { _ in
            [
                "ALTER TABLE workouts_active ADD COLUMN ended_at BIGINT",
                "UPDATE workouts_active SET ended_at = updated_at WHERE status <> 'in_progress'",
                "CREATE INDEX workouts_active_ended ON workouts_active (ended_at) WHERE ended_at IS NOT NULL",
            ]
        },
    ]

    /// Rewrites the documents of `table` whose description is blank with none, a page of rows at a time.
    static func clearBlankDescriptions<Document: Codable>(
        in table: String, of type: Document.Type, _ description: WritableKeyPath<Document, String?>, sql: any SQLDatabase
    ) async throws {
        var after = ""
        while true {
            let rows = try await sql.raw(
                "SELECT id, document FROM \(unsafeRaw: table) WHERE id > \(bind: after) ORDER BY id LIMIT 500"
            ).all()
            for row in rows {
                let id = try row.decode(column: "id", as: String.self)
                after = id
                var document = try JSONCoding.load(Document.self, from: try row.decode(column: "document", as: String.self))
                guard let text = document[keyPath: description], WorkoutsValidation.isBlank(text) else { continue }
                document[keyPath: description] = nil
                try await sql.raw(
                    "UPDATE \(unsafeRaw: table) SET document = \(bind: try JSONCoding.store(document)) WHERE id = \(bind: id)"
                ).run()
            }
            if rows.count < 500 { return }
        }
    }
}
