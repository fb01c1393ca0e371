import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// The opening of the message that asks the clarifying questions: the next user message is read as answers to
    /// the request it follows.
    static let clarifyOpening = "Before I plan your routine"

    /// Planning requests ("build me a 4-day upper/lower with dumbbells", "PPL 6 days", "full body 3x a week at
    /// home"): the routine from the catalog as a `routine_summary`, or the clarifying questions when days or
    /// equipment are missing. A message right after those questions is read as their answers, folded into the
    /// request it followed. Answers false when the message is no planning request.
    func answerPlanning(_ turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws
        -> Bool
    {
        guard let request = Self.planRequest(turn) else { return false }
        let questions = PlanRequestReader.missing(request)
        if !questions.isEmpty {
            try await say("\(Self.clarifyOpening), a quick question or two: tap an answer or just type it.")
            _ = try await tools.call(
                "ask_clarifying_questions",
                arguments: [
                    "questions": .array(
                        questions.map {
                            ["id": .string($0.id), "text": .string($0.text), "options": .array($0.options.map(JSONValue.string))]
                        })
                ])
            return true
        }
        let plan = try await RoutinePlanner(catalog: tools.services.catalog).plan(request)
        let days = plan.templates.map(\.name).joined(separator: ", ")
        try await say(
            "Here is \(plan.name): \(plan.templates.count) days (\(days)). \(plan.description ?? "") Accept it to make it your routine.")
        _ = try await tools.call("propose_routine", arguments: try JSONValue(encoding: plan))
        return true
    }

    /// The planning request of this turn: the message itself, or, right after the clarifying questions, the request
    /// they followed with this message's answers.
    static func planRequest(_ turn: CoachTurn) -> PlanRequest? {
        if let request = PlanRequestReader.read(turn.message) {
            return request
        }
        guard let last = turn.history.last, last.role == .assistant, last.content.hasPrefix(clarifyOpening) else { return nil }
        // The user's messages since the request, oldest first: the request, then any earlier answers.
        var answers: [String] = [turn.message]
        for message in turn.history.reversed() where message.role == .user {
            if let request = PlanRequestReader.read(message.content) {
                return answers.reversed().reduce(request) { PlanRequestReader.answer($1, to: $0) }
            }
            answers.append(message.content)
        }
        return nil
    }
}
