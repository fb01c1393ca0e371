import Glibc
import Logging
import Synchronization
import VaporCSQLite

// `struct stat` is declared by more than one C module; a whole-module (release) build may take it from
// CDispatch (loaded through Foundation by another file of the module), and member import visibility then wants
// that module imported here as well as Glibc.
#if canImport(CDispatch)
    import CDispatch
#endif

/// Makes the writer's commits durable beside it, and lets their writes be answered only once they are.
///
/// The writer commits with `synchronous = NORMAL`: the commit appends its frames to the WAL but does not wait
/// for the disk. This syncer, on a thread of its own, then `fdatasync`s the WAL and only afterwards answers the
/// writes of every batch that had committed before that `fdatasync` began. Meanwhile the writer goes on with the
/// next batch instead of waiting for the disk, and one `fdatasync` covers every batch committed while the
/// previous one ran. An answered write is on disk exactly as with `synchronous = FULL` (which would `fsync` inside
/// each commit, with the writer waiting); only readers may see a commit a moment before it is durable, and a
/// power cut in that moment loses it before its writer was answered, so the client retries it.
///
/// A failed `fdatasync` is final, as in PostgreSQL: Linux may drop the failed pages' dirty state, so a later
/// `fdatasync` can succeed without them ever reaching the disk, and WAL frames are checksummed in a chain, so
/// recovery after a crash would drop every commit after the hole, answered ones included. From then on no
/// write is answered as done (the writer refuses them, see `failure`) and `/ready` fails, until the process is
/// restarted and SQLite recovers the database from what the disk holds.
final class SQLiteWALSync: Sendable {
    /// Answers waiting for a sync, each with the number of commits it waits for.
    private struct Waiting {
        let commits: Int
        let answer: @Sendable ((any Error)?) -> Void
    }

    /// The answers waiting for a sync; the syncer task parks while there are none.
    private let queue = SingleConsumerQueue<Waiting>()
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// Commits of the writer so far. Counted once the commit's frames are written, so a sync begun after
    /// reading the count covers them.
    private let commits = Atomic<Int>(0)
    /// Called before each `fdatasync` (tests hold or fail syncs with it).
    private let beforeSync = Mutex<(@Sendable () async throws -> Void)?>(nil)
    /// Commits known to be on disk (every commit counted before the latest successful sync began).
    private let synced = Atomic<Int>(0)
    private let syncs = Atomic<Int>(0)
    /// The error of the first failed sync; set once, never cleared.
    private let broken = Mutex<SQLiteError?>(nil)
    private let file: WALFile
    private let executor = ThreadTaskExecutor()
    private let logger: Logger

    /// Called once, when a sync fails (the WAL must then be left as it is for recovery).
    private let onFailure: @Sendable () -> Void

    /// `path`: the WAL file (the database file's path and `-wal`).
    init(path: String, logger: Logger, onFailure: @escaping @Sendable () -> Void = {}) {
        file = WALFile(path: path)
        self.logger = logger
        self.onFailure = onFailure
        let syncer = Task(executorPreference: executor) { [self] in await self.syncLoop() }
        task.withLock { $0 = syncer }
    }

    /// The writer opened a connection (call before its first commit): SQLite may have replaced the WAL file
    /// while the writer had none open, so the next sync looks the file up again.
    func connectionOpened() {
        file.mayHaveBeenReplaced()
    }

    /// The writer committed a transaction (call before `answer` for its writes, from the writer only).
    func committed() {
        commits.add(1, ordering: .sequentiallyConsistent)
    }

    /// Calls `answer` once every commit counted so far is on disk, with nil, or with the error that kept it
    /// from being made durable.
    func answer(_ answer: @escaping @Sendable ((any Error)?) -> Void) {
        guard queue.append(Waiting(commits: commits.load(ordering: .sequentiallyConsistent), answer: answer)) else {
            answer(SQLiteError(code: SQLITE_MISUSE, message: "the database is closed"))
            return
        }
    }

    /// Commits the writer made so far, and how many of them are known to be on disk.
    var progress: (committed: Int, synced: Int) {
        (commits.load(ordering: .sequentiallyConsistent), synced.load(ordering: .relaxed))
    }

    /// Why writes can no longer be made durable (a sync failed), or nil.
    var failure: SQLiteError? { broken.withLock { $0 } }

    /// `fdatasync` calls so far.
    var syncCount: Int { syncs.load(ordering: .relaxed) }

    /// Runs `hook` before each sync from now on; a hook that throws fails the sync.
    func beforeEachSync(_ hook: (@Sendable () async throws -> Void)?) {
        beforeSync.withLock { $0 = hook }
    }

    /// Syncs and answers what waits, then stops the thread. Call once, after the writer's last answer.
    func close() async {
        queue.close()
        await task.withLock { $0 }?.value
        file.close()
        await executor.shutdown()
    }

