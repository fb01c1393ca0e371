import Contracts
import Foundation
import NIOCore
import NIOPosix
import SQLKit
import Synchronization
import TestSupport
import Testing

@testable import Platform

/// SQLite's group commit (`SQLiteWriteQueue`): writes that allow it share a transaction; one that fails leaves
/// the others alone; a failed shared transaction runs its writes again one by one.
@Suite struct WriteQueueTests {
    static let notes = DatabaseTests.notes

    /// Holds the writer inside a write until opened, so the writes submitted meanwhile queue up and are
    /// taken together.
    final class Latch: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    final class Events: Sendable {
        private let items = Mutex<[String]>([])
        func add(_ item: String) { items.withLock { $0.append(item) } }
        var all: [String] { items.withLock { $0 } }
    }

    final class Counter: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// Starts `count` writes (`submit(i)` each) behind a held writer, one at a time so they queue in order,
    /// then lets the writer go: they are taken together. Returns their results in order.
    static func lineUp<R: Sendable>(
        _ db: Database, count: Int, _ submit: @escaping @Sendable (Int) async throws -> R
    ) async throws -> [Result<R, any Error>] {
        let latch = Latch()
        let begun = db.sqliteTransactionsBegun
        let holder = Task {
            try await db.transaction { _ in await latch.wait() }
        }
        try await Self.waitUntil { db.sqliteTransactionsBegun > begun && db.queuedWrites == 0 }
        var tasks: [Task<Result<R, any Error>, Never>] = []
        for index in 0..<count {
            tasks.append(
                Task { () -> Result<R, any Error> in
                    do { return .success(try await submit(index)) } catch { return .failure(error) }
                })
            try await Self.waitUntil { db.queuedWrites == index + 1 }
        }
        latch.open()
        try await holder.value
        var results: [Result<R, any Error>] = []
        for task in tasks { results.append(await task.value) }
        return results
    }

    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw ServiceError(.internalError, "the writes did not queue") }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    static func ids(_ db: Database) async throws -> [String] {
        try await db.sql.raw("SELECT id FROM test_notes ORDER BY id").all(decodingColumn: "id", as: String.self)
    }

    @Test func queuedWritesShareOneTransactionAndAWriteThatFailsBeforeWritingLeavesTheOthersAlone() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("test", Self.notes)]) { db in
            let commits = Counter()
            let rollbacks = Counter()
            let before = db.sqliteTransactionsBegun
            let results = try await Self.lineUp(db, count: 10) { index -> Bool in
                try await db.transaction(batchable: true) { tx in
                    tx.afterCommit { commits.add() }
                    tx.onRollback { rollbacks.add() }
                    if index == 3 { throw ServiceError(.notFound, "write 3 fails before it writes") }
                    // 6 collides with 5: the failed statement leaves nothing behind.
                    try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: index == 6 ? "n5" : "n\(index)"), 'x')").run()
                    // A later write sees what earlier writes of the batch wrote, as if they had committed.
                    return try await tx.sql.raw("SELECT id FROM test_notes WHERE id = 'n0'").first() != nil
                }
            }
            #expect(db.sqliteTransactionsBegun - before == 2)  // the held write, then all ten together
            for (index, result) in results.enumerated() {
                switch (index, result) {
                case (3, .failure(let error)): #expect((error as? ServiceError)?.code == .notFound)
                case (6, .failure): break
                case (_, .success(let sawFirst)): #expect(sawFirst, "write \(index)")
                default: Issue.record("write \(index): \(result)")
                }
            }
            #expect(try await Self.ids(db) == ["n0", "n1", "n2", "n4", "n5", "n7", "n8", "n9"])
            #expect(commits.count == 8)
            #expect(rollbacks.count == 2)
        }
    }

    @Test func aWriteThatFailsAfterWritingIsUndoneAndTheOthersStillLand() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("test", Self.notes)]) { db in
            let commits = Counter()
            let attempts = Counter()
            let before = db.sqliteTransactionsBegun
            let results = try await Self.lineUp(db, count: 5) { index in
                try await db.transaction(batchable: true) { tx in
                    tx.afterCommit { commits.add() }
                    if index == 0 { attempts.add() }
                    try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: "n\(index)"), 'x')").run()
                    if index == 2 { throw ServiceError(.conflict, "write 2 fails after it wrote") }
                }
            }
            #expect(throws: ServiceError.self) { try results[2].get() }
            for index in [0, 1, 3, 4] { #expect(throws: Never.self) { try results[index].get() } }
            #expect(try await Self.ids(db) == ["n0", "n1", "n3", "n4"])
            #expect(commits.count == 4)
            #expect(attempts.count == 2)  // in the shared transaction, then alone
            // The held write, the shared transaction given up, then 0 to 4 alone: 2 too, since it failed on top of
            // the rows of 0 and 1, which were given up with the batch.
            #expect(db.sqliteTransactionsBegun - before == 7)
        }
    }

    @Test func aFailedSharedTransactionRunsEachWriteAgainAlone() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("test", Self.notes)]) { db in
            let commits = Counter()
            let rollbacks = Counter()
            let attempts = Counter()
            let results = try await Self.lineUp(db, count: 3) { index in
                try await db.transaction(batchable: true) { tx in
                    tx.afterCommit { commits.add() }
                    tx.onRollback { rollbacks.add() }
                    if index == 0 { attempts.add() }
                    if index == 1 {
                        // Ends the shared transaction under everyone's feet: nothing of it can commit.
                        try await tx.sql.raw("ROLLBACK").run()
                    } else {
                        try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: "n\(index)"), 'x')").run()
                    }
                }
            }
            #expect(throws: (any Error).self) { try results[1].get() }
            #expect(throws: Never.self) { try results[0].get() }
            #expect(throws: Never.self) { try results[2].get() }
            #expect(try await Self.ids(db) == ["n0", "n2"])
            #expect(attempts.count == 2)  // in the batch, then alone
            #expect(commits.count == 2)
            #expect(rollbacks.count == 3)  // write 0's first attempt; write 1 in the batch and alone
        }
    }

    /// A write that failed on top of rows an earlier write of the batch wrote is not answered with that failure
    /// when the batch is given up: those rows never committed, so it runs again alone.
    @Test func aFailureRestingOnRowsGivenUpIsNotKept() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("test", Self.notes)]) { db in
            let firstRuns = Counter()
            let results = try await Self.lineUp(db, count: 3) { index -> String in
                try await db.transaction(batchable: true) { tx in
                    switch index {
                    case 0:
                        // Writes the marker in the batch; alone, later, it finds nothing to do.
                        firstRuns.add()
                        if firstRuns.count == 1 { try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('marker', 'x')").run() }
                        return "first"
                    case 1:
                        if try await tx.sql.raw("SELECT id FROM test_notes WHERE id = 'marker'").first() != nil {
                            throw ServiceError(.failedPrecondition, "the marker is there")
                        }
                        try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('second', 'x')").run()
                        return "second"
                    default:
                        try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('third', 'x')").run()
                        throw ServiceError(.conflict, "the third fails after it wrote, and the batch is given up")
                    }
                }
            }
            #expect(try results[0].get() == "first")
            #expect(try results[1].get() == "second", "write 1 failed on the marker, which never committed")
            #expect(throws: ServiceError.self) { try results[2].get() }
            #expect(try await Self.ids(db) == ["second"])
        }
    }

    /// Another process holding the write lock past the busy timeout makes a batch's BEGIN fail: nothing of the
    /// batch ran, so every write gets that error at once instead of each waiting the timeout again alone.
    @Test func aTransactionThatCannotBeginFailsItsWholeBatchAtOnce() async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        guard case .sqliteFile(let path) = location else { return }
        let db = try await Database.open(location, logger: TestDatabases.logger)
        try await db.transaction { tx in
            try await tx.sql.raw("CREATE TABLE test_notes (id TEXT PRIMARY KEY, body TEXT)").run()
            // The writer's connection gives up on a held lock after three seconds (instead of five): time enough for the
            // other four writes to queue behind it on a loaded machine.
            try await tx.sql.raw("PRAGMA busy_timeout = 3000").run()
        }
        let other = try DirectSQLiteConnection(path: path, checkpointer: nil)
        try other.execute("BEGIN IMMEDIATE", binds: []) { _, _ in }
        let insert: @Sendable (String) async throws -> Void = { id in
            try await db.transaction(batchable: true) { tx in
                try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: id), 'x')").run()
            }
        }
        let begun = db.sqliteTransactionsBegun
        // The first write waits for the lock alone; the next four queue meanwhile and go as one batch.
        let first = Task { try await insert("n0") }
        try await Self.waitUntil { db.sqliteTransactionsBegun == begun + 1 }
        let rest = (1...4).map { index in Task { try await insert("n\(index)") } }
        try await Self.waitUntil { db.queuedWrites == 4 }
        for task in [first] + rest {
            await #expect(throws: SQLiteError.self) { try await task.value }
        }
        #expect(db.sqliteTransactionsBegun == begun + 2, "the four writes were not run again one by one")
        try other.execute("ROLLBACK", binds: []) { _, _ in }
        other.close()
        try await insert("n5")
        #expect(try await Self.ids(db) == ["n5"])
        await db.shutdown()
        try await TestDatabases.dispose(location)
    }

    /// A connection checked in while still inside a transaction does not keep the write lock or show its rows
    /// to the next user: the pool rolls it back.
    @Test func aConnectionLeftInATransactionIsRolledBackOnCheckin() async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        guard case .sqliteFile(let path) = location else { return }
        let pool = DirectSQLitePool(
            path: path, limit: 1, walRestartFrames: 10_000, checkpointInterval: .seconds(1), logger: TestDatabases.logger)
        let connection = try await pool.checkout()
        for statement in ["PRAGMA journal_mode = WAL", "CREATE TABLE t (id TEXT)", "BEGIN IMMEDIATE", "INSERT INTO t VALUES ('x')"] {
            try connection.execute(statement, binds: []) { _, _ in }
        }
        pool.checkin(connection)
        let next = try await pool.checkout()
        #expect(!next.isInTransaction)
        var count: Int64 = -1
        try next.execute("SELECT COUNT(*) FROM t", binds: []) { _, values in
            if case .integer(let value) = values[0] { count = value }
        }
        #expect(count == 0)
        // The write lock is free: another connection takes it at once.
        let other = try DirectSQLiteConnection(path: path, checkpointer: nil)
        try other.execute("PRAGMA busy_timeout = 0", binds: []) { _, _ in }
        try other.execute("BEGIN IMMEDIATE", binds: []) { _, _ in }
        try other.execute("ROLLBACK", binds: []) { _, _ in }
        other.close()
        pool.checkin(next)
        pool.shutdown()
        await pool.checkpointer.stop()
        try await TestDatabases.dispose(location)
    }

    /// Every connection commits with `synchronous = FULL` (2), the writer's included: a commit is on disk when it
    /// returns, and its writes are answered after it.
    @Test func anAnsweredWriteIsOnDisk() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("test", Self.notes)]) { db in
            #expect(try await db.sql.raw("PRAGMA synchronous").first(decodingColumn: "synchronous", as: Int.self) == 2)
            let inWriter = try await db.transaction { tx in
                try await tx.sql.raw("PRAGMA synchronous").first(decodingColumn: "synchronous", as: Int.self)
            }
            #expect(inWriter == 2)
        }
    }

    /// What follows a commit (`afterCommit`: waking the mail sender, a log line) runs once the commit is done,
    /// before the write is answered, and never for a commit that failed.
    @Test func commitHooksFollowTheCommit() async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        let db = try await Database.open(location, logger: TestDatabases.logger)
        try await db.transaction { tx in try await tx.sql.raw("CREATE TABLE test_notes (id TEXT PRIMARY KEY, body TEXT)").run() }
        let writer = try #require(db.sqliteWriter)
        let log = Events()
        try await db.transaction(batchable: true) { tx in
            try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('n1', 'x')").run()
            tx.afterCommit { log.add("hook") }
        }
        log.add("answered")
        #expect(log.all == ["hook", "answered"])
        writer.beforeEachCommit { throw SQLiteError(code: 1034, message: "disk I/O error") }  // SQLITE_IOERR_FSYNC
        await #expect(throws: SQLiteError.self) {
            try await db.transaction(batchable: true) { tx in
                try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('n2', 'x')").run()
                tx.afterCommit { log.add("hook after a failed commit") }
            }
        }
        #expect(log.all == ["hook", "answered"])
        writer.beforeEachCommit(nil)
        await db.shutdown()
        try await TestDatabases.dispose(location)
    }

    /// A commit that fails on the disk fails its writes, and the failure is final: Linux may have dropped the
    /// failed pages, so a later sync proves nothing. Later writes fail without running and the database no
    /// longer accepts writes (`/ready` fails) until it is opened again; the WAL is left for SQLite's recovery.
    /// A commit refused for another reason (a constraint) ends nothing.
    @Test func aCommitThatFailsOnTheDiskFailsEveryWriteUntilTheDatabaseIsOpenedAgain() async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        let db = try await Database.open(location, logger: TestDatabases.logger)
        try await db.transaction { tx in try await tx.sql.raw("CREATE TABLE test_notes (id TEXT PRIMARY KEY, body TEXT)").run() }
        let writer = try #require(db.sqliteWriter)
        writer.beforeEachCommit { throw SQLiteError(code: 19, message: "constraint failed") }  // SQLITE_CONSTRAINT
        await #expect(throws: SQLiteError.self) {
            try await db.transaction(batchable: true) { tx in
                try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('n0', 'x')").run()
            }
        }
        #expect(db.acceptsWrites, "not a disk failure")
        let failing = Counter()
        writer.beforeEachCommit {
            failing.add()
            throw SQLiteError(code: 1034, message: "disk I/O error")  // SQLITE_IOERR_FSYNC
        }
        await #expect(throws: SQLiteError.self) {
            try await db.transaction(batchable: true) { tx in
                try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('n1', 'x')").run()
            }
        }
        #expect(!db.acceptsWrites)
        writer.beforeEachCommit(nil)
        let transactions = db.sqliteTransactionsBegun
        for batchable in [true, false] {
            await #expect(throws: SQLiteError.self, "batchable: \(batchable)") {
                try await db.transaction(batchable: batchable) { tx in
                    try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('n2', 'x')").run()
                }
            }
        }
        #expect(db.sqliteTransactionsBegun == transactions, "refused writes do not run")
        #expect(failing.count == 1, "no commit is tried again")
        #expect(try await Self.ids(db) == [], "reads go on")
        let runs = db.sqliteCheckpointRuns
        guard case .sqliteFile(let path) = location else { throw ServiceError(.internalError, "a file database") }
        await db.shutdown()
        #expect(db.sqliteCheckpointRuns == runs, "nothing of the WAL is copied any more")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "closing left the WAL as it was")

        let reopened = try await Database.open(location, logger: TestDatabases.logger)
        #expect(reopened.acceptsWrites)
        try await reopened.transaction(batchable: true) { tx in
            try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('n2', 'x')").run()
        }
        #expect(try await Self.ids(reopened) == ["n2"])
        await reopened.shutdown()
        try await TestDatabases.dispose(location)
    }

    @Test func aWriteThatIsNotBatchableRunsAlone() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("test", Self.notes)]) { db in
            let before = db.sqliteTransactionsBegun
            let results = try await Self.lineUp(db, count: 5) { index in
                try await db.transaction(batchable: index != 2) { tx in
                    try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: "n\(index)"), 'x')").run()
                }
            }
            for result in results { #expect(throws: Never.self) { try result.get() } }
            // The held write; 0 and 1 together; 2 alone; 3 and 4 together.
            #expect(db.sqliteTransactionsBegun - before == 4)
            #expect(try await Self.ids(db) == ["n0", "n1", "n2", "n3", "n4"])
        }
    }

    @Test func writesAfterShutdownFailClearly() async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        let db = try await Database.open(location, logger: TestDatabases.logger)
        await db.shutdown()
        await #expect(throws: SQLiteError.self) {
            try await db.transaction { tx in try await tx.sql.raw("SELECT 1").run() }
        }
        try await TestDatabases.dispose(location)
    }

    @Test func manyConcurrentWritersAllLandExactlyOnce() async throws {
        try await TestDatabases.with(.sqlite, migrate: [("test", Self.notes)]) { db in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<400 {
                    group.addTask {
                        try await db.transaction(batchable: index % 7 != 0) { tx in
                            try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: String(format: "n%03d", index)), 'x')")
                                .run()
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await Self.ids(db) == (0..<400).map { String(format: "n%03d", $0) })
        }
    }
}

