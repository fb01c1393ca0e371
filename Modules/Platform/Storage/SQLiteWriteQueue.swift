import Logging
import SQLKit
import Synchronization
import VaporCSQLite

/// SQLite's single writer, shared by every write transaction of this process, with group commit.
///
/// Writers queue in arrival order and wait. One writer task, on a thread of its own, takes the writes waiting
/// in the queue, runs them one after another on its own connection in one SQLite transaction (a write that
/// throws leaves the others untouched, see `run`) and commits once, with `synchronous = FULL`: the commit is on
/// disk when it returns, and only then are its writes answered. Under load a commit (the WAL append and its
/// sync) is shared by the writes that queued while the one before it ran, instead of paid by each, and the
/// writes never wait in the shared concurrency pool behind request handling for their turn.
///
/// Only writes that asked for it (`batchable`) share a transaction: such a body reads and writes through its
/// `Transaction` only, so seeing the uncommitted rows of the writes before it in the batch is exactly what it
/// would have seen had they committed first. Any other write runs alone, as before.
///
/// If the shared transaction itself fails (the commit, or an error that made SQLite abandon the transaction),
/// nothing of the batch was written, and each write runs again on its own, except one that failed by itself
/// before any write of the batch had changed a row (its failure did not rest on rows now given up). A
/// transaction that could not begin ran nothing: every write of the batch gets that error. A commit that fails
/// on the disk ends the writes for good (`failure`).
final class SQLiteWriteQueue: Sendable {
    private struct Waiting {
        let write: any QueuedWrite
        /// Resumed with nil once the write ran and its commit is on disk, with an error if the queue closed
        /// before it could run or its commit could not be made durable.
        let continuation: UnsafeContinuation<(any Error)?, Never>
    }

    static let begin = FixedSQL("BEGIN IMMEDIATE")
    static let commit = FixedSQL("COMMIT")
    static let rollback = FixedSQL("ROLLBACK")

    /// The most writes one transaction takes (bounds the wait of the first of them).
    let maxBatch: Int
    /// The writes waiting for the writer task, which parks while there are none.
    private let queue = SingleConsumerQueue<Waiting>()
    private let writer = Mutex<Task<Void, Never>?>(nil)
    /// Where the writer opens its connection, and the database the writes' transactions belong to.
    private let pool: DirectSQLitePool
    private let executor: ThreadTaskExecutor
    /// The error of the first commit that failed on the disk; set once, never cleared (see `failure`).
    private let broken = Mutex<SQLiteError?>(nil)
    /// Runs before each COMMIT; one that throws fails the commit (tests fail commits with it, as a disk would).
    private let beforeCommit = Mutex<(@Sendable () throws -> Void)?>(nil)
    private let logger: Logger
    /// Called once per durable batch in which a write published domain events.
    private let onEventsCommitted: @Sendable () -> Void

    /// Keeps the WAL short; the writer lets it finish between two transactions when the WAL is long.
    private let checkpointer: SQLiteCheckpointer

    /// `libraryPaths`: group commit switched off, for a measurement (`LibraryPaths`).
    init(
        pool: DirectSQLitePool, maxBatch: Int = 64, libraryPaths: LibraryPaths = .current, logger: Logger,
        onEventsCommitted: @escaping @Sendable () -> Void
    ) {
        self.maxBatch = libraryPaths.contains(.noGroupCommit) ? 1 : max(1, maxBatch)
        self.pool = pool
        let checkpointer = pool.checkpointer
        self.checkpointer = checkpointer
        self.executor = ThreadTaskExecutor()
        self.logger = logger
        self.onEventsCommitted = onEventsCommitted
        let task = Task(executorPreference: executor) { [self] in await self.writeLoop() }
        writer.withLock { $0 = task }
    }

