import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// "Swap squats for something easier on my knees": in workout mode the exercise of the workout in progress is
    /// swapped at once (`swap_exercise`); otherwise each template of the active routine holding it gets a proposed
    /// change (`update_template`) with the same sets; with neither, alternatives are suggested. Alternatives come from
    /// `SwapFinder`, with the equipment asked for or else the equipment the day already uses.
    func answerSwap(_ request: SwapRequest, turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void)
        async throws
    {
        let finder = SwapFinder(catalog: tools.services.catalog)
        if turn.workoutId != nil {
            let state = try await tools.call("get_workout_state").decode(WorkoutBrief.State.self)
            guard let old = state.exercises.first(where: { request.names($0.name) }),
                let exercise = try await tools.services.catalog.exercise(id: old.exerciseId)
            else {
                try await say("I cannot find \(request.subject) in this workout. Which exercise should I swap?")
                return
            }
            let day = state.exercises.map(\.exerciseId)
            let found = try await finder.alternatives(
                to: exercise, sparing: request.spare, equipment: try await equipment(request, day: day, finder: finder),
                excluding: Set(day), count: 1)
            guard let new = found.exercises.first else {
                try await say(
                    "I found nothing to put in place of \(old.name) with this equipment. Tell me what you have and I will look again.")
                return
            }
            _ = try await tools.call(
                "swap_exercise", arguments: ["exercise_instance_id": .string(old.instanceId), "new_exercise_id": .string(new.id)])
            try await say(
                "Swapped \(old.name) for \(new.name)\(Self.because(found.spared)). Sets you logged stay with \(old.name).")
            return
        }
        let context = try await tools.call("get_planning_context")
        let active = Set((context["active_template_ids"]?.arrayValue ?? []).compactMap(\.stringValue))
        var changed: [(template: String, old: String, new: String)] = []
        var spared: String?
        for template in context["templates"]?.arrayValue ?? [] {
            guard let id = template["id"]?.stringValue, active.contains(id), let name = template["name"]?.stringValue else { continue }
            var exercises = try (template["exercises"] ?? []).decode([PlannedExercise].self)
            let names = (template["exercises"]?.arrayValue ?? []).map { $0["name"]?.stringValue ?? "" }
            guard let index = names.firstIndex(where: request.names),
                let exercise = try await tools.services.catalog.exercise(id: exercises[index].exerciseId)
            else { continue }
            let day = exercises.map(\.exerciseId)
            let found = try await finder.alternatives(
                to: exercise, sparing: request.spare, equipment: try await equipment(request, day: day, finder: finder),
                excluding: Set(day), count: 1)
            guard let new = found.exercises.first else { continue }
            exercises[index].exerciseId = new.id
            _ = try await tools.call(
                "update_template", arguments: ["template_id": .string(id), "exercises": try JSONValue(encoding: exercises)])
            changed.append((name, names[index], new.name))
            spared = spared ?? found.spared
        }
        if let first = changed.first {
            let days = changed.map(\.template).joined(separator: ", ")
            try await say(
                "Here is \(first.new) in place of \(first.old)\(Self.because(spared)), same sets, in \(days). "
                    + "Accept the change to update your routine.")
            return
        }
        try await suggestAlternatives(request, tools: tools, finder: finder, say: say)
    }

    /// With no workout and no routine holding it: alternatives to the catalog exercise the subject names.
    private func suggestAlternatives(
        _ request: SwapRequest, tools: CoachToolbox, finder: SwapFinder, say: @escaping @Sendable (String) async throws -> Void
    ) async throws {
        let found = try await tools.call("search_exercises", arguments: ["query": .string(request.subject), "limit": 5])
        let ids = (found["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        guard let id = ids.first, let exercise = try await tools.services.catalog.exercise(id: id) else {
            try await say("I could not find an exercise called \"\(request.subject)\" in the catalog. Which exercise do you mean?")
            return
        }
        let alternatives = try await finder.alternatives(
            to: exercise, sparing: request.spare, equipment: request.equipment ?? .fullGym, excluding: [], count: 3)
        guard !alternatives.exercises.isEmpty else {
            try await say("I found nothing to put in place of \(exercise.name) with that equipment.")
            return
        }
        let names = alternatives.exercises.map(\.name)
        let list = names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        try await say(
            "Instead of \(exercise.name), try \(list)\(Self.because(alternatives.spared)). "
                + "Ask me to build a routine, or say it during a workout, and I will make the swap for you.")
    }

    /// The equipment asked for, else the equipment the day's exercises use.
    private func equipment(_ request: SwapRequest, day: [String], finder: SwapFinder) async throws -> EquipmentSet {
        if let equipment = request.equipment { return equipment }
        return try await finder.equipment(of: day)
    }

    static func because(_ spared: String?) -> String {
        spared.map { ", which is easier on your \($0)" } ?? ""
    }
}
