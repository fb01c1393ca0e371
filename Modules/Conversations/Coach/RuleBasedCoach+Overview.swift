import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// "How am I doing?", "how was my week", "any insights?": the analyst's newest findings when there are, then the
    /// user's weeks from the training context (workouts this week against the four before, the main lifts' trend).
    func answerOverview(tools: CoachToolbox, say: @escaping Say) async throws {
        let analysis = try await tools.call("get_training_analysis")
        var lines: [String] = []
        if analysis["available"] == true {
            let notes =
                (analysis["insights"]?.arrayValue?.prefix(1) ?? [])
                + [analysis["daily_brief"], analysis["weekly_review"]].compactMap { $0 }
            for note in notes where note != .null {
                guard let headline = note["headline"]?.stringValue else { continue }
                let findings = (note["findings"]?.arrayValue ?? []).prefix(2).compactMap(\.stringValue)
                lines.append(([headline] + findings).map(Self.sentence).joined(separator: " "))
            }
        }
        let context = try await tools.call("get_training_context").decode(TrainingContext.self)
        let weeks = context.workoutsPerWeek
        guard weeks.contains(where: { $0 > 0 }) else {
            lines.append("You have no logged workouts in the last five weeks. Log one, and I will tell you how it is going.")
            try await say(lines.joined(separator: "\n"))
            return
        }
        let before = weeks.dropFirst()
        let average = before.isEmpty ? 0 : Double(before.reduce(0, +)) / Double(before.count)
        let times = { (count: Int) in count == 1 ? "1 workout" : "\(count) workouts" }
        lines.append(
            "This week: \(times(weeks.first ?? 0)), against \(String(format: "%.1f", average)) a week over the four weeks before.")
        let unit = tools.weightUnit
        let lifts = context.lifts.prefix(3).map { lift -> String in
            let now = unit.text(kilograms: lift.e1rmKg)
            guard let previous = lift.previousE1rmKg else { return "\(lift.name) \(now)" }
            let change = unit.amount(ofKilograms: lift.e1rmKg - previous).roundedToTenth
            let amount = "\(WeightUnit.oneDecimal(abs(change))) \(unit.symbol)"
            let trend = change > 0 ? "up \(amount)" : change < 0 ? "down \(amount)" : "steady"
            return "\(lift.name) \(now) (\(trend))"
        }
        if !lifts.isEmpty { lines.append("Estimated 1RMs over the last four weeks: \(lifts.joined(separator: ", ")).") }
        try await say(lines.joined(separator: "\n"))
        _ = try await tools.call("show_analysis_summary")
    }

    /// The text ending with a full stop (unless it ends a sentence already).
    static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return [".", "!", "?"].contains(trimmed.last) ? trimmed : trimmed + "."
    }
}
