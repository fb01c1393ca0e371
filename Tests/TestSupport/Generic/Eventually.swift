import Synchronization

/// What a test waited for in vain.
public struct NeverHappened: Error, CustomStringConvertible {
    public var description: String
}

/// Returns once `condition` holds, looking again every millisecond: for other tasks to get somewhere (a loop to
/// reach its sleep, a row to change), never for time to pass. Throws after `limit` (real time), so that a test
/// whose awaited state never comes fails instead of hanging.
public func eventually(
    _ what: @autoclosure () -> String, within limit: Duration = .seconds(30), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw NeverHappened(description: what()) }
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// The task's result, once it has finished; throws `NeverHappened` if it has not within `limit` (real time).
public func finished<T: Sendable>(
    _ task: Task<T, any Error>, _ what: @autoclosure () -> String = "the task finished", within limit: Duration = .seconds(30)
) async throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    Task {
        let ended = await task.result
        result.withLock { $0 = ended }
    }
    try await eventually(what(), within: limit) { result.withLock { $0 != nil } }
    return try result.withLock { $0! }.get()
}

/// The task's value, once it has finished; throws `NeverHappened` if it has not within `limit` (real time).
public func finished<T: Sendable>(
    _ task: Task<T, Never>, _ what: @autoclosure () -> String = "the task finished", within limit: Duration = .seconds(30)
) async throws -> T {
    let result = Mutex<T?>(nil)
    Task {
        let value = await task.value
        result.withLock { $0 = value }
    }
    try await eventually(what(), within: limit) { result.withLock { $0 != nil } }
    return result.withLock { $0! }
}
