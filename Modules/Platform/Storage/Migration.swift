import Contracts
import Foundation
import Logging
import SQLKit

/// One versioned schema step of one module.
public struct Migration: Sendable {
    public var version: Int
    public var name: String
    public var apply: @Sendable (any SQLDatabase, SQLEngine) async throws -> Void

    public init(version: Int, name: String, apply: @escaping @Sendable (any SQLDatabase, SQLEngine) async throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }

    /// A migration made of plain statements that read the same on both engines (use `SQLEngine`'s helpers
    /// through the closure form when they differ).
    public init(version: Int, name: String, statements: @escaping @Sendable (SQLEngine) -> [String]) {
        self.init(version: version, name: name) { db, engine in
            for statement in statements(engine) {
                try await db.raw(SQLQueryString(statement)).run()
            }
        }
    }
}

/// Applies each module's migrations in version order, each in its own transaction, and records them in
/// `platform_migrations`. Safe to run from several processes at once on PostgreSQL (advisory lock).
public struct Migrator: Sendable {
    public let database: Database
    let logger: Logger

    public init(database: Database, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Applies everything not yet applied. `modules` pairs a module name with its migrations.
    public func migrate(_ modules: [(module: String, migrations: [Migration])]) async throws {
        try await database.sql.raw(
            """
            CREATE TABLE IF NOT EXISTS platform_migrations (
                module TEXT NOT NULL,
                version BIGINT NOT NULL,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL,
                PRIMARY KEY (module, version)
            )
            """
        ).run()
        for (module, migrations) in modules {
            let sorted = migrations.sorted { $0.version < $1.version }
            guard Set(sorted.map(\.version)).count == sorted.count else {
                throw ServiceError(.internalError, "Module \(module) declares a migration version twice.")
            }
            for migration in sorted {
                let engine = database.engine
                let applied = try await database.transaction { tx -> Bool in
                    if engine == .postgres {
                        try await tx.sql.raw("SELECT pg_advisory_xact_lock(7428311)").run()
                    }
                    let existing = try await tx.sql.raw(
                        "SELECT version FROM platform_migrations WHERE module = \(bind: module) AND version = \(bind: migration.version)"
                    ).first()
                    if existing != nil { return false }
                    try await migration.apply(tx.sql, engine)
                    try await tx.sql.raw(
                        """
                        INSERT INTO platform_migrations (module, version, name, applied_at)
                        VALUES (\(bind: module), \(bind: migration.version), \(bind: migration.name), \(bind: Date().millisecondsSince1970))
                        """
                    ).run()
                    return true
                }
                if applied {
                    logger.info(
                        "migration applied",
                        metadata: [
                            "event": "migration_applied", "module": "\(module)", "version": "\(migration.version)",
                            "name": "\(migration.name)",
                        ])
                }
            }
        }
    }

    /// True when every given migration is recorded as applied.
    public func isUpToDate(_ modules: [(module: String, migrations: [Migration])]) async throws -> Bool {
        let rows = try await database.sql.raw("SELECT module, version FROM platform_migrations").all()
        var applied = Set<String>()
        for row in rows {
            applied.insert("\(try row.decode(column: "module", as: String.self))#\(try row.decode(column: "version", as: Int.self))")
        }
        for (module, migrations) in modules {
            for migration in migrations where !applied.contains("\(module)#\(migration.version)") { return false }
        }
        return true
    }
}