    /// Runs `body` as (part of) a committed write transaction and returns its result once committed.
    func write<R: Sendable>(batchable: Bool, _ body: @escaping @Sendable (Transaction) async throws -> R) async throws -> R {
        let write = PendingWrite(batchable: batchable, body: body)
        // Unsafe continuations (no checking object per write): each is resumed exactly once, by the writer or
        // right here when the queue is closed.
        let failure = await withUnsafeContinuation { (continuation: UnsafeContinuation<(any Error)?, Never>) in
            if !queue.append(Waiting(write: write, continuation: continuation)) {
                continuation.resume(returning: SQLiteError(code: SQLITE_MISUSE, message: "the database is closed"))
            }
        }
        if let failure { throw failure }
        return try write.result()
    }

    /// How many writes wait for the writer (tests use it to line writes up behind a running one).
    var waiting: Int { queue.count }

    /// SQLite transactions begun so far (one per batch, and one per write run again on its own).
    var transactionsBegun: Int { begun.load(ordering: .relaxed) }
    private let begun = Atomic<Int>(0)

    /// Runs what is queued and answers it, then stops the writer and its thread. Writes submitted
    /// afterwards fail.
    func close() async {
        queue.close()
        await writer.withLock { $0 }?.value
        await executor.shutdown()
    }

    /// Why writes can no longer be made durable, or nil.
    ///
    /// A commit that fails on the disk (an I/O error: the sync of the WAL, or the write of its frames) is final,
    /// as in PostgreSQL: Linux may drop the failed pages' dirty state, so a later sync can succeed without them
    /// ever reaching the disk, and WAL frames are checksummed in a chain, so recovery after a crash would drop
    /// every commit after the hole, answered ones included. From then on no write runs (each fails with this
    /// error), `/ready` fails and the checkpointer copies nothing more, until the process is restarted and SQLite
    /// recovers the database from what the disk holds.
    var failure: SQLiteError? { broken.withLock { $0 } }

    /// Runs `hook` before each COMMIT from now on; a hook that throws fails the commit with its error.
    func beforeEachCommit(_ hook: (@Sendable () throws -> Void)?) {
        beforeCommit.withLock { $0 = hook }
    }

    private func writeLoop() async {
        var restartAt = checkpointer.restartFrames
        var connection: DirectSQLiteConnection?
        while let batch = await nextBatch() {
            var committed: [Transaction] = []
            if let broken = failure {
                // Nothing more goes into a WAL that could not be made durable (see `failure`).
                for waiting in batch { waiting.continuation.resume(returning: broken) }
                continue
            }
            do {
                let open = try connection ?? DirectSQLiteConnection(path: pool.path, checkpointer: checkpointer)
                connection = open
                committed = await run(batch.map(\.write), on: DirectSQLiteDatabase(pool: pool, session: open, logger: logger))
                if open.isInTransaction {
                    // Its ROLLBACK failed: a connection holding the write lock would stall every later write.
                    try? open.execute("ROLLBACK", binds: []) { _, _ in }
                    if open.isInTransaction {
                        open.close()
                        connection = nil
                    }
                }
            } catch {
                logger.error("the writer cannot open its connection", metadata: ["error": "\(error)"])
                for waiting in batch { waiting.write.fail(error) }
            }
            // The commit is on disk: what follows it (waking the mail sender, a cache, a log line) runs, then its
            // writes are answered (each with its own outcome).
            for transaction in committed { transaction.runCommitHooks() }
            for waiting in batch { waiting.continuation.resume(returning: nil) }
            if committed.contains(where: \.publishedEvents) { onEventsCommitted() }
            let frames = checkpointer.frames.load(ordering: .relaxed)
            if frames < checkpointer.restartFrames { restartAt = checkpointer.restartFrames }  // the WAL started over
            if frames >= restartAt {
                // Writes queue meanwhile and go together in the next transaction. A reader holding on to an old
                // snapshot can keep the WAL from being copied whole: then try again one length further on.
                restartAt = await checkpointer.drain() ? checkpointer.restartFrames : frames + checkpointer.restartFrames
            }
        }
        connection?.close()
    }

