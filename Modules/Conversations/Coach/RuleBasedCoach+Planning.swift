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
        guard let asked = Self.planRequest(turn) else { return false }
        // A goal named now, or earlier in the request this message answers (the reader's default is hypertrophy).
        let goalStated = PlanRequestReader.goal(in: PlanText(turn.message)) != nil || asked.goal != .hypertrophy
        let request = Self.filled(asked, from: turn.memory, goalStated: goalStated)
        let recalled = Self.recalled(asked, filled: request)
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
        if !recalled.isEmpty { try await say("Going by what you told me before (\(recalled.joined(separator: ", "))). ") }
        try await say(
            "Here is \(plan.name): \(plan.templates.count) days (\(days)). \(plan.description ?? "") Accept it to make it your routine.")
        _ = try await tools.call("remember", arguments: Self.facts(of: asked, goalStated: goalStated))
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

    /// The request with what the user told the coach before where this request says nothing: equipment, days (when
    /// no split implies them), session length, the goal (unless stated now) and areas to spare.
    static func filled(_ request: PlanRequest, from memory: CoachMemory, goalStated: Bool) -> PlanRequest {
        var filled = request
        if filled.equipment == nil { filled.equipment = memory.equipmentSet }
        if filled.days == nil, filled.split == nil { filled.days = memory.days }
        if filled.minutes == nil { filled.minutes = memory.sessionMinutes }
        if !goalStated, let goal = memory.goal.flatMap(PlanRequest.Goal.init(rawValue:)) { filled.goal = goal }
        for area in memory.injuries ?? [] where !filled.avoid.contains(area) { filled.avoid.append(area) }
        return filled
    }

    /// What memory added to the request, as the coach says it ("dumbbells", "3 days a week").
    static func recalled(_ asked: PlanRequest, filled: PlanRequest) -> [String] {
        var said: [String] = []
        if asked.equipment == nil, let equipment = filled.equipment { said.append(equipment.label) }
        if asked.days == nil, asked.split == nil, let days = filled.days { said.append("\(days) days a week") }
        if asked.minutes == nil, let minutes = filled.minutes { said.append("\(minutes)-minute sessions") }
        if asked.goal != filled.goal { said.append("training for \(filled.goal.rawValue)") }
        let spared = filled.avoid.filter { !asked.avoid.contains($0) }
        if !spared.isEmpty { said.append("sparing your \(spared.joined(separator: " and "))") }
        return said
    }

    /// The lasting facts a planning request states, as the `remember` tool takes them.
    static func facts(of request: PlanRequest, goalStated: Bool) -> JSONValue {
        var facts: [String: JSONValue] = [:]
        if let equipment = request.equipment { facts["equipment"] = .array(CoachMemory.equipment(equipment).map(JSONValue.string)) }
        if let days = request.days { facts["days"] = .int(days) }
        if let minutes = request.minutes { facts["session_minutes"] = .int(minutes) }
        if goalStated { facts["goal"] = .string(request.goal.rawValue) }
        if !request.avoid.isEmpty { facts["injuries"] = .array(request.avoid.prefix(CoachMemory.maxItems).map(JSONValue.string)) }
        return .object(facts)
    }
}
