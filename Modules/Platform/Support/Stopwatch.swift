/// Reads an injected duration clock as the time passed since the stopwatch was made. Code that holds an
/// `any Clock<Duration>` cannot keep its instants and subtract them (their type is erased); readings of a
/// stopwatch are plain durations it can keep, compare and subtract.
public struct Stopwatch: Sendable {
    private let reading: @Sendable () -> Duration

    /// Starts at zero on `clock`.
    public init(_ clock: any Clock<Duration>) {
        self.reading = Self.reading(clock)
    }

    /// The time passed on the clock since the stopwatch was made.
    public var elapsed: Duration { reading() }

    private static func reading<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
