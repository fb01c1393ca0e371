@preconcurrency import AsyncKit
import Contracts
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit
import SQLiteKit

/// The one SQL API every module uses, over SQLite (embedded default) or PostgreSQL (scale-out).
///
/// Reads go straight to `sql`; every write goes through `transaction`, which on SQLite also queues writers
/// in-process (one writer at a time, `BEGIN IMMEDIATE`) so they never fail with SQLITE_BUSY, and lets writes
/// that allow it share a commit (`SQLiteWriteQueue`).
public final class Database: Sendable {
    public let engine: SQLEngine
    /// A pooled handle for reads (each statement may run on a different connection).
    public let sql: any SQLDatabase
    let logger: Logger
    private let pool: Pool
    private let writeQueue: SQLiteWriteQueue?
    private let afterCommit: AfterCommitHooks

    private enum Pool: Sendable {
        case sqlite(DirectSQLitePool, temporary: String?)
        /// Measurement only (`LibraryPaths.sqliteNIO`): SQLiteKit's pool, one writer at a time.
        case sqliteNIO(EventLoopGroupConnectionPool<LibrarySQLiteSource>, temporary: String?, writer: KeyedExclusion)
        case postgres(EventLoopGroupConnectionPool<PostgresConnectionSource>)
    }

    private init(engine: SQLEngine, sql: any SQLDatabase, pool: Pool, libraryPaths: LibraryPaths = [], logger: Logger) {
        self.engine = engine
        self.sql = sql
        self.pool = pool
        self.logger = logger
        let afterCommit = AfterCommitHooks()
        self.afterCommit = afterCommit
        if case .sqlite(let pool, _) = pool {
            self.writeQueue = SQLiteWriteQueue(
                pool: pool, libraryPaths: libraryPaths, logger: logger, onEventsCommitted: { afterCommit.runEventHooks() })
        } else {
            self.writeQueue = nil
        }
    }

    /// Opens a database. SQLite files are created if missing and switched to WAL mode.
    /// `poolTimeout`: how long a query waits for a PostgreSQL connection before it fails with
    /// `ConnectionPoolTimeoutError` (answered `UNAVAILABLE`).
    public static func open(
        _ location: DatabaseLocation,
        maxConnectionsPerEventLoop: Int = 4,
        poolTimeout: Duration = .seconds(10),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger
    ) async throws -> Database {
        try await open(
            location, maxConnectionsPerEventLoop: maxConnectionsPerEventLoop, eventLoopGroup: eventLoopGroup, walRestartFrames: 10_000,
            poolTimeout: .nanoseconds(
                Int64(poolTimeout.components.seconds) * 1_000_000_000 + poolTimeout.components.attoseconds / 1_000_000_000),
            logger: logger)
    }

