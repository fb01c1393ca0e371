import Logging
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

    /// Set while the thread is parked (nothing left to copy) or about to be; the commit that finds it set wakes it.
    private let parkedFlag = Atomic<Bool>(false)
    private let poll: Duration
    private let interval: Duration
    /// The clock the looks are waited out on and the interval is read from (tests drive it).
    private let clock: any Clock<Duration>
    private let stopwatch: Stopwatch
    private let executor = ThreadTaskExecutor()
    private let loopTask = Mutex<Task<Void, Never>?>(nil)
    private let path: String
    private let logger: Logger
    private struct State {
        var stopped = false
        /// The thread, parked until a commit while nothing is left to copy.
        var parked: CheckedContinuation<Void, Never>?
        /// `commits` when a run last copied the whole WAL.
        var copiedUpTo = 0
        /// `frames` and the time (`stopwatch`) at the last run.
        var framesAtRun = 0
        var lastRun: Duration = .zero
    }
    private let state = Mutex(State())
    /// The checkpoint connection, used by one run at a time (the thread's, or the writer's drain).
    private struct Runner {
        var connection: DirectSQLiteConnection?
        var failures = 0
    }
    private let runner = Mutex(Runner())

    init(
        path: String, poll: Duration = .milliseconds(20), interval: Duration = .seconds(1), restartFrames: Int = 10_000,
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger
    ) {
        self.path = path
        self.poll = poll
        self.interval = interval
        self.clock = clock
        self.stopwatch = Stopwatch(clock)
        self.restartFrames = restartFrames
        self.step = max(1, restartFrames / 10)
        self.logger = logger
        let task = Task(executorPreference: executor) { [self] in await self.lookLoop() }
        loopTask.withLock { $0 = task }
    }

    /// A connection committed, leaving `frames` in the WAL (SQLite's WAL hook, on the committing thread).
    func committed(frames: Int) {
        self.frames.store(frames, ordering: .relaxed)
        commits.add(1, ordering: .sequentiallyConsistent)
        // The thread sets the flag before it reads `commits` to decide to park; this commit counted itself before
        // reading the flag: one of the two sees the other (both sequentially consistent).
        guard parkedFlag.load(ordering: .sequentiallyConsistent) else { return }
        let parked = state.withLock { state in
            parkedFlag.store(false, ordering: .sequentiallyConsistent)
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume()
    }

    /// Whether the thread is parked, waiting for a commit (tests wait for it).
    var isParked: Bool { state.withLock { $0.parked != nil } }

    /// The thread: looks every `poll` (5 ms near the restart length) and runs when one is due; parks while a run
    /// copied the whole WAL and nothing was committed since.
    private func lookLoop() async {
        while await parkWhileAllCopied() {
            let wait = frames.load(ordering: .relaxed) >= restartFrames * 3 / 4 ? Duration.milliseconds(5) : poll
            do {
                try await clock.sleep(for: wait)
            } catch {
                return  // stopped
            }
            guard !state.withLock({ $0.stopped }) else { return }
            looks.add(1, ordering: .relaxed)
            if due() { _ = checkpoint() }
        }
    }

    /// Returns at once when something is left to copy, else once a commit comes; false once stopped.
    private func parkWhileAllCopied() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let goOn = state.withLock { state -> Bool in
                if state.stopped { return true }
                parkedFlag.store(true, ordering: .sequentiallyConsistent)
                guard state.copiedUpTo == commits.load(ordering: .sequentiallyConsistent) else {
                    parkedFlag.store(false, ordering: .sequentiallyConsistent)
                    return true
                }
                state.parked = continuation
                return false
            }
            if goOn { continuation.resume() }
        }
        return !state.withLock { $0.stopped }
    }

    /// Whether the periodic look finds a run called for.
    private func due() -> Bool {
        let commits = commits.load(ordering: .relaxed)
        let frames = frames.load(ordering: .relaxed)
        let now = stopwatch.elapsed
        return state.withLock { state in
            guard state.copiedUpTo != commits else { return false }  // nothing committed since a complete run
            // A WAL that started over counts from its beginning. Near the restart length the runs come ten
            // times as often, so that the writer's drain finds little left to copy (its wait is a commit's).
            let grown = frames >= state.framesAtRun ? frames - state.framesAtRun : frames
            let nearRestart = frames >= restartFrames * 3 / 4
            return grown >= (nearRestart ? max(1, step / 10) : step) || now - state.lastRun >= interval
        }
    }

    /// Copies every frame it can back into the database file and waits for it; true when the WAL is then
    /// entirely in the database file (the next write transaction starts it over). Runs on the caller's thread
    /// (the writer's), after any run of the checkpointer's own.
    func drain() async -> Bool {
        checkpoint()
    }

    /// Stops the thread and closes its connection. Call once, after the last write.
    func stop() async {
        let parked = state.withLock { state in
            state.stopped = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume()
        let task = loopTask.withLock { $0 }
        task?.cancel()
        await task?.value
        runner.withLock { runner in
            if !halted { runner.connection?.close() }
            runner.connection = nil
        }
        await executor.shutdown()
    }

    /// One run, on the calling thread; runs never overlap.
    private func checkpoint() -> Bool {
        guard !halted else { return false }
        return runner.withLock { runner in
            guard !halted else { return false }
            runs.add(1, ordering: .relaxed)
            do {
                let connection = try runner.connection ?? DirectSQLiteConnection(path: path, checkpointer: nil)
                runner.connection = connection
                let commits = commits.load(ordering: .relaxed)
                let frames = frames.load(ordering: .relaxed)
                let (log, copied) = try connection.checkpoint()
                let complete = copied >= log
                runner.failures = 0
                state.withLock { state in
                    state.framesAtRun = frames
                    state.lastRun = stopwatch.elapsed
                    if complete { state.copiedUpTo = commits }
                }
                return complete
            } catch {
                runner.failures += 1
                // Logged once per run of failures (the WAL only grows meanwhile; reads and writes go on).
                if runner.failures == 1 { logger.warning("WAL checkpoint failed; retrying", metadata: ["error": "\(error)"]) }
                return false
            }
        }
    }
}
