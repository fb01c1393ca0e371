import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import Synchronization
import TestSupport
import Testing

/// `IdempotencyStore` in a table of a module of its own, on every engine: a keyed write runs once, its repeats
/// get the first answer byte for byte, and a key used for another request is `CONFLICT`.
@Suite struct IdempotencyStoreTests {
    static let table = "notes_idempotency"

    /// A module that keeps notes, and its idempotency records in `notes_idempotency`.
    struct Notes: Sendable {
        let store: IdempotencyStore
        let runs = Runs()

        /// How many times a body ran.
        final class Runs: Sendable {
            private let count = Mutex(0)
            var value: Int { count.withLock { $0 } }
            func next() -> Int {
                count.withLock { count in
                    count += 1
                    return count
                }
            }
        }

        struct Request: Codable, Sendable { var text: String }
        struct Note: Codable, Sendable, Equatable {
            var id: Int
            var text: String
        }

        static let migrations = [
            Migration(version: 1, name: "notes") { _ in
                ["CREATE TABLE notes_notes (id BIGINT PRIMARY KEY, user_id TEXT NOT NULL, text TEXT NOT NULL)"]
            },
            IdempotencyStore.migration(version: 2, table: IdempotencyStoreTests.table),
        ]

        /// Adds a note; each run of the body writes a new row with a new id.
        func add(userId: String = "u", key: String?, text: String) async throws -> IdempotentAnswer<Note> {
            try await store.write(userId: userId, key: key, operation: "addNote", request: Request(text: text)) { tx in
                let id = runs.next()
                try await tx.sql.raw("INSERT INTO notes_notes (id, user_id, text) VALUES (\(bind: id), \(bind: userId), \(bind: text))")
                    .run()
                return Note(id: id, text: text)
            }
        }

        func notes(_ db: Database) async throws -> Int {
            try await db.sql.raw("SELECT COUNT(*) AS n FROM notes_notes").first(decodingColumn: "n", as: Int.self) ?? 0
        }
    }

