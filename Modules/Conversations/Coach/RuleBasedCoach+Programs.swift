import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// "Give me a 5x5 program", "Starting Strength", "wendler 531, 3 days a week": the named program as its author
    /// wrote it (`ProgramPlanner`) as a `routine_summary`, with the equipment named, else remembered, else the
    /// barbell gym the program is written for (said, so the user can correct it). No clarifying questions: the
    /// program says the days and the lifts.
    func answerProgram(_ program: NamedProgram, understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say)
        async throws
    {
        let slots = understood.slots
        let named = Self.request(of: understood).equipment
        let remembered = turn.memory.equipmentSet?.without(slots.withoutEquipment)
        let equipment = named ?? remembered ?? .fullGym
        let (plan, _) = try await ProgramPlanner(catalog: tools.services.catalog).plan(program, days: slots.days, equipment: equipment)
        if named == nil, let remembered { try await say("Going by what you told me before (\(remembered.label)). ") }
        let sessions = plan.templates.map(\.name).joined(separator: ", ")
        var text = "Here is \(plan.name): \(plan.templates.count) sessions (\(sessions)), \(plan.frequency ?? program.days) days a week. "
        text += plan.description ?? ""
        if named == nil, remembered == nil {
            text += " It is written for a barbell, a rack and a bench: tell me if you train with less and I will adapt it."
        }
        try await say(text + " Accept it to make it your routine.")
        // What the user stated is kept; the program's own goal is not theirs to remember.
        var facts: [String: JSONValue] = [:]
        if let named { facts["equipment"] = .array(CoachMemory.equipment(named).map(JSONValue.string)) }
        if let days = slots.days { facts["days"] = .int(days) }
        if !facts.isEmpty { _ = try await tools.call("remember", arguments: .object(facts)) }
        var tools = tools
        tools.requestedEquipment = equipment
        _ = try await tools.call("propose_routine", arguments: try JSONValue(encoding: plan))
    }
}
