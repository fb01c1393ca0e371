import Conversations
import Foundation

// How long the coach takes to understand a message: building the model from the bundled phrasing table (what a
// process pays once, at the first message), and reading messages (what every message pays). Usage:
// understanding-bench [rounds]; every phrasing of the table is read `rounds` times (default 20).
let rounds = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let clock = ContinuousClock()
var rows: [Phrasing] = []
let loading = try clock.measure { rows = try Phrasing.bundled() }
let train = rows.filter { $0.part == .train }
var builds: [Double] = []
var model = MessageUnderstanding(training: train)
for _ in 0..<5 {
    builds.append(seconds(clock.measure { model = MessageUnderstanding(training: train) }))
}
print(String(format: "table: %d phrasings read in %.1f ms", rows.count, seconds(loading) * 1000))
print(
    String(
        format: "model from %d train rows: %.1f ms (best of 5), %.1f ms (worst)", train.count, (builds.min() ?? 0) * 1000,
        (builds.max() ?? 0) * 1000))

// Warm up, then time each message on its own.
for row in rows { _ = model.read(row.text) }
var samples: [Double] = []
samples.reserveCapacity(rows.count * rounds)
var byRow = [[Double]](repeating: [], count: rows.count)
for _ in 0..<rounds {
    for (index, row) in rows.enumerated() {
        let time = seconds(clock.measure { _ = model.read(row.text) })
        samples.append(time)
        byRow[index].append(time)
    }
}
samples.sort()
// The slowest phrasing by its median over the rounds: a slow message, not a slow moment of the machine.
let medians = byRow.map { $0.sorted()[$0.count / 2] }
if let slowest = medians.indices.max(by: { medians[$0] < medians[$1] }) {
    print(String(format: "slowest phrasing (median of %d reads): %.1f µs, \"%@\"", rounds, medians[slowest] * 1e6, rows[slowest].text))
}
let mean = samples.reduce(0, +) / Double(max(1, samples.count))
func percentile(_ sorted: [Double], _ percent: Int) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, sorted.count * percent / 100)]
}
print(
    String(
        format: "read: %d messages, mean %.1f µs, p50 %.1f µs, p99 %.1f µs, max %.1f µs", samples.count, mean * 1e6,
        percentile(samples, 50) * 1e6, percentile(samples, 99) * 1e6, (samples.last ?? 0) * 1e6))
let long = String(repeating: "swap my bench for incline dumbbell press, no barbell, 3 days a week ", count: 60)
let longTime = seconds(clock.measure { for _ in 0..<100 { _ = model.read(long) } }) / 100
print(String(format: "read of a %d-character message: %.1f µs", long.count, longTime * 1e6))
