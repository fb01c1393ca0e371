import Contracts
import Foundation
import Platform

/// Changes to the active routine: its days ("change my routine to 4 days", a `routine_update`), an exercise added or
/// dropped ("add face pulls", "drop leg extensions"), or more or less of a muscle group ("more chest"), each a
/// `template_update` per template it touches. With no active routine, a change of days plans a routine with them.
extension RuleBasedCoach {
    /// A template of the active routine, as the planning context gives it.
    struct ActiveTemplate {
        let id: String
        let name: String
        var exercises: [PlannedExercise]
        let names: [String]
    }

    func answerRoutineChange(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        let slots = understood.slots
        let context = try await tools.call("get_planning_context")
        let templates = try Self.activeTemplates(context)
        guard let routineId = context["active_routine"]?["id"]?.stringValue, !templates.isEmpty else {
            if slots.days != nil || slots.split != nil {
                try await say("You have no active routine yet, so here is a new one. ")
                try await answerPlanning(Self.request(of: understood), goalStated: slots.goal != nil, turn: turn, tools: tools, say: say)
            } else {
                try await say(
                    "You have no active routine to change. Ask me to build one, like \"a 3-day full body routine with dumbbells\".")
            }
            return
        }
        if !slots.spare.isEmpty, slots.exercises.isEmpty {
            try await adjustRoutine(sparing: slots.spare.map(\.planName), memory: turn.memory, tools: tools, say: say)
        } else if let days = slots.days, slots.exercises.isEmpty, slots.muscles.isEmpty {
            try await changeDays(to: days, routineId: routineId, templates: templates, tools: tools, say: say)
        } else if let named = slots.exercises.first, slots.edit == .remove || slots.edit == .less {
            try await remove(named, from: templates, tools: tools, say: say)
        } else if let named = slots.exercises.first {
            try await add(named, to: templates, memory: turn.memory, tools: tools, say: say)
        } else if let group = slots.muscles.first {
            try await emphasise(group, more: slots.edit != .less && slots.edit != .remove, templates: templates, tools: tools, say: say)
        } else {
            try await say(
                "What should I change in your routine? The days (\"make it 4 days\"), an exercise (\"add face pulls\", \"drop leg "
                    + "extensions\"), more or less of a muscle (\"more chest\"), or a swap (\"swap bench for incline dumbbell press\").")
        }
    }

    static func activeTemplates(_ context: JSONValue) throws -> [ActiveTemplate] {
        let active = (context["active_template_ids"]?.arrayValue ?? []).compactMap(\.stringValue)
        let all = context["templates"]?.arrayValue ?? []
        return try active.compactMap { id in
            guard let template = all.first(where: { $0["id"]?.stringValue == id }), let name = template["name"]?.stringValue else {
                return nil
            }
            return ActiveTemplate(
                id: id, name: name, exercises: try (template["exercises"] ?? []).decode([PlannedExercise].self),
                names: (template["exercises"]?.arrayValue ?? []).map { $0["name"]?.stringValue ?? "" })
        }
    }

    /// The routine's sessions run `days` a week (`update_routine` with the frequency): they are trained in turn.
    private func changeDays(to days: Int, routineId: String, templates: [ActiveTemplate], tools: CoachToolbox, say: @escaping Say)
        async throws
    {
        let routine = try await tools.services.plans.routine(userId: tools.userId, id: routineId)
        let names = templates.map(\.name).joined(separator: ", ")
        if routine.frequency == days {
            try await say("Your routine already runs \(days) days a week (\(names)).")
            return
        }
        var text = "Here is your routine at \(days) days a week: its \(templates.count) sessions (\(names)) are trained in turn"
        if days > templates.count {
            text += ", so each comes round more often."
        } else if days < templates.count {
            text += ", so each comes round less than once a week."
        } else {
            text += ", one each day."
        }
        if days != templates.count {
            text += " If you would rather have sessions built for \(days) days, ask me for a \(days)-day routine."
        }
        try await say(text + " Accept the change to update your routine.")
        _ = try await tools.call("remember", arguments: ["days": .int(days)])
        _ = try await tools.call("update_routine", arguments: ["routine_id": .string(routineId), "frequency": .int(days)])
    }

