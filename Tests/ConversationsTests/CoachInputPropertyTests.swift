import Contracts
import Foundation
import Platform
import TestSupport
import Testing

@testable import Conversations

/// Input never traps (docs/platform.md): what a person types to the coach — set commands, planning requests, any
/// text — ends in an answer or a clear error, never a crash. ("a inf minute workout" once stopped the process.)
@Suite struct CoachInputPropertyTests {
    static let setWords = ["@", "x", "*", "at", "for", "of", "with", "kg", "lbs", "reps", "rir", "rpe", "log", "did", "×", "times", "."]
    static let planWords = [
        "build", "me", "a", "day", "days", "routine", "minute", "minutes", "min", "hour", "hours", "and", "half", "workout", "push",
        "pull", "legs", "full", "body", "with", "dumbbells", "barbell", "per", "week", "program", "plan", "split",
    ]

    static func message(_ words: [String], using random: inout SeededRandomNumberGenerator) -> String {
        let message = (0..<Int.random(in: 0...9, using: &random)).map { _ in
            Int.random(in: 0..<3, using: &random) == 0
                ? HostileText.pick(HostileText.numbers, using: &random) : HostileText.pick(words, using: &random)
        }.joined(separator: HostileText.pick([" ", "", "  "], using: &random))
        return Int.random(in: 0..<6, using: &random) == 0 ? HostileText.mutate(message, using: &random) : message
    }

    /// 6,000 generated set commands: each is no command, or a set within the grammar's bounds whatever the
    /// planned reps it is resolved against.
    @Test func setCommandsStayWithinTheirBounds() {
        var random = SeededRandomNumberGenerator(seed: 4803)
        for _ in 0..<6000 {
            let text = Self.message(Self.setWords, using: &random)
            guard let command = SetCommandParser.parse(text) else { continue }
            let target = HostileText.pick([nil, 0, 1, 8, 30, 100, Int.max, Int.min], using: &random)
            guard let entry = command.resolved(targetReps: target) else { continue }
            #expect((0...100).contains(entry.reps), "\(text)")
            #expect(entry.weightKg.map { $0.isFinite && (0...1000).contains($0) } ?? true, "\(text)")
            #expect(entry.rir.map { (0...10).contains($0) } ?? true, "\(text)")
        }
    }

    /// 6,000 generated planning requests and answers to the coach's questions, read as the coach reads them
    /// (`MessageUnderstanding`, the request its slots make, an answer folded into it): days, minutes and the rest stay
    /// within what the planner takes.
    @Test func planningRequestsStayWithinTheirBounds() {
        var random = SeededRandomNumberGenerator(seed: 4804)
        for _ in 0..<6000 {
            let text = Self.message(Self.planWords, using: &random)
            let read = MessageUnderstanding.read(text)
            let asked = RuleBasedCoach.request(of: read)
            for request in [asked, RuleBasedCoach.folding(read.slots, text: text, into: PlanRequest())] {
                #expect(request.days.map { (1...7).contains($0) } ?? true, "\(text)")
                #expect(request.minutes.map { (10...240).contains($0) } ?? true, "\(text)")
            }
        }
        #expect(RuleBasedCoach.request(of: MessageUnderstanding.read("build me a inf minute full body routine")).minutes == nil)
        #expect(
            RuleBasedCoach.request(of: MessageUnderstanding.read("build me a 99999999999999999999 minute full body routine")).minutes == nil
        )
    }

    /// 250 generated messages through the whole rule-based coach on each engine, in a workout and out of one:
    /// every stream ends, and never in `INTERNAL`.
    @Test(arguments: TestDatabases.engines)
    func everyMessageGetsAnAnswerOrAClearError(engine: SQLEngine) async throws {
        try await CoachHarness.with(engine) { h in
            _ = await h.startWorkout("u2")
            var random = SeededRandomNumberGenerator(seed: 4805)
            for index in 0..<250 {
                let words = index % 2 == 0 ? Self.setWords : Self.planWords
                let text = Self.message(words + ["how", "is", "my", "bench", "swap", "done", "next", "skip"], using: &random)
                let events = await h.send(index % 3 == 0 ? "u1" : "u2", text)
                #expect(events.errorCode != "INTERNAL", "\(text): \(events)")
                #expect(["message_end", "error"].contains(events.types.last ?? ""), "\(text): \(events.types)")
            }
        }
    }
}
