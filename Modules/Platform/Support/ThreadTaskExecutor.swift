import NIOCore
import NIOPosix

/// A task executor with a thread of its own (one NIO event loop), for work that must not wait in the shared
/// concurrency pool behind everything else: a task started with it as its executor preference runs its
/// non-isolated code, and that of everything it awaits, on this thread.
final class ThreadTaskExecutor: TaskExecutor {
    private let group: MultiThreadedEventLoopGroup
    private let loop: any EventLoop

    init() {
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Stops the thread. Call once, after the last task using it finished.
    func shutdown() async {
        try? await group.shutdownGracefully()
    }
}
