import Contracts
import Foundation
import Platform

/// The tools that answer progress questions with cards a person reads at a glance (docs/api.md "Cards"): the analyst's
/// summary of how training is going (`analysis_summary`), weekly sets per muscle group as bars and the lifts ranked
/// in a table (`visualization`). Numbers stay in kilograms, as everywhere in the API; the card says its unit.
extension CoachTools {
    static let cardTools: [CoachToolDefinition] = [
        CoachToolDefinition(
            name: "show_analysis_summary",
            description:
                "Shows how training is going as a card: the analyst's newest findings, this week against the four before, the main lifts' trend.",
            parameters: Schema.object([:]), workoutOnly: false),
        CoachToolDefinition(
            name: "show_muscle_chart",
            description:
                "Shows working sets per muscle group as bars: this week's across muscle groups, or one muscle group's weekly sets.",
            parameters: Schema.object(["muscle": Schema.string, "weeks": Schema.integer(minimum: 1, maximum: 52)]), workoutOnly: false),
        CoachToolDefinition(
            name: "show_lifts_table",
            description: "Shows the user's main lifts ranked by estimated 1RM, with their change over the last four weeks, as a table.",
            parameters: Schema.object([:]), workoutOnly: false),
    ]

    /// Runs a card tool; nil for any other name.
    static func runCard(_ name: String, arguments: JSONValue, in box: CoachToolbox) async throws -> JSONValue? {
        let services = box.services
        switch name {
        case "show_analysis_summary":
            let context = try await services.analytics.trainingContext(userId: box.userId)
            var findings: [JSONValue] = []
            if let analysis = services.analysis {
                let summary = try await analysis.summary(userId: box.userId, sections: [.insights, .weeklyReview], date: nil, limit: 3)
                guard case .object(let answer) = try JSONValue(encoding: summary) else { return [:] }
                let notes = (answer["insights"]?.arrayValue ?? []).prefix(2) + [answer["weekly_review"]].compactMap { $0 }
                for note in notes where note != .null {
                    guard let headline = note["headline"]?.stringValue else { continue }
                    findings.append([
                        "headline": .string(headline), "findings": .array(Array((note["findings"]?.arrayValue ?? []).prefix(3))),
                    ])
                }
            }
            let weeks = context.workoutsPerWeek
            let before = Array(weeks.dropFirst())
            let average = before.isEmpty ? 0 : Double(before.reduce(0, +)) / Double(before.count)
            let artifact = try await box.propose(
                .analysisSummary, title: "How your training is going",
                data: [
                    "findings": .array(findings),
                    "this_week": ["workouts": .int(weeks.first ?? 0)],
                    "weekly_average_before": ["workouts": .double(average.roundedToTenth), "weeks": .int(before.count)],
                    "lifts": .array(context.lifts.prefix(5).map(liftRow)), "unit": "kg",
                ])
            return ["artifact_id": .string(artifact.id), "findings": .int(findings.count)]
        case "show_muscle_chart":
            struct Arguments: Decodable {
                var muscle: String?
                var weeks: Int?
            }
            let input = try arguments.decode(Arguments.self)
            if let muscle = input.muscle?.trimmingCharacters(in: .whitespaces).lowercased(), !muscle.isEmpty {
                let points = try await MuscleWeeks.weeks(
                    named: muscle, userId: box.userId, weeks: input.weeks ?? 8, analytics: services.analytics)
                let artifact = try await box.propose(
                    .visualization, title: "\(muscle.capitalized): weekly sets",
                    data: [
                        "chart": "bar", "metric": "sets", "unit": "sets", "muscle": .string(muscle),
                        "points": .array(
                            points.map { ["week_start": .string($0.weekStart), "value": .double($0.sets.roundedToTenth)] }),
                    ])
                return ["artifact_id": .string(artifact.id), "bars": .int(points.count)]
            }
            let stats = try await services.analytics.weeklyStats(userId: box.userId, weeks: 1)
            let sets = (stats.last?.setsByMuscle ?? [:]).sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            let artifact = try await box.propose(
                .visualization, title: "This week's sets per muscle group",
                data: [
                    "chart": "bar", "metric": "sets", "unit": "sets", "week_start": stats.last.map { .string($0.weekStart) } ?? .null,
                    "points": .array(
                        sets.prefix(15).map { muscle in
                            [
                                "label": .string(muscle.key), "week_start": stats.last.map { .string($0.weekStart) } ?? .null,
                                "value": .double(muscle.value.roundedToTenth),
                            ]
                        }),
                ])
            return ["artifact_id": .string(artifact.id), "bars": .int(min(sets.count, 15))]
        case "show_lifts_table":
            let context = try await services.analytics.trainingContext(userId: box.userId)
            let lifts = context.lifts.sorted { $0.e1rmKg > $1.e1rmKg }.prefix(10)
            let artifact = try await box.propose(
                .visualization, title: "Your lifts, strongest first",
                data: [
                    "chart": "table", "metric": "e1rm", "columns": ["Lift", "Estimated 1RM", "Change (4 weeks)"], "unit": "kg",
                    "rows": .array(lifts.map(liftRow)),
                ])
            return ["artifact_id": .string(artifact.id), "rows": .int(lifts.count)]
        default:
            return nil
        }
    }

    /// A lift as a card's row: its e1RM now and four weeks before, and the change, in kilograms to the tenth.
    static func liftRow(_ lift: TrainingContext.LiftTrend) -> JSONValue {
        let tenth = { (value: Double) in value.roundedToTenth }
        return [
            "exercise_id": .string(lift.exerciseId), "name": .string(lift.name), "e1rm_kg": .double(tenth(lift.e1rmKg)),
            "previous_e1rm_kg": lift.previousE1rmKg.map { .double(tenth($0)) } ?? .null,
            "change_kg": lift.previousE1rmKg.map { .double(tenth(lift.e1rmKg - $0)) } ?? .null,
        ]
    }
}