    /// The exercise named goes into the session that already trains its muscles most (the first when none does),
    /// a compound after that session's compounds, an isolation move at the end, with the sets of a similar exercise
    /// there.
    private func add(_ named: String, to templates: [ActiveTemplate], memory: CoachMemory, tools: CoachToolbox, say: @escaping Say)
        async throws
    {
        guard let exercise = try await Self.exercise(named: named, equipment: nil, tools: tools) else {
            try await say("I could not find an exercise called \"\(named)\" in the catalog. Which exercise do you mean?")
            return
        }
        let catalog = tools.services.catalog
        // The session whose movements are of the same family (pushing, pulling, legs) and muscles.
        let family = SwapFinder.slot(of: exercise).map(\.family)
        var best: (index: Int, score: Int)?
        for (index, template) in templates.enumerated() {
            var score = 0
            for planned in template.exercises {
                guard let other = try await catalog.exercise(id: planned.exerciseId) else { continue }
                if let family, SwapFinder.slot(of: other)?.family == family { score += 3 }
                if other.primaryMuscles.first == exercise.primaryMuscles.first { score += 1 }
                if !Set(other.primaryMuscles).isDisjoint(with: exercise.primaryMuscles + exercise.secondaryMuscles) { score += 1 }
            }
            if score > (best?.score ?? -1) { best = (index, score) }
        }
        guard let index = best?.index else { return }
        var template = templates[index]
        if template.exercises.contains(where: { $0.exerciseId == exercise.id }) {
            try await say("\(exercise.name) is already in \(template.name).")
            return
        }
        let isolation = exercise.mechanic == "isolation"
        var sets = SetPrescription(
            goal: memory.goal.flatMap(PlanRequest.Goal.init(rawValue:)) ?? .hypertrophy, role: isolation ? .isolation : .compound
        )
        .templateSets(weighted: LiftVariant.isWeighted(exercise))
        var position = template.exercises.count
        for (offset, planned) in template.exercises.enumerated() {
            guard let other = try await catalog.exercise(id: planned.exerciseId) else { continue }
            if (other.mechanic == "isolation") == isolation { sets = planned.sets }
            if !isolation, other.mechanic != "isolation" { position = offset + 1 }
        }
        if !isolation, position == template.exercises.count, template.exercises.count > 0 {
            position = template.exercises.count
        }
        template.exercises.insert(PlannedExercise(exerciseId: exercise.id, sets: sets), at: min(position, template.exercises.count))
        _ = try await tools.call(
            "update_template", arguments: ["template_id": .string(template.id), "exercises": try JSONValue(encoding: template.exercises)])
        try await say(
            "Here is \(exercise.name) added to \(template.name), \(sets.count) sets of \(sets.first?.targetReps.map(String.init) ?? "your") reps. "
                + "Accept the change to update your routine.")
    }

    /// The exercise named leaves every session of the routine holding it (a session it is alone in keeps it).
    private func remove(_ named: String, from templates: [ActiveTemplate], tools: CoachToolbox, say: @escaping Say) async throws {
        let request = SwapRequest(subject: named, spare: [])
        var changed: [String] = []
        var removed = named
        for template in templates {
            guard let index = template.names.firstIndex(where: request.names), template.exercises.count > 1 else { continue }
            var exercises = template.exercises
            exercises.remove(at: index)
            removed = template.names[index]
            _ = try await tools.call(
                "update_template", arguments: ["template_id": .string(template.id), "exercises": try JSONValue(encoding: exercises)])
            changed.append(template.name)
        }
        guard !changed.isEmpty else {
            try await say("I cannot find \(named) in your routine, so there is nothing to drop.")
            return
        }
        try await say(
            "Here is your routine without \(removed), in \(changed.joined(separator: ", ")). Accept the change to update your routine.")
    }

