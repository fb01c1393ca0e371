import Contracts
import Foundation
import Platform

extension RuleBasedCoach {
    /// "Swap bench for incline dumbbell press", "swap squats for something easier on my knees": the named target (the
    /// catalog's best match for it), else an alternative from `SwapFinder` (sparing what the message asks, with the
    /// equipment it names or the equipment the day already uses). In workout mode the exercise of the workout in
    /// progress is swapped at once (`swap_exercise`); otherwise each template of the active routine holding it gets
    /// a proposed change (`update_template`) with the same sets; with neither, alternatives are suggested.
    func answerSwap(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        let slots = understood.slots
        guard let subject = slots.swap?.from ?? slots.exercises.first else {
            try await say("Which exercise should I swap, and for what? For example \"swap bench for incline dumbbell press\".")
            return
        }
        let request = SwapRequest(subject: subject, spare: slots.spare.map(\.planName), equipment: slots.equipment)
        var target: Exercise?
        if let named = slots.swap?.to {
            target = try await Self.exercise(named: named, equipment: slots.equipment, tools: tools)
            guard target != nil else {
                try await say("I could not find an exercise called \"\(named)\" in the catalog. Which exercise should go in?")
                return
            }
        }
        let finder = SwapFinder(catalog: tools.services.catalog)
        // The exercise to put in place of `exercise` in a day of `day`, and the area it spares.
        let replacement = { (exercise: Exercise, day: [String]) async throws -> (Exercise, String?)? in
            if let target { return day.contains(target.id) ? nil : (target, nil) }
            let found = try await finder.alternatives(
                to: exercise, sparing: request.spare, equipment: try await Self.equipment(request, day: day, finder: finder),
                excluding: Set(day), count: 1)
            return found.exercises.first.map { ($0, found.spared) }
        }
        if turn.workoutId != nil {
            let state = try await tools.call("get_workout_state").decode(WorkoutBrief.State.self)
            guard let old = state.exercises.first(where: { request.names($0.name) }),
                let exercise = try await tools.services.catalog.exercise(id: old.exerciseId)
            else {
                try await say("I cannot find \(request.subject) in this workout. Which exercise should I swap?")
                return
            }
            guard let (new, spared) = try await replacement(exercise, state.exercises.map(\.exerciseId)) else {
                try await say(
                    "I found nothing to put in place of \(old.name) with this equipment. Tell me what you have and I will look again.")
                return
            }
            _ = try await tools.call(
                "swap_exercise", arguments: ["exercise_instance_id": .string(old.instanceId), "new_exercise_id": .string(new.id)])
            try await say("Swapped \(old.name) for \(new.name)\(Self.because(spared)). Sets you logged stay with \(old.name).")
            return
        }
        let changed = try await swapInRoutine(request, tools: tools, replacement: replacement)
        if let first = changed.changes.first {
            let days = changed.changes.map(\.template).joined(separator: ", ")
            try await say(
                "Here is \(first.new) in place of \(first.old)\(Self.because(changed.spared)), same sets, in \(days). "
                    + "Accept the change to update your routine.")
            return
        }
        if let target {
            try await say(
                "\(target.name) in place of \(request.subject) works. You have no routine with \(request.subject) in it: "
                    + "say it during a workout and I will make the swap, or ask me to build a routine.")
            return
        }
        try await suggestAlternatives(request, tools: tools, finder: finder, say: say)
    }

    /// Each template of the active routine holding the exercise gets a proposed change (`update_template`) with the
    /// replacement, same sets: the changes made (template, old and new names) and the area spared.
    func swapInRoutine(
        _ request: SwapRequest, tools: CoachToolbox, replacement: (Exercise, [String]) async throws -> (Exercise, String?)?
    ) async throws -> (changes: [(template: String, old: String, new: String)], spared: String?) {
        let context = try await tools.call("get_planning_context")
        let active = Set((context["active_template_ids"]?.arrayValue ?? []).compactMap(\.stringValue))
        var changed: [(template: String, old: String, new: String)] = []
        var spared: String?
        for template in context["templates"]?.arrayValue ?? [] {
            guard let id = template["id"]?.stringValue, active.contains(id), let name = template["name"]?.stringValue else { continue }
            var exercises = try (template["exercises"] ?? []).decode([PlannedExercise].self)
            let names = (template["exercises"]?.arrayValue ?? []).map { $0["name"]?.stringValue ?? "" }
            guard let index = names.firstIndex(where: request.names),
                let exercise = try await tools.services.catalog.exercise(id: exercises[index].exerciseId),
                let (new, area) = try await replacement(exercise, exercises.map(\.exerciseId))
            else { continue }
            exercises[index].exerciseId = new.id
            _ = try await tools.call(
                "update_template", arguments: ["template_id": .string(id), "exercises": try JSONValue(encoding: exercises)])
            changed.append((name, names[index], new.name))
            spared = spared ?? area
        }
        return (changed, spared)
    }

    /// The catalog's best match for an exercise the user named, with the equipment they named when it has one.
    static func exercise(named name: String, equipment: EquipmentSet?, tools: CoachToolbox) async throws -> Exercise? {
        let found = try await tools.call("search_exercises", arguments: ["query": .string(name), "limit": 10])
        let ids = (found["items"]?.arrayValue ?? []).compactMap { $0["id"]?.stringValue }
        var first: Exercise?
        for id in ids {
            guard let exercise = try await tools.services.catalog.exercise(id: id) else { continue }
            if equipment?.allows(catalogEquipment: exercise.equipment) ?? true { return exercise }
            first = first ?? exercise
        }
        return first
    }

    /// With no workout and no routine holding it: alternatives to the catalog exercise the subject names.
    private func suggestAlternatives(_ request: SwapRequest, tools: CoachToolbox, finder: SwapFinder, say: @escaping Say) async throws {
        guard let exercise = try await Self.exercise(named: request.subject, equipment: nil, tools: tools) else {
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
    static func equipment(_ request: SwapRequest, day: [String], finder: SwapFinder) async throws -> EquipmentSet {
        if let equipment = request.equipment { return equipment }
        return try await finder.equipment(of: day)
    }

    static func because(_ spared: String?) -> String {
        spared.map { ", which is easier on your \($0)" } ?? ""
    }
}
