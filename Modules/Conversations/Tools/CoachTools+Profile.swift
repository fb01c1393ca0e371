import Contracts
import Foundation
import Platform

/// The tools that read who the user is and what the analyst found: the profile, the training analysis and an
/// exercise's catalog entry.
extension CoachTools {
    static let profileTools: [CoachToolDefinition] = [
        CoachToolDefinition(
            name: "get_user_profile",
            description:
                "The user's name, time zone, first day of the week, weight unit (kg or lb: say weights in it; tools take and give kg) "
                + "and how long they have been a member.",
            parameters: Schema.object([:]), workoutOnly: false),
        CoachToolDefinition(
            name: "get_training_analysis",
            description:
                "The training analyst's pre-computed findings: post-workout insights, today's brief and the weekly review.",
            parameters: Schema.object([
                "sections": Schema.array(Schema.enumeration(AnalysisSection.allCases.map(\.rawValue))), "date": Schema.string,
            ]), workoutOnly: false),
        CoachToolDefinition(
            name: "get_exercise_details",
            description: "An exercise's catalog entry: category, equipment, force, level, mechanic, primary and secondary muscles.",
            parameters: Schema.object(["exercise_id": Schema.string], required: ["exercise_id"]), workoutOnly: false),
    ]

    static func runMore(_ name: String, arguments: JSONValue, in box: CoachToolbox) async throws -> JSONValue {
        let services = box.services
        switch name {
        case "get_user_profile":
            guard let account = try await services.accounts.account(userId: box.userId) else {
                throw ServiceError(.notFound, "This account does not exist any more.")
            }
            let days = Int(saturating: services.clock.now().timeIntervalSince(account.createdAt) / 86_400)
            return [
                "name": account.name.map(JSONValue.string) ?? .null, "time_zone": .string(account.timeZone ?? "UTC"),
                "week_starts_on": .string(account.weekStartsOnMonday ? "monday" : "sunday"),
                "weight_unit": .string(account.weightUnit.symbol), "member_for_days": .int(max(days, 0)),
            ]
        case "get_training_analysis":
            struct Arguments: Decodable {
                var sections: [AnalysisSection]?
                var date: String?
            }
            let input = try arguments.decode(Arguments.self)
            guard let analysis = services.analysis else {
                return ["available": false, "reason": "The training analyst does not run on this server, so there is no analysis."]
            }
            let sections = Set(input.sections.flatMap { $0.isEmpty ? nil : $0 } ?? AnalysisSection.allCases)
            let summary = try await analysis.summary(userId: box.userId, sections: sections, date: input.date, limit: 5)
            guard case .object(var answer) = try JSONValue(encoding: summary) else { return [:] }
            answer["available"] = true
            return .object(answer)
        case "get_exercise_details":
            let input = try arguments.decode(ExerciseArguments.self)
            return try JSONValue(encoding: try await knownExercise(input.exerciseId, services: services))
        default:
            return try await runProposal(name, arguments: arguments, in: box)
        }
    }

    struct ExerciseArguments: Decodable {
        var exerciseId: String
        enum CodingKeys: String, CodingKey { case exerciseId = "exercise_id" }
    }
}