    /// `walRestartFrames`: the WAL length (in frames) at which SQLite's writer lets it start over;
    /// `checkpointInterval`: how long a small WAL growth waits for its checkpoint (tests set both), on
    /// `checkpointClock` (tests drive it);
    /// `libraryPaths`: the pieces measured on their library path (`LibraryPaths`; the process's own by default).
    static func open(
        _ location: DatabaseLocation, maxConnectionsPerEventLoop: Int, eventLoopGroup: any EventLoopGroup, walRestartFrames: Int,
        checkpointInterval: Duration = .seconds(1), checkpointClock: any Clock<Duration> = ContinuousClock(),
        poolTimeout: TimeAmount = .seconds(10), libraryPaths: LibraryPaths = .current, logger: Logger
    ) async throws -> Database {
        switch location {
        case .sqliteFile, .sqliteMemory:
            let path: String
            var temporary: String?
            if case .sqliteFile(let file) = location {
                let directory = URL(fileURLWithPath: file).deletingLastPathComponent()
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                path = file
            } else {
                // Several connections must see one database, so "memory" is a private temporary file.
                path = FileManager.default.temporaryDirectory.appendingPathComponent("povver-\(UUID().uuidString).sqlite").path
                temporary = path
            }
            if libraryPaths.contains(.sqliteNIO) {
                let pool = EventLoopGroupConnectionPool(
                    source: LibrarySQLiteSource(path: path), maxConnectionsPerEventLoop: maxConnectionsPerEventLoop,
                    requestTimeout: poolTimeout, pruneInterval: nil, logger: logger, on: eventLoopGroup)
                let db = Database(
                    engine: .sqlite, sql: PooledSQLiteDatabase(pool: pool, logger: logger),
                    pool: .sqliteNIO(pool, temporary: temporary, writer: KeyedExclusion()), logger: logger)
                return try await db.opened(by: "PRAGMA journal_mode = WAL")
            }
            let pool = DirectSQLitePool(
                path: path, limit: maxConnectionsPerEventLoop * 2, walRestartFrames: walRestartFrames,
                checkpointInterval: checkpointInterval, checkpointClock: checkpointClock,
                logger: logger)
            let db = Database(
                engine: .sqlite, sql: DirectSQLiteDatabase(pool: pool, session: nil, logger: logger),
                pool: .sqlite(pool, temporary: temporary), libraryPaths: libraryPaths,
                logger: logger)
            return try await db.opened(by: "PRAGMA journal_mode = WAL")
        case .postgres(let url, let schema):
            var configuration = try SQLPostgresConfiguration(url: url)
            if let schema { configuration.searchPath = [schema] }
            let pool = EventLoopGroupConnectionPool(
                source: PostgresConnectionSource(sqlConfiguration: configuration),
                maxConnectionsPerEventLoop: maxConnectionsPerEventLoop, requestTimeout: poolTimeout, pruneInterval: nil, logger: logger,
                on: eventLoopGroup)
            let db = Database(
                engine: .postgres, sql: pool.database(logger: logger).sql(), pool: .postgres(pool), logger: logger)
            return try await db.opened(by: "SELECT 1")
        }
    }

    /// The database once `statement` (its first, which needs a working connection) ran; shut down if it failed.
    private func opened(by statement: SQLQueryString) async throws -> Database {
        do {
            try await sql.raw(statement).run()
        } catch {
            await shutdown()
            throw error
        }
        return self
    }

    /// Removes a temporary SQLite file (`sqlite::memory:`) and its WAL and index.
    private static func remove(temporary: String?) {
        guard let temporary else { return }
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
    }