    /// More (or less) of a muscle group: a set more (or fewer, keeping two) on each exercise of the routine that
    /// trains it first; with none, one exercise for it in the shortest session.
    private func emphasise(_ group: MuscleGroup, more: Bool, templates: [ActiveTemplate], tools: CoachToolbox, say: @escaping Say)
        async throws
    {
        let catalog = tools.services.catalog
        let name = group.rawValue.replacingOccurrences(of: "_", with: " ")
        var changes: [String] = []
        for template in templates {
            var exercises = template.exercises
            var touched = false
            for index in exercises.indices {
                guard let exercise = try await catalog.exercise(id: exercises[index].exerciseId),
                    let muscle = exercise.primaryMuscles.first, group.catalogMuscles.contains(muscle)
                else { continue }
                let count = exercises[index].sets.count
                if more, count < 10, let last = exercises[index].sets.last {
                    exercises[index].sets.append(last)
                } else if !more, count > 2 {
                    exercises[index].sets.removeLast()
                } else {
                    continue
                }
                touched = true
                changes.append("\(exercise.name) (\(template.name))")
            }
            if touched {
                _ = try await tools.call(
                    "update_template", arguments: ["template_id": .string(template.id), "exercises": try JSONValue(encoding: exercises)])
            }
        }
        if !changes.isEmpty {
            try await say(
                "Here is \(more ? "more" : "less") \(name): a set \(more ? "more" : "fewer") on \(changes.joined(separator: ", ")), "
                    + "\(changes.count) \(more ? "more" : "fewer") weekly \(changes.count == 1 ? "set" : "sets"). Accept the changes to update your routine."
            )
            return
        }
        guard more, let slot = group.slot,
            let shortest = templates.min(by: {
                $0.exercises.reduce(0) { $0 + $1.sets.count } < $1.exercises.reduce(0) { $0 + $1.sets.count }
            })
        else {
            try await say("Your routine has no \(name) work to \(more ? "add to" : "cut"). Ask me to add an exercise for it.")
            return
        }
        var pool = ExercisePool(
            catalog: catalog, equipment: try await SwapFinder(catalog: catalog).equipment(of: shortest.exercises.map(\.exerciseId)))
        guard let exercise = try await pool.pick(slot, rotation: 0, excluding: Set(shortest.exercises.map(\.exerciseId))) else {
            try await say("I found no \(name) exercise for your equipment.")
            return
        }
        var exercises = shortest.exercises
        exercises.append(
            PlannedExercise(
                exerciseId: exercise.id,
                sets: SetPrescription(goal: .hypertrophy, role: .isolation).templateSets(weighted: LiftVariant.isWeighted(exercise))))
        _ = try await tools.call(
            "update_template", arguments: ["template_id": .string(shortest.id), "exercises": try JSONValue(encoding: exercises)])
        try await say(
            "Your routine had no \(name) work: here is \(exercise.name) added to \(shortest.name). Accept the change to update your routine."
        )
    }
}

extension MovementSlot {
    /// The kind of session the movement belongs to: 0 pushing, 1 pulling, 2 legs, 3 core.
    var family: Int {
        switch self {
        case .horizontalPush, .inclinePush, .chestFly, .verticalPush, .lateralRaise, .triceps: 0
        case .horizontalPull, .verticalPull, .rearDelt, .biceps: 1
        case .squat, .hinge, .singleLeg, .legCurl, .legExtension, .glutes, .calves: 2
        case .core: 3
        }
    }
}

extension MuscleGroup {
    /// The movement that adds work for the group when a routine has none.
    var slot: MovementSlot? {
        switch self {
        case .chest: .chestFly
        case .back, .lats: .verticalPull
        case .traps, .lowerBack: nil
        case .shoulders: .lateralRaise
        case .arms, .biceps, .forearms: .biceps
        case .triceps: .triceps
        case .legs, .quads: .legExtension
        case .hamstrings: .legCurl
        case .glutes: .glutes
        case .calves: .calves
        case .core: .core
        }
    }
}
