import Foundation
import Logging
import Platform
import SQLKit

/// The engines a storage test runs on: SQLite always, PostgreSQL when `POVVER_TEST_POSTGRES_URL` is set.
public enum TestDatabases {
    public static var postgresURL: String? {
        ProcessInfo.processInfo.environment["POVVER_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Use as `@Test(arguments: TestDatabases.engines)`.
    public static var engines: [SQLEngine] {
        postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    public static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }()

    /// A fresh, empty database on `engine` for the duration of `body`: a private SQLite file, or a private
    /// PostgreSQL schema dropped afterwards. Platform's migrations are applied.
    public static func with<R>(
        _ engine: SQLEngine, migrate modules: [(module: String, migrations: [Migration])] = [],
        _ body: (Database) async throws -> R
    ) async throws -> R {
        let location = try await makeLocation(engine)
        let database = try await Database.open(location, logger: logger)
        do {
            try await Migrator(database: database, logger: logger).migrate([Migrator.platformMigrations] + modules)
            let result = try await body(database)
            await database.shutdown()
            try await dispose(location)
            return result
        } catch {
            await database.shutdown()
            try? await dispose(location)
            throw error
        }
    }

    /// A new location on `engine` (a temp SQLite file or a new PostgreSQL schema). Pair with `dispose`.
    public static func makeLocation(_ engine: SQLEngine) async throws -> DatabaseLocation {
        switch engine {
        case .sqlite:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("povver-test-\(UUID().uuidString).sqlite").path
            return .sqliteFile(path: path)
        case .postgres:
            guard let url = postgresURL else { throw TestDatabaseError.postgresNotConfigured }
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try await withAdmin(url) { db in try await db.sql.raw("CREATE SCHEMA \(ident: schema)").run() }
            return .postgres(url: url, schema: schema)
        }
    }

    public static func dispose(_ location: DatabaseLocation) async throws {
        switch location {
        case .sqliteFile(let path):
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        case .sqliteMemory:
            break
        case .postgres(let url, let schema):
            guard let schema else { return }
            try await withAdmin(url) { db in try await db.sql.raw("DROP SCHEMA IF EXISTS \(ident: schema) CASCADE").run() }
        }
    }

    /// The tables of `database` whose names start with `prefix` and that have a column `column`, read from the
    /// engine's own catalog (so a table a migration adds is found without anyone listing it).
    public static func tables(in database: Database, prefix: String, withColumn column: String) async throws -> [String] {
        let query: SQLQueryString
        switch database.engine {
        case .sqlite:
            query = """
                SELECT m.name AS name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS c
                WHERE m.type = 'table' AND c.name = \(bind: column) ORDER BY m.name
                """
        case .postgres:
            query = """
                SELECT table_name::text AS name FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name = \(bind: column) ORDER BY table_name
                """
        }
        let names = try await database.sql.raw(query).all(decodingColumn: "name", as: String.self)
        return names.filter { $0.hasPrefix(prefix) }
    }

    private static func withAdmin(_ url: String, _ body: (Database) async throws -> Void) async throws {
        let admin = try await Database.open(.postgres(url: url, schema: nil), maxConnectionsPerEventLoop: 1, logger: logger)
        do {
            try await body(admin)
        } catch {
            await admin.shutdown()
            throw error
        }
        await admin.shutdown()
    }
}

public enum TestDatabaseError: Error {
    case postgresNotConfigured
}
