import Foundation
import Synchronization

/// Progress of a long command (an import, a rebuild) for the person running it: on a terminal one line redrawn in
/// place with a bar, the rate and the time left; otherwise (a log, a pipe) a plain line at each tenth done, so
/// logs stay readable. Written to standard error, so the command's output stays clean.
public final class ProgressReport: Sendable {
    private let label: String
    private let unit: String
    private let terminal: Bool
    private let write: @Sendable (String) -> Void
    private let started: ContinuousClock.Instant
    private let state = Mutex((lastDraw: ContinuousClock.Instant?.none, lastTenth: -1))

    public init(
        label: String, unit: String, terminal: Bool = isatty(STDERR_FILENO) == 1,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.label = label
        self.unit = unit
        self.terminal = terminal
        self.write = write
        self.started = ContinuousClock.now
    }

    /// `done` of `total` so far.
    public func update(_ done: Int, of total: Int) {
        let now = ContinuousClock.now
        let elapsed = now - started
        let line: String? = state.withLock { state in
            if terminal {
                // At most ten redraws a second, and always the last.
                if let last = state.lastDraw, now - last < .milliseconds(100), done < total { return nil }
                state.lastDraw = now
                return "\r" + Self.line(label: label, unit: unit, done: done, total: total, elapsed: elapsed, bar: true) + "\u{1B}[K"
            }
            let tenth = total > 0 ? done * 10 / total : 10
            guard tenth > state.lastTenth else { return nil }
            state.lastTenth = tenth
            return Self.line(label: label, unit: unit, done: done, total: total, elapsed: elapsed, bar: false) + "\n"
        }
        if let line { write(line) }
    }

    /// Ends the terminal's redrawn line.
    public func finish() {
        if terminal { write("\n") }
    }

    /// `import [##########----------] 50% 750/1500 workouts  1234/s  ETA 1s` (the bar only on a terminal).
    static func line(label: String, unit: String, done: Int, total: Int, elapsed: Duration, bar: Bool) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        var parts = [label]
        if bar {
            let filled = Int(saturating: (fraction * 20).rounded(.down))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "]")
        }
        parts.append("\(Int(saturating: (fraction * 100).rounded(.down)))%")
        parts.append("\(done)/\(total) \(unit)")
        if rate > 0 {
            parts.append(String(format: "%.0f/s", rate))
            if done < total { parts.append("ETA \(Int(saturating: (Double(total - done) / rate).rounded(.up)))s") }
        }
        return parts.joined(separator: " ")
    }
}
