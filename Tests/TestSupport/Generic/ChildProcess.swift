import Foundation
import Glibc
import Synchronization

/// A child process for tests (a local SMTP server, a reference implementation in Python), started with
/// `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux its `run()` now and then reads past a `dirent` while counting the
/// open descriptors and crashes the whole test process (swift-corelibs-foundation #5472, fixed after Swift
/// 6.3.1; seen in CI, more likely the more descriptors a test run holds open).
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    /// Writes to the child's standard input (nil unless asked for).
    public let input: FileHandle?
    /// Reads the child's standard output (nil unless asked for).
    public let output: FileHandle?
    private let status = Mutex<Int32?>(nil)

    /// Our pipes are made close-on-exec under this lock, so a child spawned meanwhile by another test does not
    /// inherit (and keep open) the end of a pipe that is not its own.
    private static let spawning = Mutex(())

    /// Starts `arguments[0]` (looked up in `PATH`) with the rest as its arguments. Standard input and output
    /// are pipes when asked for, else `/dev/null`; standard error is `/dev/null`.
    public init(_ arguments: [String], input wantsInput: Bool = false, output wantsOutput: Bool = false) throws {
        precondition(!arguments.isEmpty)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let arguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }

        let (spawned, parentInput, parentOutput) = try Self.spawning.withLock { _ -> (pid_t, Int32?, Int32?) in
            var opened: [Int32] = []
            func pipeEnds() throws -> (read: Int32, write: Int32) {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw ChildProcessError("pipe: \(String(cString: strerror(errno)))") }
                for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
                opened += ends
                return (ends[0], ends[1])
            }
            /// Gives the child `descriptor` from a pipe (returning the parent's end) or from /dev/null.
            func connect(_ descriptor: Int32, piped: Bool, childReads: Bool) throws -> Int32? {
                guard piped else {
                    posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", childReads ? O_RDONLY : O_WRONLY, 0)
                    return nil
                }
                let ends = try pipeEnds()
                posix_spawn_file_actions_adddup2(&actions, childReads ? ends.read : ends.write, descriptor)
                return childReads ? ends.write : ends.read
            }
            do {
                let inputEnd = try connect(0, piped: wantsInput, childReads: true)
                let outputEnd = try connect(1, piped: wantsOutput, childReads: false)
                _ = try connect(2, piped: false, childReads: false)
                var pid: pid_t = 0
                let result = posix_spawnp(&pid, arguments[0]!, &actions, nil, arguments, environ)
                guard result == 0 else {
                    throw ChildProcessError("posix_spawnp \(String(cString: arguments[0]!)): \(String(cString: strerror(result)))")
                }
                // The child's ends are its own now.
                for end in opened where end != inputEnd && end != outputEnd { close(end) }
                return (pid, inputEnd, outputEnd)
            } catch {
                for end in opened { close(end) }
                throw error
            }
        }
        pid = spawned
        input = parentInput.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        output = parentOutput.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    /// Runs `arguments` to its end; whether it exited 0 (false if it could not start).
    public static func succeeds(_ arguments: [String]) -> Bool {
        guard let child = try? ChildProcess(arguments) else { return false }
        return child.waitUntilExit() == 0
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Waits for the child to end; its exit code, or 128 plus the signal that ended it.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        reap(blocking: true) ?? -1
    }

    /// Asks the child to stop (SIGTERM).
    public func terminate() {
        if isRunning { kill(pid, SIGTERM) }
    }

    private func reap(blocking: Bool) -> Int32? {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &raw, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
            guard result == pid else { return nil }
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros, spelled out.
            let signal = raw & 0x7f
            status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
            return status
        }
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