    /// The next writes to run together: a write that is not batchable alone, else the batchable writes at the
    /// head of the queue. Waits while the queue is empty; nil once closed and drained.
    private func nextBatch() async -> [Waiting]? {
        let maxBatch = self.maxBatch
        return await queue.next { queued in
            var taken = 1
            if queued[0].write.batchable {
                while taken < queued.count, taken < maxBatch, queued[taken].write.batchable { taken += 1 }
            }
            defer { queued.removeFirst(taken) }
            return Array(queued.prefix(taken))
        }
    }

    /// Runs `writes` in one transaction and records every outcome; after a failure of the transaction as a
    /// whole, runs again on its own each write that had not failed by itself.
    ///
    /// A write that throws before it changed a row (a missing record, a stale version, bad input: the usual
    /// failures, found before anything is written) needs nothing undone. One that throws after changing rows
    /// cannot be taken out of a shared transaction alone, so that transaction is given up and the other
    /// writes run again one by one; this is what spares every write a savepoint of its own.
    ///
    /// Returns the transactions of the writes committed (their commit hooks run once the commit is on disk).
    private func run(_ writes: [any QueuedWrite], on database: DirectSQLiteDatabase) async -> [Transaction] {
        begun.add(1, ordering: .relaxed)
        let shared = writes.count > 1
        // Every transaction handed to a body, for its rollback hooks if the whole transaction fails.
        let started = Mutex<[Transaction]>([])
        // Writes that failed by themselves after earlier writes of the batch had changed rows: their failure may
        // rest on those rows ("already finished", a stale version), so if the batch is given up they run again.
        let sawUncommitted = Mutex<Set<ObjectIdentifier>>([])
        // Whether the transaction began: a BEGIN that failed (another process holding the write lock past the
        // busy timeout) ran no write, and running each write again alone would only wait that timeout once more
        // per write.
        let began = Atomic<Bool>(false)
        // Whether the error (if any) came from the COMMIT itself.
        let committing = Atomic<Bool>(false)
        let committed: [(write: any QueuedWrite, transaction: Transaction)]
        do {
            committed = try await database.withSession { session in
                // cannot trap: withSession has just set the session it runs in
                let connection = database.session!
                var ran: [(write: any QueuedWrite, transaction: Transaction)] = []
                var failed: [Transaction] = []
                try await session.run(Self.begin())
                began.store(true, ordering: .relaxed)
                let changesAtBegin = connection.totalChanges
                do {
                    for write in writes {
                        let transaction = Transaction(sql: session, engine: .sqlite)
                        started.withLock { $0.append(transaction) }
                        let changesBefore = connection.totalChanges
                        let succeeded = await write.run(transaction)
                        if !succeeded, changesBefore != changesAtBegin {
                            sawUncommitted.withLock { _ = $0.insert(ObjectIdentifier(write)) }
                        }
                        guard connection.isInTransaction else {
                            // The body ended the transaction itself (a stray COMMIT or ROLLBACK): nothing after
                            // it may run outside the transaction.
                            throw SQLiteError(code: SQLITE_MISUSE, message: "a write ended its transaction itself")
                        }
                        if succeeded {
                            ran.append((write, transaction))
                        } else if !shared || connection.totalChanges == changesBefore {
                            failed.append(transaction)
                        } else {
                            throw PartialWriteInSharedTransaction()
                        }
                    }
                    if ran.isEmpty {
                        try await session.run(Self.rollback())
                    } else {
                        committing.store(true, ordering: .relaxed)
                        try self.beforeCommit.withLock({ $0 })?()
                        try await session.run(Self.commit())
                        committing.store(false, ordering: .relaxed)
                    }
                    for transaction in failed { transaction.runRollbackHooks() }
                    return ran
                } catch {
                    do {
                        try await session.run(Self.rollback())
                    } catch let rollbackError {
                        // SQLite may already have ended the transaction itself; nothing of it is kept either way.
                        self.logger.debug("rollback after a failed transaction", metadata: ["error": "\(rollbackError)"])
                    }
                    throw error
                }
            }
        } catch {
            // Nothing of this transaction was committed. A lone write gets the error; in a shared one, every
            // write that had not failed by itself gets a transaction of its own.
            for transaction in started.withLock({ $0 }) { transaction.runRollbackHooks() }
            if committing.load(ordering: .relaxed), let disk = error as? SQLiteError, disk.code & 0xFF == SQLITE_IOERR {
                let final = SQLiteError(
                    code: disk.code,
                    message:
                        "the database cannot make writes durable since a commit failed on the disk (\(disk.message)); restart the server")
                logger.critical(
                    "a commit failed on the disk: its writes fail, and every later write too until the server is restarted",
                    metadata: ["error": "\(disk)"])
                broken.withLock { $0 = $0 ?? final }
                checkpointer.halt()
                for write in writes { write.fail(final) }
                return []
            }
            guard shared, began.load(ordering: .relaxed) else {
                for write in writes { write.fail(error) }
                return []
            }
            if !(error is PartialWriteInSharedTransaction) {
                logger.warning("a shared write transaction failed; its writes run one by one", metadata: ["error": "\(error)"])
            }
            let rerun = sawUncommitted.withLock { $0 }
            var committed: [Transaction] = []
            for write in writes where !write.failedByItself || rerun.contains(ObjectIdentifier(write)) {
                write.reset()
                committed += await run([write], on: database)
            }
            return committed
        }
        for (write, _) in committed { write.commit() }
        return committed.map(\.transaction)
    }
}

