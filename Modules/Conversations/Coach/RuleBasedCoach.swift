import Contracts
import Foundation
import Platform

/// The coach that needs no network and no model (the default): it recognises what a message asks for and answers
/// through the same tools a language model would call, from the user's own data and the catalog. What it cannot
/// recognise gets a list of what it can do, never a dead end.
public struct RuleBasedCoach: CoachModel {
    public var name: String { "rules" }

    public init() {}

    public func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let lowered = turn.message.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if let subject = ProgressQuestion.subject(of: lowered) {
            try await answerProgress(subject: subject, tools: tools, say: say)
        } else if let swap = SwapRequest.read(turn.message) {
            try await answerSwap(swap, turn: turn, tools: tools, say: say)
        } else if try await answerPlanning(turn, tools: tools, say: say) {
            return
        } else if TodayQuestion.matches(lowered) {
            try await answerToday(tools: tools, say: say)
        } else if OverviewQuestion.matches(lowered) {
            try await answerOverview(tools: tools, say: say)
        } else if turn.workoutId != nil {
            let state = try await tools.call("get_workout_state")
            let next = try state["next"].flatMap { $0 == .null ? nil : try $0.decode(WorkoutBrief.NextSet.self) }
            let last = state["last_time"]?.stringValue.map { " \($0)." } ?? ""
            try await say(
                next.map {
                    "Next up: \($0.sentence(in: turn.weightUnit)).\(last) Log it by typing what you did, like \"8 @ 100\", or \"done\" if it went as planned."
                }
                    ?? "Every set is logged. Say \"finished\" and I will wrap the workout up, or ask me to add an exercise.")
        } else {
            try await say(Self.help)
        }
    }

    static let help = """
        I can help with your training. Try:
        • "Build me a 4-day upper/lower with dumbbells" — a routine you can accept in one tap.
        • "How is my bench going?" — your numbers and a chart.
        • "What should I do today?" — the next workout of your routine.
        • "How am I doing?" — your weeks, your main lifts and what the analysis found.
        • "Swap squats for something easier on my knees" — an alternative, in your workout or your routine.
        • During a workout: "8 @ 100", "100kg x 8", "done" or "next set" to log and follow your sets.
        """

    /// "How is my bench going?": the exercise the user trains that best matches, its latest best e1RM and top
    /// weight against the start of the period, and a chart.
    func answerProgress(subject: String, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let found = try await tools.call("search_exercises", arguments: ["query": .string(subject), "limit": 10])
        let candidates = (found["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        guard !candidates.isEmpty else {
            try await say("I could not find an exercise called \"\(subject)\" in the catalog. Which exercise do you mean?")
            return
        }
        // The best match the user has trained lately, so "bench" finds the bench press they actually do.
        var best: (id: String, name: String, points: [ExerciseWeek])?
        for id in candidates {
            let progress = try await tools.call("get_exercise_progress", arguments: ["exercise_id": .string(id), "weeks": 12])
            let points = try (progress["points"] ?? []).decode([ExerciseWeek].self)
            if !points.isEmpty {
                best = (id, progress["name"]?.stringValue ?? id, points)
                break
            }
        }
        guard let best, let last = best.points.last, let first = best.points.first else {
            try await say(
                "You have no logged sets of \(subject) in the last 12 weeks. Log a workout with it and I will track your progress.")
            return
        }
        let unit = tools.weightUnit
        let e1rm = { (value: Double) in unit.text(kilograms: value) }
        var answer = "\(best.name): your best estimated 1RM this period is \(e1rm(best.points.map(\.e1rmKg).max() ?? last.e1rmKg))"
        answer += ", with a top set of \(unit.text(kilograms: last.bestSet.weightKg)) × \(last.bestSet.reps) in your latest week."
        if best.points.count > 1 {
            // The change to a tenth of the user's unit, so "up 0 lb" never shows.
            let change = unit.amount(ofKilograms: last.e1rmKg - first.e1rmKg).roundedToTenth
            let amount = "\(WeightUnit.oneDecimal(abs(change))) \(unit.symbol)"
            answer +=
                change > 0
                ? " That is up \(amount) since the week of \(first.weekStart)."
                : change < 0
                    ? " That is down \(amount) since the week of \(first.weekStart): worth a lighter week?" : " Holding steady."
        }
        answer += " \(best.points.reduce(0) { $0 + $1.sets }) working sets over \(best.points.count) weeks."
        try await say(answer)
        _ = try await tools.call("show_progress_chart", arguments: ["exercise_id": .string(best.id), "weeks": 12])
    }

    /// "What should I do today?": the next template of the active routine, as a session plan to start.
    func answerToday(tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        guard let next = try await tools.nextTemplate() else {
            try await say("You have no active routine yet. Ask me to build one, for example \"a 3-day full body routine with dumbbells\".")
            return
        }
        let names = next.template.exercises.prefix(6).map(\.name).joined(separator: ", ")
        try await say("Today is \(next.template.name): \(names). Start it from the plan below when you are ready.")
        _ = try await tools.call("propose_workout", arguments: ["template_id": .string(next.template.id)])
    }
}

/// "How is my bench going?", "how's my squat", "progress on deadlift", "bench progress".
enum ProgressQuestion {
    static func subject(of lowered: String) -> String? {
        let text = lowered.trimmingCharacters(in: CharacterSet(charactersIn: "?!. "))
        let patterns: [(prefix: String, suffix: String)] = [
            ("how is my ", " going"), ("how's my ", " going"), ("hows my ", " going"), ("how is my ", " doing"), ("how's my ", " doing"),
            ("how is my ", " progressing"), ("how's my ", " progressing"), ("how am i doing on ", ""), ("how am i doing with ", ""),
            ("progress on ", ""), ("progress on my ", ""), ("show my ", " progress"), ("my ", " progress"), ("", " progress"),
        ]
        for (prefix, suffix) in patterns where text.hasPrefix(prefix) && text.hasSuffix(suffix) && text.count > prefix.count + suffix.count
        {
            let subject = String(text.dropFirst(prefix.count).dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            if !subject.isEmpty, subject.count <= 60, !subject.contains(" going") { return subject }
        }
        return nil
    }
}

/// "What should I do today?", "what's my workout today", "what's next in my routine".
enum TodayQuestion {
    static func matches(_ lowered: String) -> Bool {
        let phrases = [
            "what should i do today", "what do i do today", "workout today", "today's workout", "todays workout",
            "next workout", "what should i train", "what's next in my routine", "whats next in my routine",
        ]
        return phrases.contains { lowered.contains($0) }
    }
}
