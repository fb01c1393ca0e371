import Logging
import NIOCore
import NIOPosix
import Synchronization
import VaporCSQLite

/// Keeps SQLite's WAL short without putting checkpoints (their page copies and `fsync`s) inside commits.
///
/// Every connection of the pool reports, after each commit, how many frames the WAL holds (a WAL hook, which
/// also turns SQLite's automatic checkpoint off). A thread of this checkpointer's own copies committed frames
/// back into the database file every `interval`, and more often as the WAL nears `restartFrames` (a PASSIVE
/// checkpoint: it waits for no reader or writer).
/// Copying beside a running writer never catches up with it, though, and only a WAL whose every frame is
/// back in the database file starts over from its beginning; so once the WAL holds `restartFrames`, the
/// writer calls `drain()` between two transactions and waits while the last frames are copied (the earlier
/// runs did most of the work). Its next transaction then starts the WAL over.
final class SQLiteCheckpointer: Sendable {
    /// Frames in the WAL after the latest commit of any connection of this process.
    let frames = Atomic<Int>(0)
    /// Commits of this process so far (the periodic run skips when none came since a complete checkpoint).
    let commits = Atomic<Int>(0)
    let restartFrames: Int
    private let interval: TimeAmount
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let loop: any EventLoop
    private let path: String
    private let logger: Logger
    private let state = Mutex<(connection: DirectSQLiteConnection?, next: Scheduled<Void>?, stopped: Bool, failures: Int, copiedUpTo: Int)>(
        (nil, nil, false, 0, 0))

    init(path: String, interval: TimeAmount = .milliseconds(50), restartFrames: Int = 10_000, logger: Logger) {
        self.path = path
        self.interval = interval
        self.restartFrames = restartFrames
        self.logger = logger
        loop = group.next()
        loop.execute { self.scheduleNext() }
    }

    /// The next periodic run: every `interval`, and every 5 ms once the WAL nears `restartFrames`, so that the
    /// writer's `drain` finds little left to copy and sync.
    private func scheduleNext() {
        let frames = frames.load(ordering: .relaxed)
        let delay = frames >= restartFrames * 3 / 4 ? .milliseconds(5) : interval
        state.withLock { state in
            guard !state.stopped else { return }
            state.next = loop.scheduleTask(in: delay) {
                let idle = self.state.withLock { $0.copiedUpTo } == self.commits.load(ordering: .relaxed)
                if !idle { _ = self.checkpoint() }
                self.scheduleNext()
            }
        }
    }

    /// Copies every frame it can back into the database file and waits for it; true when the WAL is then
    /// entirely in the database file (the next write transaction starts it over).
    func drain() async -> Bool {
        (try? await loop.submit { self.checkpoint() }.get()) ?? false
    }

    /// Stops the thread and closes its connection. Call once, after the last write.
    func stop() async {
        _ = try? await loop.submit {
            self.state.withLock { state in
                state.stopped = true
                state.next?.cancel()
                state.connection?.close()
                state.connection = nil
            }
        }.get()
        try? await group.shutdownGracefully()
    }

    /// Runs on the checkpointer's thread only.
    private func checkpoint() -> Bool {
        do {
            let connection = try state.withLock { state in
                if let connection = state.connection { return connection }
                let connection = try DirectSQLiteConnection(path: path, checkpointer: nil)
                state.connection = connection
                return connection
            }
            let commits = commits.load(ordering: .relaxed)
            let (log, copied) = try connection.checkpoint()
            let complete = copied >= log
            state.withLock { state in
                state.failures = 0
                if complete { state.copiedUpTo = commits }
            }
            return complete
        } catch {
            let failures = state.withLock { state in
                state.failures += 1
                return state.failures
            }
            // Logged once per run of failures (the WAL only grows meanwhile; reads and writes go on).
            if failures == 1 { logger.warning("WAL checkpoint failed; retrying", metadata: ["error": "\(error)"]) }
            return false
        }
    }
}
