import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// The opening of the message that asks the clarifying questions: the next user message is read as answers to
    /// the request it follows.
    static let clarifyOpening = "Before I plan your routine"

    /// A routine ("build me a 4-day upper/lower with dumbbells", "PPL twice a week", "No barbell, just dumbbells. 3 day
    /// full body"): what the request leaves open filled from memory, then the routine from the catalog as a
    /// `routine_summary`, or the clarifying questions when days or equipment are still missing. `goalStated`: whether
    /// the user named the goal (else memory's goal wins over the default).
    func answerPlanning(_ asked: PlanRequest, goalStated: Bool, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        var asked = asked
        // "A 3-day plan, I hate lunges": the message's own dislikes count for this plan, and are remembered with it.
        if Self.dislikes(turn.message) {
            for named in MessageUnderstanding.read(turn.message).slots.exercises where !asked.dislikes.contains(named) {
                asked.dislikes.append(named)
            }
        }
        let request = Self.filled(asked, from: turn.memory, goalStated: goalStated)
        let recalled = Self.recalled(asked, filled: request)
        let questions = PlanQuestions.missing(request)
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
            return
        }
        let plan = try await RoutinePlanner(catalog: tools.services.catalog).plan(request)
        let days = plan.templates.map(\.name).joined(separator: ", ")
        if !recalled.isEmpty { try await say("Going by what you told me before (\(recalled.joined(separator: ", "))). ") }
        try await say(
            "Here is \(plan.name): \(plan.templates.count) days (\(days)). \(plan.description ?? "") Accept it to make it your routine.")
        _ = try await tools.call("remember", arguments: Self.facts(of: asked, goalStated: goalStated, memory: turn.memory))
        var tools = tools
        tools.requestedEquipment = request.equipment
        _ = try await tools.call("propose_routine", arguments: try JSONValue(encoding: plan))
    }

    /// The planning request a message makes: its slots (`Understood.planRequest`), with equipment the user said
    /// they lack taken out of a full gym when they named none they have ("a routine with no machines").
    static func request(of understood: Understood) -> PlanRequest {
        var request = understood.planRequest
        let without = understood.slots.withoutEquipment
        if request.equipment == nil, !without.isEmpty { request.equipment = EquipmentSet.fullGym.without(without) }
        return request
    }

    /// The routine request the clarifying questions were asked about, with every answer since folded in: the user
    /// message before the first of the questions in a row, then the answers in order, this turn's last.
    static func pendingRequest(_ turn: CoachTurn) -> (request: PlanRequest, goalStated: Bool)? {
        var answers = [turn.message]
        var index = turn.history.count - 1
        // history: … request, questions, answer, questions, [this turn]
        while index >= 1, turn.history[index].role == .assistant, turn.history[index].content.hasPrefix(clarifyOpening),
            turn.history[index - 1].role == .user
        {
            answers.append(turn.history[index - 1].content)
            index -= 2
        }
        guard answers.count >= 2, let first = answers.popLast() else { return nil }
        let understood = MessageUnderstanding.read(first)
        var request = request(of: understood)
        var goalStated = understood.slots.goal != nil
        for answer in answers.reversed() {
            let slots = MessageUnderstanding.read(answer).slots
            request = folding(slots, text: answer, into: request)
            goalStated = goalStated || slots.goal != nil
        }
        return (request, goalStated)
    }

    /// The request with what an answer says: a facet named replaces the request's ("dumbbells only", "make it 5
    /// days"); a bare number 1…7 answers the days while they are unknown; areas to spare add up.
    static func folding(_ slots: MessageSlots, text: String, into request: PlanRequest) -> PlanRequest {
        var answered = request
        // A bare number answers the days: "4", and "four" as the message's words read it.
        let words = MessageText(text).tokens
        if let days = slots.days {
            answered.days = days
        } else if request.days == nil, words.count == 1, let number = Int(words[0]), (1...7).contains(number) {
            answered.days = number
        }
        if let split = slots.split { answered.split = split }
        if let equipment = slots.equipment {
            answered.equipment = equipment
        } else if !slots.withoutEquipment.isEmpty {
            answered.equipment = (request.equipment ?? .fullGym).without(slots.withoutEquipment)
        }
        if let goal = slots.goal { answered.goal = goal }
        if let minutes = slots.minutes { answered.minutes = minutes }
        for area in slots.spare.map(\.planName) where !answered.avoid.contains(area) { answered.avoid.append(area) }
        return answered
    }

    /// The request with what the user told the coach before where this request says nothing: equipment, days (when
    /// no split implies them), session length, the goal (unless stated now), areas to spare and exercises not wanted.
    static func filled(_ request: PlanRequest, from memory: CoachMemory, goalStated: Bool) -> PlanRequest {
        var filled = request
        if filled.equipment == nil { filled.equipment = memory.equipmentSet }
        if filled.days == nil, filled.split == nil { filled.days = memory.days }
        if filled.minutes == nil { filled.minutes = memory.sessionMinutes }
        if !goalStated, let goal = memory.goal.flatMap(PlanRequest.Goal.init(rawValue:)) { filled.goal = goal }
        for area in memory.injuries ?? [] where !filled.avoid.contains(area) { filled.avoid.append(area) }
        for dislike in memory.dislikes ?? [] where !filled.dislikes.contains(dislike) { filled.dislikes.append(dislike) }
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
        let left = filled.dislikes.filter { !asked.dislikes.contains($0) }
        // The reader keeps a lift singular ("lunge"); the coach says it as a person does ("no lunges").
        if !left.isEmpty { said.append("no \(left.map { $0.hasSuffix("s") ? $0 : $0 + "s" }.joined(separator: " or "))") }
        return said
    }

    /// The lasting facts a planning request states, as the `remember` tool takes them; areas to spare and dislikes
    /// are added to those already kept (`remember` replaces a list, and a new injury must not drop an old one).
    static func facts(of request: PlanRequest, goalStated: Bool, memory: CoachMemory) -> JSONValue {
        var facts: [String: JSONValue] = [:]
        if let equipment = request.equipment { facts["equipment"] = .array(CoachMemory.equipment(equipment).map(JSONValue.string)) }
        if let days = request.days { facts["days"] = .int(days) }
        if let minutes = request.minutes { facts["session_minutes"] = .int(minutes) }
        if goalStated { facts["goal"] = .string(request.goal.rawValue) }
        for (field, kept, stated) in [
            ("injuries", memory.injuries ?? [], request.avoid), ("dislikes", memory.dislikes ?? [], request.dislikes),
        ]
        where !stated.isEmpty {
            let merged = kept + stated.filter { !kept.contains($0) }.map { String($0.prefix(CoachMemory.maxItemLength)) }
            facts[field] = .array(Array(merged.suffix(CoachMemory.maxItems)).map(JSONValue.string))
        }
        return .object(facts)
    }
}