    /// Closes every connection. Call once, after the last query.
    public func shutdown() async {
        do {
            switch pool {
            case .sqlite(let pool, let temporary):
                await writeQueue?.close()
                pool.shutdown()
                await pool.checkpointer.stop()
                Self.remove(temporary: temporary)
            case .sqliteNIO(let pool, let temporary, _):
                try await pool.shutdownAsync()
                Self.remove(temporary: temporary)
            case .postgres(let pool): try await pool.shutdownAsync()
            }
        } catch {
            logger.warning("database shutdown failed", metadata: ["error": "\(error)"])
        }
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws.
    /// Domain events published in it are stored atomically with the state change.
    ///
    /// `batchable`: on SQLite the write may share its transaction (and so its commit) with other batchable
    /// writes queued at the same moment (see `SQLiteWriteQueue`). Only for a body that reads and writes through
    /// its `Transaction` alone, never through `sql` or another transaction, and that may run again if the
    /// shared transaction fails before it commits. It is answered only after the commit, as any write.
    /// PostgreSQL ignores it.
    public func transaction<R: Sendable>(
        batchable: Bool = false, _ body: @escaping @Sendable (Transaction) async throws -> R
    ) async throws -> R {
        if let writeQueue { return try await writeQueue.write(batchable: batchable, body) }
        if case .sqliteNIO(_, _, let writer) = pool {
            return try await writer.run("write") { try await self.transactionOnOneConnection(begin: "BEGIN IMMEDIATE", body) }
        }
        return try await transactionOnOneConnection(begin: "BEGIN", body)
    }

    /// `body` in a transaction of one pooled connection, begun with `begin`.
    private func transactionOnOneConnection<R: Sendable>(
        begin: String, _ body: @escaping @Sendable (Transaction) async throws -> R
    ) async throws -> R {
        let (result, published) = try await sql.withSession { session in
            try await session.raw("\(unsafeRaw: begin)").run()
            let transaction = Transaction(sql: session, engine: self.engine)
            do {
                let result = try await body(transaction)
                try await session.raw("COMMIT").run()
                transaction.runCommitHooks()
                return (result, transaction.publishedEvents)
            } catch {
                do {
                    try await session.raw("ROLLBACK").run()
                } catch let rollbackError {
                    self.logger.error("rollback failed", metadata: ["error": "\(rollbackError)"])
                }
                transaction.runRollbackHooks()
                throw error
            }
        }
        if published { afterCommit.runEventHooks() }
        return result
    }

    /// Writes queued behind the one SQLite is running (0 on PostgreSQL).
    var queuedWrites: Int { writeQueue?.waiting ?? 0 }

    /// SQLite write transactions begun so far (0 on PostgreSQL).
    var sqliteTransactionsBegun: Int { writeQueue?.transactionsBegun ?? 0 }

    /// SQLite's writer (nil on PostgreSQL, and on the measured library path).
    var sqliteWriter: SQLiteWriteQueue? { writeQueue }

    /// False once writes can no longer be made durable (SQLite: a commit failed on the disk); the process must be
    /// restarted. `/ready` reports it.
    public var acceptsWrites: Bool { writeQueue?.failure == nil }

    /// WAL checkpoints run so far by SQLite's checkpointer, periodic and drains (0 on PostgreSQL).
    var sqliteCheckpointRuns: Int {
        if case .sqlite(let pool, _) = pool { return pool.checkpointer.runCount }
        return 0
    }

    /// Periodic looks of SQLite's checkpointer so far (0 on PostgreSQL).
    var sqliteCheckpointLooks: Int {
        if case .sqlite(let pool, _) = pool { return pool.checkpointer.lookCount }
        return 0
    }

    /// Whether SQLite's checkpointer is parked until the next commit, nothing being left to copy (false on
    /// PostgreSQL).
    var sqliteCheckpointerParked: Bool {
        if case .sqlite(let pool, _) = pool { return pool.checkpointer.isParked }
        return false
    }

    /// Runs `body`'s reads on one connection in one read-only snapshot, so rows read by several statements
    /// agree with each other (never half of a concurrent write). Not queued behind writers.
    public func readTransaction<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await sql.withSession { session in
            try await session.raw(self.engine == .sqlite ? "BEGIN DEFERRED" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY").run()
            do {
                let result = try await body(session)
                try await session.raw("COMMIT").run()
                return result
            } catch {
                try? await session.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// Registers a callback run after any transaction that published domain events commits (the outbox
    /// dispatcher uses it to wake up at once instead of waiting for its next poll).
    public func onEventsCommitted(_ hook: @escaping @Sendable () -> Void) {
        afterCommit.add(hook)
    }
}

extension Database {
    /// Runs a bounded `DELETE … RETURNING` (one chunk of expired rows) in a transaction of its own, again and
    /// again until it deletes nothing; returns the rows deleted. Housekeeping purges use it so that each
    /// chunk is one short write between the users' writes, never a long lock.
    public func deleteInChunks(_ statement: FixedSQL.Bound) async throws -> Int {
        try await inChunks { tx in try await tx.sql.all(statement).count }
    }

    /// Runs `chunk` (which removes a bounded number of things and returns how many) in a transaction of its own,
    /// again and again until it removes nothing; returns the total. For purges that take more than one statement.
    public func inChunks(_ chunk: @escaping @Sendable (Transaction) async throws -> Int) async throws -> Int {
        var removed = 0
        while true {
            let count = try await transaction(chunk)
            if count == 0 { return removed }
            removed += count
        }
    }
}
