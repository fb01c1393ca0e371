import Contracts
import Foundation
import NIOPosix
import SQLKit
import Synchronization
import TestSupport
import Testing

@testable import Platform

/// The measurement switches (`LibraryPaths`): each names a library path that must still store every write it
/// answers, or what docs/performance.md compares would be a broken server, not a slower one.
@Suite struct LibraryPathsTests {
    @Test func aListNamesTheSwitchesAndAnUnknownNameStopsTheStart() throws {
        #expect(LibraryPaths(parsing: "") == [])
        #expect(LibraryPaths(parsing: "sqlite-nio") == .sqliteNIO)
        #expect(LibraryPaths(parsing: " no-group-commit, sqlite-nio ,") == [.noGroupCommit, .sqliteNIO])
        #expect(LibraryPaths(parsing: "foundation-encoder,sqlite-nio") == [.foundationEncoder, .sqliteNIO])
        #expect(LibraryPaths(parsing: "foundation-decoder") == nil, "FlatJSON is gone, and its switch with it")
        #expect(LibraryPaths(parsing: "sqlite-nio,fast") == nil)
        #expect(throws: ServiceError.self) { _ = try AppConfig.fromEnvironment([LibraryPaths.variable: "group-commit"]) }
        do {
            _ = try AppConfig.fromEnvironment([LibraryPaths.variable: "group-commit"])
        } catch let error as ServiceError {
            #expect(error.details["field"] == LibraryPaths.variable)
        }
        #expect(LibraryPaths(parsing: "no-wal-syncer") == nil, "the WAL syncer is gone, and its switch with it")
        _ = try AppConfig.fromEnvironment([LibraryPaths.variable: "no-group-commit"])
    }

    /// On every SQLite path, concurrent writes are all stored and answered once stored, a write that throws
    /// leaves nothing, and reads see the writes; without group commit each write has a transaction of its own.
    @Test(arguments: [LibraryPaths(), .sqliteNIO, .noGroupCommit, [.noGroupCommit, .foundationEncoder]])
    func everySQLitePathStoresWhatItAnswers(paths: LibraryPaths) async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        let db = try await Database.open(
            location, maxConnectionsPerEventLoop: 2, eventLoopGroup: MultiThreadedEventLoopGroup.singleton, walRestartFrames: 10_000,
            libraryPaths: paths, logger: TestDatabases.logger)
        try await db.transaction { tx in try await tx.sql.raw("CREATE TABLE test_marks (id INTEGER PRIMARY KEY, note TEXT NOT NULL)").run()
        }
        let writes = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<writes {
                group.addTask {
                    try await db.transaction(batchable: true) { tx in
                        try await tx.sql.raw("INSERT INTO test_marks (id, note) VALUES (\(bind: index), \(bind: "n\(index)"))").run()
                    }
                }
            }
            try await group.waitForAll()
        }
        await #expect(throws: ServiceError.self) {
            try await db.transaction { tx in
                try await tx.sql.raw("INSERT INTO test_marks (id, note) VALUES (1000, 'gone')").run()
                throw ServiceError(.conflict)
            }
        }
        let rows = try await db.sql.raw("SELECT COUNT(*) AS n, MAX(id) AS top FROM test_marks").all()
        #expect(try rows.first?.decode(column: "n", as: Int.self) == writes)
        #expect(try rows.first?.decode(column: "top", as: Int.self) == writes - 1)
        if paths.contains(.noGroupCommit) {
            #expect(db.sqliteTransactionsBegun == writes + 2, "one transaction per write, the table's and the failed one's")
        }
        await db.shutdown()
        if case .sqliteFile(let path) = location {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
}