    private func syncLoop() async {
        while let waiting = await queue.next({ queued in
            defer { queued = [] }
            return queued
        }) {
            let needed = waiting.map(\.commits).max() ?? 0
            var failure: (any Error)? = self.failure
            if failure == nil, synced.load(ordering: .relaxed) < needed {
                // Every commit counted by now was written to the WAL before this sync begins.
                let upTo = commits.load(ordering: .sequentiallyConsistent)
                do {
                    try await beforeSync.withLock({ $0 })?()
                    syncs.add(1, ordering: .relaxed)
                    try file.sync()
                    synced.store(upTo, ordering: .relaxed)
                } catch let error as WALFile.LookupFailure {
                    // Nothing was lost (no dirty page was given up): the writes waiting fail, and the next sync
                    // looks the file up again.
                    logger.error(
                        "the WAL could not be opened to sync it: the writes waiting for it fail", metadata: ["error": "\(error.error)"])
                    failure = SQLiteError(
                        code: SQLITE_IOERR, message: "the database could not make this write durable (\(error.error.message))")
                } catch {
                    logger.critical(
                        "the WAL could not be synced to disk: the writes waiting for it fail, and every later write too until the server is restarted",
                        metadata: ["error": "\(error)"])
                    let final = SQLiteError(
                        code: SQLITE_IOERR,
                        message: "the database cannot make writes durable since a sync of its WAL failed (\(error)); restart the server")
                    broken.withLock { $0 = $0 ?? final }
                    onFailure()
                    failure = final
                }
            }
            // Commits already on disk before a failure are still answered as done.
            let synced = self.synced.load(ordering: .relaxed)
            for entry in waiting { entry.answer(entry.commits <= synced ? nil : failure) }
        }
    }
}

/// A descriptor of SQLite's WAL file of our own, to `fdatasync` it (an `fdatasync` flushes the file, whatever
/// descriptor it is called on). Should the file be replaced (SQLite deletes the WAL when its last connection
/// closes, after copying all of it into the database file), the new one is opened.
///
/// The path is looked up only when the file may have been replaced, not before every sync: SQLite cannot
/// replace the WAL while the writer's connection is open, and a `stat` per sync is not free. The kernel then
/// gives the file's next write a fine-grained modification time, so on ext4 every `fdatasync` also had to
/// write the file's inode (a second disk write per sync).
final class WALFile: @unchecked Sendable {
    let path: String
    /// Set from any thread when the file at `path` may no longer be the one open (with none open yet, it is
    /// looked up anyway).
    private let lookUp = Atomic<Bool>(false)
    private var descriptor: Int32 = -1
    private var device: UInt64 = 0
    private var inode: UInt64 = 0
    /// Times the file was opened (a replaced file is opened again).
    private(set) var opens = 0

    init(path: String) { self.path = path }

    deinit { close() }

    /// The next `sync` looks the path up again (and opens the file there if it is another one).
    func mayHaveBeenReplaced() {
        lookUp.store(true, ordering: .sequentiallyConsistent)
    }

    /// The file could not be looked up or opened (or its directory flushed): unlike a failed `fdatasync`, no
    /// written data was given up, so the next sync tries again.
    struct LookupFailure: Error {
        let error: SQLiteError
    }

    /// Flushes the file's written data to disk. Used by one thread at a time. Throws `LookupFailure` when the
    /// file could not be opened, any other error when the `fdatasync` itself failed.
    func sync() throws {
        if descriptor < 0 || lookUp.exchange(false, ordering: .sequentiallyConsistent) {
            do {
                try openIfReplaced()
            } catch let error as SQLiteError {
                mayHaveBeenReplaced()
                throw LookupFailure(error: error)
            }
        }
        guard fdatasync(descriptor) == 0 else { throw Self.failure("fdatasync", path) }
    }

    /// Opens the file at `path` unless it is the one open.
    private func openIfReplaced() throws {
        var status = stat()
        guard stat(path, &status) == 0 else { throw Self.failure("stat", path) }
        if descriptor < 0 || UInt64(status.st_dev) != device || UInt64(status.st_ino) != inode {
            close()
            let opened = open(path, O_RDONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Self.failure("open", path) }
            guard fstat(opened, &status) == 0 else {
                let error = Self.failure("fstat", path)
                _ = Glibc.close(opened)
                throw error
            }
            // A file created since the directory was last flushed needs its directory entry on disk too (before
            // the file is taken as open, so a failed flush is tried again with the next sync).
            let directory = path.lastIndex(of: "/").map { String(path[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
            let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if directoryDescriptor >= 0 {
                defer { _ = Glibc.close(directoryDescriptor) }
                // EINVAL: a file system that cannot flush a directory this way (PostgreSQL ignores it too).
                guard fsync(directoryDescriptor) == 0 || errno == EINVAL else {
                    let error = Self.failure("fsync", directory)
                    _ = Glibc.close(opened)
                    throw error
                }
            }
            descriptor = opened
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            opens += 1
        }
    }

    func close() {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    private static func failure(_ call: String, _ path: String) -> SQLiteError {
        SQLiteError(code: SQLITE_IOERR, message: "\(call) \(path): \(String(cString: strerror(errno)))")
    }
}
