@preconcurrency import AsyncKit
import Logging
import NIOCore
import SQLKit
import SQLiteKit

// SQLite as the libraries give it, for measurement only (`LibraryPaths.sqliteNIO`): SQLiteNIO connections in
// SQLiteKit's connection pool, each statement run on NIO's thread pool and prepared anew. The server's own path
// is `DirectSQLite`; docs/performance.md compares the two on logSet.

/// SQLiteKit's connections with the durability of the server's: wait for the writer instead of failing, and
/// sync each commit (`synchronous = FULL`) before its write is answered.
struct LibrarySQLiteSource: ConnectionPoolSource {
    let base: SQLiteConnectionSource

    init(path: String) {
        base = SQLiteConnectionSource(configuration: SQLiteConfiguration(storage: .file(path: path), enableForeignKeys: true))
    }

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        base.makeConnection(logger: logger, on: eventLoop).flatMap { connection in
            connection.query("PRAGMA busy_timeout = 5000").flatMap { _ in
                connection.query("PRAGMA synchronous = FULL")
            }.map { _ in connection }
        }
    }
}

/// An `SQLDatabase` over SQLiteKit's pool: each statement on any connection, a session on one.
struct PooledSQLiteDatabase: SQLDatabase {
    let pool: EventLoopGroupConnectionPool<LibrarySQLiteSource>
    let logger: Logger

    var eventLoop: any EventLoop { pool.eventLoopGroup.any() }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        pool.withConnection(logger: logger) { connection in
            connection.sql(queryLogLevel: nil).execute(sql: query, onRow)
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        let connection = try await pool.requestConnection(logger: logger).get()
        defer { pool.releaseConnection(connection, logger: logger) }
        return try await closure(connection.sql(queryLogLevel: nil))
    }
}
