/// Wall-clock timing for the benchmarks under `Tools/`.
public enum Latency {
    /// How long `body` took, in seconds.
    public static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return seconds(ContinuousClock.now - start)
    }

    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// `callers` concurrent tasks each making `calls` calls of `body`; answers the p50 and p99 latency in ms.
    public static func percentiles(callers: Int, calls: Int, _ body: @escaping @Sendable () async throws -> Void) async throws -> (
        p50: Double, p99: Double
    ) {
        let samples = try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<callers {
                group.addTask {
                    var mine: [Double] = []
                    for _ in 0..<calls { mine.append(try await time(body)) }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }.sorted()
        }
        return (samples[samples.count / 2] * 1000, samples[samples.count * 99 / 100] * 1000)
    }
}
