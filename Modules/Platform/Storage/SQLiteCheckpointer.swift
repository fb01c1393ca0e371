import Logging
import NIOCore
import NIOPosix
import Synchronization
import VaporCSQLite

/// Keeps SQLite's WAL short without putting checkpoints (their page copies and `fsync`s) inside commits.
///
/// Every connection of the pool reports, after each commit, how many frames the WAL holds (a WAL hook, which
/// also turns SQLite's automatic checkpoint off). A thread of this checkpointer's own copies committed frames
/// back into the database file (a PASSIVE checkpoint: it waits for no reader or writer) once the WAL grew by
/// `step` frames since its last run, or `interval` after that run when anything was committed since; it looks
/// every `poll` while something is left to copy, and once a run copied the whole WAL it waits for the next
/// commit instead (an idle process is not woken every `poll`). Each run ends with an `fsync` of the database
/// file, so runs are counted by WAL growth rather than by the clock: a trickle of writes costs one run a
/// second, not one every few milliseconds, and under load a run copies each hot page once for many commits.
/// Copying beside a running writer never catches up with it, though, and only a WAL whose every frame is
/// back in the database file starts over from its beginning; so once the WAL holds `restartFrames`, the
/// writer calls `drain()` between two transactions and waits while the last frames are copied (from three
/// quarters of `restartFrames` on, runs look every 5 ms and come every tenth of `step`, so few are left). Its
/// next transaction then starts the WAL over.
final class SQLiteCheckpointer: Sendable {
    /// Frames in the WAL after the latest commit of any connection of this process.
    let frames = Atomic<Int>(0)
    /// Commits of this process so far (the periodic run skips when none came since a complete checkpoint).
    let commits = Atomic<Int>(0)
    let restartFrames: Int
    /// WAL growth, in frames, that calls for a run.
    let step: Int
    /// Runs so far (periodic and drains).
    var runCount: Int { runs.load(ordering: .relaxed) }
    private let runs = Atomic<Int>(0)
    /// Periodic looks so far (whether or not they found a run called for).
    var lookCount: Int { looks.load(ordering: .relaxed) }
    private let looks = Atomic<Int>(0)
    /// Set once a commit failed on the disk (`SQLiteWriteQueue.failure`): from then on nothing of the WAL is copied into the
    /// database file, and no connection is closed (the last one to close would checkpoint and delete the WAL).
    /// Linux may have dropped the failed pages, so the WAL may hold stale blocks where frames were written; left
    /// alone, SQLite's recovery at the next start checks every frame's checksum and stops at the first bad one.
    var halted: Bool { isHalted.load(ordering: .sequentiallyConsistent) }
    private let isHalted = Atomic<Bool>(false)

    /// Stops copying frames for good (see `halted`).
    func halt() {
        isHalted.store(true, ordering: .sequentiallyConsistent)
    }

    /// Set while nothing is left to copy and the thread waits for a commit instead of looking every `poll`;
    /// the commit that finds it set clears it and schedules the next look.
    private let idle = Atomic<Bool>(false)
    private let poll: TimeAmount
    private let interval: TimeAmount
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let loop: any EventLoop
    private let path: String
    private let logger: Logger
    private struct State {
        var connection: DirectSQLiteConnection?
        var next: Scheduled<Void>?
        var stopped = false
        var failures = 0
        /// `commits` when a run last copied the whole WAL.
        var copiedUpTo = 0
        /// `frames` and the time at the last run.
        var framesAtRun = 0
        var lastRun = NIODeadline.now()
    }
    private let state = Mutex(State())

    init(
        path: String, poll: TimeAmount = .milliseconds(20), interval: TimeAmount = .seconds(1), restartFrames: Int = 10_000,
        logger: Logger
    ) {
        self.path = path
        self.poll = poll
        self.interval = interval
        self.restartFrames = restartFrames
        self.step = max(1, restartFrames / 10)
        self.logger = logger
        loop = group.next()
        loop.execute { self.scheduleNext() }
    }

    /// A connection committed, leaving `frames` in the WAL (SQLite's WAL hook, on the committing thread).
    func committed(frames: Int) {
        self.frames.store(frames, ordering: .relaxed)
        commits.add(1, ordering: .sequentiallyConsistent)
        // A stopped checkpointer takes no more looks (there are no commits after the last write, but a stray one
        // must not reach a stopped thread).
        if idle.load(ordering: .sequentiallyConsistent),
            idle.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged,
            !state.withLock({ $0.stopped })
        {
            loop.execute { self.scheduleNext() }
        }
    }

    /// Whether a run copied the whole WAL and nothing was committed since.
    private func allCopied() -> Bool {
        let commits = commits.load(ordering: .sequentiallyConsistent)
        return state.withLock { $0.copiedUpTo == commits }
    }

    /// On the checkpointer's thread: the next look, or none until a commit while nothing is left to copy.
    private func scheduleNext() {
        if allCopied() {
            idle.store(true, ordering: .sequentiallyConsistent)
            // A commit counted before `idle` was set did not see it: look again, and go on unless such a commit
            // came (then take the idle flag back, unless that commit already did and scheduled the next look).
            guard !allCopied(), idle.compareExchange(expected: true, desired: false, ordering: .sequentiallyConsistent).exchanged else {
                return
            }
        }
        let nearRestart = frames.load(ordering: .relaxed) >= restartFrames * 3 / 4
        state.withLock { state in
            guard !state.stopped else { return }
            state.next = loop.scheduleTask(in: nearRestart ? .milliseconds(5) : poll) {
                self.looks.add(1, ordering: .relaxed)
                if self.due() { _ = self.checkpoint() }
                self.scheduleNext()
            }
        }
    }

    /// Whether the periodic look finds a run called for.
    private func due() -> Bool {
        let commits = commits.load(ordering: .relaxed)
        let frames = frames.load(ordering: .relaxed)
        return state.withLock { state in
            guard state.copiedUpTo != commits else { return false }  // nothing committed since a complete run
            // A WAL that started over counts from its beginning. Near the restart length the runs come ten
            // times as often, so that the writer's drain finds little left to copy (its wait is a commit's).
            let grown = frames >= state.framesAtRun ? frames - state.framesAtRun : frames
            let nearRestart = frames >= restartFrames * 3 / 4
            return grown >= (nearRestart ? max(1, step / 10) : step) || NIODeadline.now() - state.lastRun >= interval
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
                if !self.halted { state.connection?.close() }
                state.connection = nil
            }
        }.get()
        try? await group.shutdownGracefully()
    }

    /// Runs on the checkpointer's thread only.
    private func checkpoint() -> Bool {
        guard !halted else { return false }
        runs.add(1, ordering: .relaxed)
        do {
            let connection = try state.withLock { state -> DirectSQLiteConnection in
                if let connection = state.connection { return connection }
                let connection = try DirectSQLiteConnection(path: path, checkpointer: nil)
                state.connection = connection
                return connection
            }
            let commits = commits.load(ordering: .relaxed)
            let frames = frames.load(ordering: .relaxed)
            let (log, copied) = try connection.checkpoint()
            let complete = copied >= log
            state.withLock { state in
                state.failures = 0
                state.framesAtRun = frames
                state.lastRun = .now()
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
