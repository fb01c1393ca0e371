/// Recording work that is already done (a job's completion, a sent mail): a failure to record it must never
/// count as a failed attempt, which would redo the work or mark it failed.
public enum Bookkeeping {
    /// Runs `record` at once, then after 0.1 s and after 1 s (on `clock`) while it throws. Returns its result, or
    /// nil when every try failed (each failure is passed to `failed`); the caller's lease then expires as for a
    /// worker that died.
    public static func retriedBriefly<T: Sendable>(
        clock: any Clock<Duration> = ContinuousClock(), _ record: () async throws -> T, failed: (any Error) -> Void
    ) async -> T? {
        for pause in [0, 100, 1000] {
            if pause > 0 { try? await clock.sleep(for: .milliseconds(pause)) }
            do {
                return try await record()
            } catch {
                failed(error)
            }
        }
        return nil
    }
}
