import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// "How's my chest doing?": the group's weekly working sets (its catalog muscles summed) this week against the
    /// weeks before, its main lift's estimated 1RM trend when the user has one, and a chart of the weekly sets.
    func answerMuscleProgress(_ group: MuscleGroup, tools: CoachToolbox, say: @escaping Say) async throws {
        let name = group.rawValue.replacingOccurrences(of: "_", with: " ")
        let weeks = try await MuscleWeeks.weeks(named: group.rawValue, userId: tools.userId, weeks: 8, analytics: tools.services.analytics)
        guard let latest = weeks.last else {
            try await say(
                "You have no logged \(name) sets in the last 8 weeks. Log a workout with \(name) work and I will track it; "
                    + "or ask me to add some to your routine.")
            return
        }
        let before = weeks.dropLast()
        var answer = "\(name.capitalized): \(Self.tenth(latest.sets)) working sets in the week of \(latest.weekStart)"
        if !before.isEmpty {
            let average = before.reduce(0) { $0 + $1.sets } / Double(before.count)
            answer += ", against \(Self.tenth(average)) a week over the \(before.count) training weeks before."
        } else {
            answer += "."
        }
        if let lift = try await mainLift(of: group, tools: tools) { answer += " " + lift }
        let average = weeks.reduce(0) { $0 + $1.sets } / Double(weeks.count)
        answer +=
            average < 10
            ? " Most lifters grow best on 10–20 hard sets a muscle a week; ask me to add \(name) work if you want more."
            : average > 20
                ? " That is past the 10–20 weekly sets most lifters grow best on: more may not pay."
                : " That is in the 10–20 weekly sets most lifters grow best on."
        try await say(answer)
        _ = try await tools.call("show_muscle_chart", arguments: ["muscle": .string(group.rawValue), "weeks": 8])
    }

    /// The user's main lift for the group (the training context's lift with the most sets whose first muscle is the
    /// group's), and its trend, as a sentence; nil when there is none.
    private func mainLift(of group: MuscleGroup, tools: CoachToolbox) async throws -> String? {
        let context = try await tools.call("get_training_context").decode(TrainingContext.self)
        for lift in context.lifts {
            guard let exercise = try await tools.services.catalog.exercise(id: lift.exerciseId),
                let muscle = exercise.primaryMuscles.first, group.catalogMuscles.contains(muscle)
            else { continue }
            let unit = tools.weightUnit
            guard let previous = lift.previousE1rmKg else {
                return "\(lift.name) is at an estimated 1RM of \(unit.text(kilograms: lift.e1rmKg))."
            }
            let change = unit.amount(ofKilograms: lift.e1rmKg - previous).roundedToTenth
            let trend =
                change > 0
                ? "up \(WeightUnit.oneDecimal(change)) \(unit.symbol)"
                : change < 0 ? "down \(WeightUnit.oneDecimal(-change)) \(unit.symbol)" : "steady"
            return "\(lift.name) is at an estimated 1RM of \(unit.text(kilograms: lift.e1rmKg)), \(trend) over four weeks."
        }
        return nil
    }

    /// A number to a tenth, without ".0".
    static func tenth(_ value: Double) -> String { WeightUnit.oneDecimal(value) }
}