/// A write of a shared transaction threw after it had changed rows.
struct PartialWriteInSharedTransaction: Error {}

/// A write waiting in (or running from) `SQLiteWriteQueue`, its result type erased.
protocol QueuedWrite: AnyObject, Sendable {
    var batchable: Bool { get }
    /// Runs the body in `transaction` and keeps its outcome; false when the body threw.
    func run(_ transaction: Transaction) async -> Bool
    /// Whether the body itself threw (as opposed to the transaction failing around it).
    var failedByItself: Bool { get }
    /// The transaction failed: forget a result the body produced (it was rolled back).
    func reset()
    /// The transaction failed around this write.
    func fail(_ error: any Error)
    /// The transaction committed: the result stands.
    func commit()
}

final class PendingWrite<R: Sendable>: QueuedWrite {
    private enum Outcome {
        case waiting
        /// The body returned; the result stands once the transaction commits.
        case produced(R)
        case committed(R)
        /// The body threw.
        case threw(any Error)
        /// The transaction failed around the write.
        case failed(any Error)
    }

    let batchable: Bool
    private let body: @Sendable (Transaction) async throws -> R
    private let outcome = Mutex<Outcome>(.waiting)

    init(batchable: Bool, body: @escaping @Sendable (Transaction) async throws -> R) {
        self.batchable = batchable
        self.body = body
    }

    func run(_ transaction: Transaction) async -> Bool {
        do {
            let result = try await body(transaction)
            outcome.withLock { $0 = .produced(result) }
            return true
        } catch {
            outcome.withLock { $0 = .threw(error) }
            return false
        }
    }

    var failedByItself: Bool {
        outcome.withLock {
            if case .threw = $0 { return true }
            return false
        }
    }

    func reset() { outcome.withLock { $0 = .waiting } }

    func fail(_ error: any Error) {
        outcome.withLock { outcome in
            if case .threw = outcome { return }
            outcome = .failed(error)
        }
    }

    func commit() {
        outcome.withLock { outcome in
            if case .produced(let result) = outcome { outcome = .committed(result) }
        }
    }

    /// The committed result, or the error of the body or of its transaction.
    func result() throws -> R {
        switch outcome.withLock({ $0 }) {
        case .committed(let result): return result
        case .threw(let error), .failed(let error): throw error
        // cannot trap: the writer answers a write only after its transaction ended
        case .waiting, .produced: preconditionFailure("a write was answered before its transaction ended")
        }
    }
}
