import Contracts
import Foundation
import Platform

/// One session to train now: "give me a 45-minute push workout", "what should I train today? 45 minutes, dumbbells",
/// and "what should I do today?" from the active routine.
extension RuleBasedCoach {
    /// A session to the message's constraints as a `session_plan` card: the focus named, else the region the user
    /// trained least this week (full body when nothing is logged); the equipment named, else the one remembered,
    /// else a full gym (said, so the user can correct it); the minutes named or remembered; areas to spare.
    func answerSession(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        let slots = understood.slots
        var request = Self.filled(Self.request(of: understood), from: turn.memory, goalStated: slots.goal != nil)
        let assumedGym = request.equipment == nil
        request.equipment = request.equipment ?? .fullGym
        let kind: TrainingDay
        let chosen: String
        if let focus = slots.focus {
            (kind, chosen) = (TrainingDay(focus: focus), "")
        } else if slots.split == .fullBody {
            (kind, chosen) = (.fullBody, "")
        } else {
            (kind, chosen) = try await Self.leastTrained(tools: tools)
        }
        let session = try await RoutinePlanner(catalog: tools.services.catalog).plan(session: kind, request: request)
        let minutes = SessionBudget.estimatedMinutes(session.map(\.prescription))
        let name = request.minutes.map { "\(kind.title) (\($0) min)" } ?? kind.title
        var text =
            "Here is a \(kind.title.lowercased()) session\(chosen) with \(Self.withLabel(request.equipment ?? .fullGym)), about \(minutes) minutes: "
        text += session.map { "\($0.exercise.name) \($0.prescription.sets) × \($0.prescription.reps)" }.joined(separator: ", ") + "."
        if !request.avoid.isEmpty { text += " It spares your \(request.avoid.joined(separator: " and "))." }
        if assumedGym { text += " I planned it for a full gym: tell me what equipment you have and I will plan with that." }
        text += " Start it below, or save it as a template."
        try await say(text)
        var tools = tools
        tools.requestedEquipment = request.equipment
        _ = try await tools.call(
            "propose_workout", arguments: ["name": .string(name), "exercises": try JSONValue(encoding: session.map(\.planned))])
    }

    /// The equipment after "with": "a full gym", "dumbbells".
    static func withLabel(_ equipment: EquipmentSet) -> String {
        equipment.isFullGym ? "a full gym" : equipment.label
    }

    /// The session kind for a day with no focus named: push, pull or legs, whichever got the fewest working sets this
    /// week (`get_training_context`), and why; full body when nothing is logged this week.
    static func leastTrained(tools: CoachToolbox) async throws -> (TrainingDay, String) {
        let context = try await tools.call("get_training_context").decode(TrainingContext.self)
        let regions: [(TrainingDay, Set<String>)] = [
            (.push, ["chest", "shoulders", "triceps"]), (.pull, ["lats", "middle back", "biceps", "traps"]),
            (.legs, ["quadriceps", "hamstrings", "glutes", "calves"]),
        ]
        let sets = regions.map { region in (region.0, context.muscles.filter { region.1.contains($0.muscle) }.reduce(0) { $0 + $1.sets }) }
        guard sets.contains(where: { $0.1 > 0 }), let least = sets.min(by: { $0.1 < $1.1 }) else { return (.fullBody, "") }
        return (least.0, " (\(least.0.title.lowercased()) is what you trained least this week)")
    }

    /// "What should I do today?": the next template of the active routine as a session to start; with no routine, a
    /// session planned for today.
    func answerToday(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        guard let next = try await tools.nextTemplate() else {
            try await say("You have no active routine yet, so I planned today on its own. Ask me to build a routine when you want one. ")
            try await answerSession(understood, turn: turn, tools: tools, say: say)
            return
        }
        let names = next.template.exercises.prefix(6).map(\.name).joined(separator: ", ")
        try await say("Today is \(next.template.name): \(names). Start it from the plan below when you are ready.")
        _ = try await tools.call("propose_workout", arguments: ["template_id": .string(next.template.id)])
    }
}