/// WAL checkpoints run beside the writer; the WAL starts over once it reaches its restart length, so it stays
/// short under writes that never pause, and nothing written is lost on the way.
@Suite struct CheckpointTests {
    /// A SQLite file with the notes table, its WAL restarting at `walRestartFrames`; shut down and removed after.
    static func withNotes(
        walRestartFrames: Int, checkpointInterval: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock(),
        _ body: (Database, String) async throws -> Void
    ) async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        guard case .sqliteFile(let path) = location else { return }
        let db = try await Database.open(
            location, maxConnectionsPerEventLoop: 4, eventLoopGroup: MultiThreadedEventLoopGroup.singleton,
            walRestartFrames: walRestartFrames,
            checkpointInterval: checkpointInterval, checkpointClock: clock, logger: TestDatabases.logger)
        do {
            try await Migrator(database: db, logger: TestDatabases.logger).migrate([
                Migrator.platformMigrations, ("test", DatabaseTests.notes),
            ])
            try await body(db, path)
        } catch {
            await db.shutdown()
            try await TestDatabases.dispose(location)
            throw error
        }
        await db.shutdown()
        try await TestDatabases.dispose(location)
    }

    @Test func theWALStaysShortUnderContinuousWrites() async throws {
        try await Self.withNotes(walRestartFrames: 200) { db, path in
            let body = String(repeating: "x", count: 2_000)
            var largest = 0
            for round in 0..<30 {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<50 {
                        group.addTask {
                            try await db.transaction(batchable: index % 2 == 0) { tx in
                                try await tx.sql.raw(
                                    "INSERT INTO test_notes (id, body) VALUES (\(bind: "r\(round)-\(index)"), \(bind: body))"
                                ).run()
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
                largest = max(largest, size)
            }
            let count = try await db.sql.raw("SELECT COUNT(*) AS n FROM test_notes").first(decodingColumn: "n", as: Int.self)
            #expect(count == 1_500)
            // 1,500 rows of 2 KB took well over 1,000 frames; the WAL restarted at about 200 (a frame is ~4 KB).
            #expect(largest < 2_000_000, "largest WAL: \(largest) bytes")
        }
    }

    /// Waits until the checkpointer is asleep (a look scheduled) or parked, and says which: true when asleep.
    static func settles(_ db: Database, _ clock: ManualClock) async throws -> Bool {
        try await eventually("the checkpointer sleeps or parks") { !clock.sleepers.isEmpty || db.sqliteCheckpointerParked }
        return !clock.sleepers.isEmpty
    }

    /// One look: the checkpointer asleep, the clock moved by its poll (20 ms), and the look taken (with its run
    /// if one was due) until it sleeps or parks again.
    static func look(_ db: Database, _ clock: ManualClock) async throws {
        #expect(try await settles(db, clock), "a look is scheduled")
        let looks = db.sqliteCheckpointLooks
        clock.advance(by: .milliseconds(20))
        try await eventually("the look was taken") { db.sqliteCheckpointLooks > looks }
        _ = try await settles(db, clock)
    }

    /// Once a run copied the whole WAL the checkpointer parks until the next commit instead of looking every
    /// 20 ms (an idle server is not woken for nothing); a commit brings the looks back, and its run comes once
    /// the interval since the last run has passed.
    @Test func anIdleCheckpointerWaitsForACommit() async throws {
        let clock = ManualClock()
        try await Self.withNotes(walRestartFrames: 2_000, checkpointInterval: .milliseconds(100), clock: clock) { db, _ in
            // The migrations' commits are copied at the latest on the look that finds the interval passed (the
            // fifth); then the thread parks.
            var taken = 0
            while try await Self.settles(db, clock) {
                try await Self.look(db, clock)
                taken += 1
                guard taken <= 5 else {
                    Issue.record("the checkpointer kept looking past the interval")
                    return
                }
            }
            #expect(db.sqliteCheckpointRuns >= 1)
            let looks = db.sqliteCheckpointLooks
            let runs = db.sqliteCheckpointRuns
            #expect(clock.sleepers.isEmpty, "parked: no look is scheduled")
            clock.advance(by: .seconds(10))
            #expect(db.sqliteCheckpointLooks == looks && db.sqliteCheckpointRuns == runs)
            try await db.transaction { tx in try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES ('idle', 'x')").run() }
            #expect(try await Self.settles(db, clock), "the commit woke it")
            // Ten seconds since the last run: the first look runs, and the thread parks again.
            try await Self.look(db, clock)
            #expect(db.sqliteCheckpointRuns == runs + 1)
            #expect(db.sqliteCheckpointLooks == looks + 1)
            #expect(db.sqliteCheckpointerParked)
        }
    }

    /// Checkpoints (each ends with an fsync) follow the WAL's growth: none for a few small commits before the
    /// interval (a long one here), one on the first look after the WAL grew by a tenth of its restart length.
    @Test func checkpointsFollowTheWALsGrowth() async throws {
        let clock = ManualClock()
        try await Self.withNotes(walRestartFrames: 2_000, checkpointInterval: .seconds(60), clock: clock) { db, _ in
            // A few one-page commits: well under the 200 frames that call for a run. Ten looks (200 ms) run nothing.
            for index in 0..<3 {
                try await db.transaction { tx in
                    try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: "s\(index)"), 'x')").run()
                }
            }
            let settled = db.sqliteCheckpointRuns
            for _ in 0..<10 { try await Self.look(db, clock) }
            #expect(db.sqliteCheckpointRuns == settled)
            // 300 commits of a fresh 3 KB row each (a page of its own): over 200 frames. The next look runs.
            let body = String(repeating: "y", count: 3_000)
            for index in 0..<300 {
                try await db.transaction { tx in
                    try await tx.sql.raw("INSERT INTO test_notes (id, body) VALUES (\(bind: "b\(index)"), \(bind: body))").run()
                }
            }
            try await Self.look(db, clock)
            #expect(db.sqliteCheckpointRuns == settled + 1)
        }
    }
}
