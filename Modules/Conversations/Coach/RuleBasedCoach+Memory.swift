import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// "I only have dumbbells", "I train 4 days", "I'm a beginner", "I hate lunges": the facts stated go to the user's
    /// memory (`remember`), which every later plan uses; the answer says what was kept.
    func answerRemember(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        let (facts, kept) = Self.statedFacts(understood, turn: turn)
        guard !facts.isEmpty else {
            try await say(
                "I keep what you tell me about your training: equipment, days a week, session length, goal, experience, injuries and "
                    + "exercises you dislike. Tell me one, like \"I only have dumbbells\", and I will plan with it.")
            return
        }
        _ = try await tools.call("remember", arguments: .object(facts))
        // The planner uses equipment, days, session length, goal, areas to spare and dislikes; experience is kept.
        let planned = ["equipment", "days", "session_minutes", "goal", "injuries", "dislikes"].contains { facts[$0] != nil }
        try await say(
            "Got it: \(kept.joined(separator: ", ")). "
                + (planned
                    ? "I will plan with it from now on; tell me when it changes." : "It is in your coach memory; tell me when it changes."))
    }

    /// The lasting training facts a message states, as `remember` takes them, and how each reads back ("you train with
    /// dumbbells", "45-minute sessions"); areas to spare and dislikes are added to those already kept.
    static func statedFacts(_ understood: Understood, turn: CoachTurn) -> (facts: [String: JSONValue], kept: [String]) {
        let slots = understood.slots
        var facts: [String: JSONValue] = [:]
        var kept: [String] = []
        let equipment =
            slots.equipment
            ?? (slots.withoutEquipment.isEmpty ? nil : (turn.memory.equipmentSet ?? .fullGym).without(slots.withoutEquipment))
        if let equipment {
            facts["equipment"] = .array(CoachMemory.equipment(equipment).map(JSONValue.string))
            kept.append("you train with \(Self.withLabel(equipment))")
        }
        if let days = slots.days {
            facts["days"] = .int(days)
            kept.append("\(days) days a week")
        }
        if let minutes = slots.minutes {
            facts["session_minutes"] = .int(minutes)
            kept.append("\(minutes)-minute sessions")
        }
        if let goal = slots.goal {
            facts["goal"] = .string(goal.rawValue)
            kept.append("training for \(goal.rawValue)")
        }
        if let experience = slots.experience {
            facts["experience"] = .string(experience.rawValue)
            kept.append("\(experience.rawValue) lifter")
        }
        let areas = slots.spare.map(\.planName)
        if !areas.isEmpty {
            let before = turn.memory.injuries ?? []
            facts["injuries"] = .array(
                Array((before + areas.filter { !before.contains($0) }).suffix(CoachMemory.maxItems)).map(JSONValue.string))
            kept.append("sparing your \(areas.joined(separator: " and "))")
        }
        if Self.dislikes(turn.message), !slots.exercises.isEmpty {
            let before = turn.memory.dislikes ?? []
            let named = slots.exercises.map { String($0.prefix(CoachMemory.maxItemLength)) }.filter { !before.contains($0) }
            facts["dislikes"] = .array(Array((before + named).suffix(CoachMemory.maxItems)).map(JSONValue.string))
            kept.append("no \(slots.exercises.joined(separator: " or "))")
        }
        return (facts, kept)
    }

    /// Whether the message says the user does not want something ("I hate lunges", "no more burpees").
    static func dislikes(_ message: String) -> Bool {
        let text = " " + MessageText(message).tokens.joined(separator: " ") + " "
        return [
            " hate ", " dislike ", " dont like ", " do not like ", " cant stand ", " not a fan ", " never want ", " no more ", " sick of ",
        ]
        .contains(where: text.contains)
    }
}