    static func with(_ engine: SQLEngine, clock: FakeWallClock = FakeWallClock(), _ body: (Notes, Database) async throws -> Void)
        async throws
    {
        try await TestDatabases.with(engine, migrate: [("notes", Notes.migrations)]) { db in
            try await body(Notes(store: IdempotencyStore(table: table, lockClass: 91_001, database: db, clock: clock)), db)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aRepeatGetsTheStoredAnswerWithoutRunningTheBodyAgain(engine: SQLEngine) async throws {
        try await Self.with(engine) { notes, db in
            let first = try await notes.add(key: "k", text: "squat day")
            let repeated = try await notes.add(key: "k", text: "squat day")
            #expect(repeated.json == first.json)
            #expect(try repeated.value() == Notes.Note(id: 1, text: "squat day"))
            #expect(notes.runs.value == 1)
            #expect(try await notes.notes(db) == 1)
            // Another user's key of the same name is theirs; no key at all runs every time.
            #expect(try await notes.add(userId: "v", key: "k", text: "squat day").value().id == 2)
            _ = try await notes.add(key: nil, text: "squat day")
            _ = try await notes.add(key: nil, text: "squat day")
            #expect(try await notes.notes(db) == 4)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theSameKeyForAnotherRequestIsConflict(engine: SQLEngine) async throws {
        try await Self.with(engine) { notes, db in
            _ = try await notes.add(key: "k", text: "squat day")
            let error = await #expect(throws: ServiceError.self) { try await notes.add(key: "k", text: "bench day") }
            #expect(error?.code == .conflict)
            #expect(error?.details == ["idempotency_key": "k"])
            #expect(error?.message == "This idempotency key was already used for a different request.")
            #expect(notes.runs.value == 1)
            #expect(try await notes.notes(db) == 1)
        }
    }

    /// A body that fails stores nothing under the key: the retry runs it again.
    @Test(arguments: TestDatabases.engines)
    func aFailedWriteLeavesTheKeyFree(engine: SQLEngine) async throws {
        try await Self.with(engine) { notes, db in
            await #expect(throws: ServiceError(.failedPrecondition)) {
                _ = try await notes.store.write(userId: "u", key: "k", operation: "addNote", request: Notes.Request(text: "x")) {
                    _ -> Notes.Note in
                    throw ServiceError(.failedPrecondition)
                }
            }
            let retried = try await notes.add(key: "k", text: "x")
            #expect(try retried.value().id == 1)
            #expect(try await notes.notes(db) == 1)
        }
    }

    /// Copies of one request sent at the same moment run the body once, and all get its answer (on PostgreSQL
    /// they wait for each other on the key's advisory lock; SQLite has one writer).
    @Test(arguments: TestDatabases.engines)
    func concurrentRequestsWithOneKeyRunTheBodyOnce(engine: SQLEngine) async throws {
        try await Self.with(engine) { notes, db in
            for round in 0..<3 {
                let answers = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                    for _ in 0..<8 { group.addTask { try await notes.add(key: "race-\(round)", text: "round \(round)").json } }
                    return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
                }
                #expect(Set(answers).count == 1, "round \(round)")
                #expect(notes.runs.value == round + 1)
            }
            #expect(try await notes.notes(db) == 3)
        }
    }

    /// Keys are 1 to 128 code points without NUL; anything else is `INVALID_ARGUMENT` naming the key, before the
    /// body runs.
    @Test(arguments: TestDatabases.engines)
    func badKeysAreRefusedBeforeTheBodyRuns(engine: SQLEngine) async throws {
        try await Self.with(engine) { notes, _ in
            for key in ["", String(repeating: "é", count: 129), "a\u{0}b"] {
                let error = await #expect(throws: ServiceError.self) { try await notes.add(key: key, text: "x") }
                #expect(error?.code == .invalidArgument)
                #expect(error?.details["field"] == "idempotency_key")
            }
            let longest = try await notes.add(key: String(repeating: "é", count: 128), text: "x")
            #expect(try longest.value().id == 1)
            #expect(notes.runs.value == 1)
        }
    }

    /// Records older than seven days go, a chunk per transaction; younger ones keep answering their repeats.
    /// Only the store's own table is purged.
    @Test(arguments: TestDatabases.engines)
    func thePurgeRemovesExpiredRecordsOfItsTableOnly(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await Self.with(engine, clock: clock) { notes, db in
            try await Migrator(database: db, logger: TestDatabases.logger).migrate([
                ("other", [IdempotencyStore.migration(version: 1, table: "other_idempotency")])
            ])
            let other = IdempotencyStore(table: "other_idempotency", lockClass: 91_002, database: db, clock: clock)
            for index in 0..<3 { _ = try await notes.add(key: "old-\(index)", text: "old \(index)") }
            _ = try await other.write(userId: "u", key: "old-0", operation: "other", request: ["n": 1]) { _ in 1 }
            clock.advance(by: 6 * 86_400)
            let young = try await notes.add(key: "young", text: "young")
            clock.advance(by: 86_400 + 1)

            #expect(try await notes.store.purgeExpired(chunk: 2) == 3)
            #expect(try await notes.store.purgeExpired() == 0)
            #expect(try await notes.add(key: "young", text: "young").json == young.json)
            #expect(notes.runs.value == 4)
            let kept = try await db.sql.raw("SELECT COUNT(*) AS n FROM other_idempotency").first(decodingColumn: "n", as: Int.self)
            #expect(kept == 1)
            #expect(try await other.purgeExpired() == 1)
        }
    }

    /// The purge runs as a periodic service of the module that owns the table.
    @Test func thePurgerIsAPeriodicTask() async throws {
        try await Self.with(.sqlite) { notes, _ in
            #expect(notes.store.purger(name: "notes_idempotency_purge", logger: TestDatabases.logger).name == "notes_idempotency_purge")
        }
    }
}
