import Foundation

extension IdempotencyStore {
    /// The statements that create an idempotency table named `table` (a table of the module that runs them): one
    /// row per user and key, with the request's fingerprint, the answer as sent and when it was stored. SQLite
    /// keeps the rowid, by which the purge finds the oldest records (no index on the age, which would cost every
    /// commit a page); PostgreSQL gets an index on `created_at` for it.
    ///
    ///     Migration(version: 1, name: "actions and their idempotency") { engine in
    ///         ["CREATE TABLE coach_actions (…)"] + IdempotencyStore.tableStatements("coach_idempotency", engine: engine)
    ///     }
    public static func tableStatements(_ table: String, engine: SQLEngine) -> [String] {
        // cannot trap: table names are constants of the code
        precondition(isPlainName(table), "An idempotency table is named with lower-case letters, digits and _: \(table)")
        let create = """
            CREATE TABLE \(table) (
                user_id TEXT NOT NULL,
                idempotency_key TEXT NOT NULL,
                operation TEXT NOT NULL,
                request_hash TEXT NOT NULL,
                response TEXT NOT NULL,
                response_format INTEGER NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, idempotency_key)
            )
            """
        return engine == .postgres ? [create, "CREATE INDEX \(table)_created ON \(table) (created_at)"] : [create]
    }

    /// A migration of its own that creates the table (`tableStatements`).
    public static func migration(version: Int, table: String) -> Migration {
        Migration(version: version, name: "idempotency records in \(table)") { engine in Self.tableStatements(table, engine: engine) }
    }
}
