import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix
import Platform
import SQLKit
import TestSupport
import Testing

@Suite struct DatabaseTests {
    static let notes = [
        Migration(version: 1, name: "notes") { _ in
            ["CREATE TABLE test_notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)"]
        },
        Migration(version: 2, name: "notes.author") { _ in
            ["ALTER TABLE test_notes ADD COLUMN author TEXT"]
        },
    ]

    @Test(arguments: TestDatabases.engines)
    func transactionCommitsOrRollsBackAsAWhole(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("test", Self.notes)]) { db in
            try await db.transaction { tx in
                try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('a', 'kept')").run()
            }
            await #expect(throws: ServiceError.self) {
                try await db.transaction { tx in
                    try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('b', 'lost')").run()
                    throw ServiceError(.conflict)
                }
            }
            let ids = try await db.sql.raw("SELECT id FROM test_notes ORDER BY id").all(decodingColumn: "id", as: String.self)
            #expect(ids == ["a"])
        }
    }

    @Test(arguments: TestDatabases.engines)
    func migrationsApplyOnceAndAreRecorded(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { db in
            let migrator = Migrator(database: db, logger: TestDatabases.logger)
            #expect(try await migrator.isUpToDate([("test", Self.notes)]) == false)
            try await migrator.migrate([("test", Self.notes)])
            try await migrator.migrate([("test", Self.notes)])  // second start: nothing re-applied (ALTER would fail)
            #expect(try await migrator.isUpToDate([("test", Self.notes)]))
            let versions = try await db.sql.raw("SELECT version FROM platform_migrations WHERE module = 'test' ORDER BY version")
                .all(decodingColumn: "version", as: Int.self)
            #expect(versions == [1, 2])
            try await db.transaction { tx in
                try await tx.sql.raw("INSERT INTO test_notes (id, body, author) VALUES ('a', 'b', 'c')").run()
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func concurrentWritersAllLand(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("test", Self.notes)]) { db in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        try await db.transaction { tx in
                            try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: "n\(index)"), 'x')").run()
                        }
                    }
                }
                try await group.waitForAll()
            }
            let count = try await db.sql.raw("SELECT COUNT(*) AS n FROM test_notes").first(decodingColumn: "n", as: Int.self)
            #expect(count == 100)
        }
    }

    /// Two transactions locking two rows in opposite order: PostgreSQL aborts one of them as a deadlock, which
    /// a client sees as CONFLICT ("try again"), not INTERNAL.
    @Test(arguments: TestDatabases.engines.filter { $0 == .postgres })
    func aDeadlockIsAConflictToRetry(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("test", Self.notes)]) { db in
            try await db.sql.raw("INSERT INTO test_notes (id, body) VALUES ('a', ''), ('b', '')").run()
            let (first, firstLocked) = AsyncStream<Void>.makeStream()
            let (second, secondLocked) = AsyncStream<Void>.makeStream()
            func crossing(_ mine: String, _ theirs: String, lockedSignal: AsyncStream<Void>.Continuation, other: AsyncStream<Void>) -> Task<
                Void, any Error
            > {
                Task {
                    try await db.transaction { tx in
                        try await tx.sql.raw("UPDATE test_notes SET body = 'x' WHERE id = \(bind: mine)").run()
                        lockedSignal.yield()
                        for await _ in other { break }
                        try await tx.sql.raw("UPDATE test_notes SET body = 'x' WHERE id = \(bind: theirs)").run()
                    }
                }
            }
            let one = crossing("a", "b", lockedSignal: firstLocked, other: second)
            let two = crossing("b", "a", lockedSignal: secondLocked, other: first)
            var errors: [any Error] = []
            for task in [one, two] {
                do { try await task.value } catch { errors.append(error) }
            }
            #expect(errors.count == 1, "PostgreSQL aborts exactly one side")
            for error in errors {
                #expect(
                    ErrorMapper.serviceError(for: error, logger: TestDatabases.logger).code == .conflict, "\(String(reflecting: error))")
            }
        }
    }

    /// Every PostgreSQL connection busy past the pool's wait: the query fails as the moment's failure, answered
    /// `503 UNAVAILABLE` with `Retry-After` (never `INTERNAL`); once a connection is free again, queries run.
    @Test(.enabled(if: TestDatabases.postgresURL != nil))
    func aPoolWaitThatTimesOutIsUnavailable() async throws {
        let location = try await TestDatabases.makeLocation(.postgres)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // Connecting is itself within the pool's wait: on a machine busy with the other suites it may outlast it, and
        // the database is opened again.
        var opened: Database?
        for attempt in 1...5 where opened == nil {
            do {
                opened = try await Database.open(
                    location, maxConnectionsPerEventLoop: 1, poolTimeout: .milliseconds(200), eventLoopGroup: group,
                    logger: TestDatabases.logger)
            } catch  where "\(error)".contains("connectionRequestTimeout") && attempt < 5 {
                continue
            }
        }
        let db = try #require(opened)
        let (released, release) = AsyncStream<Void>.makeStream()
        let (held, holding) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await db.readTransaction { _ in
                holding.yield()
                for await _ in released { break }
            }
        }
        for await _ in held { break }
        do {
            try await db.sql.raw("SELECT 1").run()
            Issue.record("a query got a connection the holder has")
        } catch {
            let mapped = ErrorMapper.serviceError(for: error, logger: TestDatabases.logger)
            #expect(mapped.code == .unavailable && mapped.details["retry_after_seconds"] == "1", "\(String(reflecting: error))")
            let response = Envelope.failure(mapped)
            #expect(response.status == .serviceUnavailable && response.headers[.retryAfter] == "1")
        }
        release.finish()
        try await holder.value
        try await db.sql.raw("SELECT 1").run()
        await db.shutdown()
        try await TestDatabases.dispose(location)
        try await group.shutdownGracefully()
    }

    @Test func sqliteFileIsInWALMode() async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        let db = try await Database.open(location, logger: TestDatabases.logger)
        let mode = try await db.sql.raw("PRAGMA journal_mode").first(decodingColumn: "journal_mode", as: String.self)
        await db.shutdown()
        try await TestDatabases.dispose(location)
        #expect(mode?.lowercased() == "wal")
    }

    @Test func databaseURLsParse() throws {
        #expect(try DatabaseLocation(url: "sqlite::memory:") == .sqliteMemory)
        #expect(try DatabaseLocation(url: "sqlite://./povver.sqlite") == .sqliteFile(path: "./povver.sqlite"))
        #expect(try DatabaseLocation(url: "sqlite:///var/lib/povver.sqlite") == .sqliteFile(path: "/var/lib/povver.sqlite"))
        #expect(try DatabaseLocation(url: "postgres://u:p@h:5432/db") == .postgres(url: "postgres://u:p@h:5432/db", schema: nil))
        #expect(throws: ServiceError.self) { try DatabaseLocation(url: "mysql://nope") }
        #expect(throws: ServiceError.self) { try DatabaseLocation(url: "sqlite://") }
    }
}
