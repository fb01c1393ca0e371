import Contracts
import Foundation
import Platform

/// Injuries and areas to spare: "I hurt my shoulder, what should I avoid?", "I have bad knees". The advice is
/// `SwapFinder`'s load table (what loads the area, what trains the same muscles and spares it), then an offer to
/// adjust the active routine; a yes proposes the swaps (`update_template`). The area is remembered, so later plans
/// spare it.
extension RuleBasedCoach {
    /// The words of the offer to adjust the routine; a yes to the message holding them is taken as accepting it.
    static let spareOffer = "Shall I adjust your routine to spare your"

    func answerInjury(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        let areas = understood.slots.spare.map(\.planName)
        guard !areas.isEmpty else {
            try await say(
                "Which part hurts? Tell me (knees, lower back, shoulders, elbows, wrists, hips …) and I will tell you what to spare and "
                    + "adjust your routine. Sharp pain, swelling or numbness needs a doctor or physiotherapist first.")
            return
        }
        var text = areas.map(InjuryAdvice.advice).joined(separator: " ")
        text += " Train only in ranges that do not hurt; sharp pain, swelling, numbness or pain lasting more than a week or two "
        text += "needs a doctor or physiotherapist: I cannot diagnose it."
        let loading = try await Self.routineExercises(loading: areas, tools: tools)
        if !loading.isEmpty {
            let list = loading.prefix(5).map { "\($0.name) (\($0.template))" }.joined(separator: ", ")
            text += " In your routine, \(list) load\(loading.count == 1 ? "s" : "") your \(areas.joined(separator: " and ")). "
            text += "\(Self.spareOffer) \(areas.joined(separator: " and "))? Say yes and I will propose the swaps."
        } else if try await tools.nextTemplate() != nil {
            text += " Nothing in your routine loads your \(areas.joined(separator: " and ")) much, so it can stay as it is."
        } else {
            text += " Every routine I plan from now on spares your \(areas.joined(separator: " and "))."
        }
        // What else the message states ("I train at home with dumbbells, 45 minutes, and my knee is bad") is kept too.
        var (facts, stated) = Self.statedFacts(understood, turn: turn)
        let before = turn.memory.injuries ?? []
        let injuries = Array((before + areas.filter { !before.contains($0) }).suffix(CoachMemory.maxItems))
        facts["injuries"] = injuries != before ? .array(injuries.map(JSONValue.string)) : nil
        stated.removeAll { $0.hasPrefix("sparing your") }
        if !stated.isEmpty { text += " I also noted: \(stated.joined(separator: ", "))." }
        try await say(text)
        if !facts.isEmpty { _ = try await tools.call("remember", arguments: .object(facts)) }
    }

    /// The exercises of the active routine that load an area (by `SwapFinder`'s table), with their template's name.
    static func routineExercises(loading areas: [String], tools: CoachToolbox) async throws -> [(name: String, template: String)] {
        let loaded = InjuryAdvice.loadedSlots(areas)
        guard !loaded.isEmpty else { return [] }
        let context = try await tools.call("get_planning_context")
        let active = Set((context["active_template_ids"]?.arrayValue ?? []).compactMap(\.stringValue))
        var found: [(name: String, template: String)] = []
        for template in context["templates"]?.arrayValue ?? [] {
            guard let id = template["id"]?.stringValue, active.contains(id), let name = template["name"]?.stringValue else { continue }
            for exercise in template["exercises"]?.arrayValue ?? [] {
                guard let exerciseId = exercise["exercise_id"]?.stringValue,
                    let entry = try await tools.services.catalog.exercise(id: exerciseId),
                    let slot = SwapFinder.slot(of: entry), loaded.contains(slot)
                else { continue }
                found.append((entry.name, name))
            }
        }
        return found
    }

    /// The yes to the offer: every exercise of the active routine that loads the areas is replaced by one that trains
    /// the same region and spares them, a proposed change (`update_template`) per template.
    /// The alternatives come with the equipment the user told the coach, else a full gym (a day of barbell lifts
    /// says nothing of the cables a fly needs).
    func adjustRoutine(sparing areas: [String], memory: CoachMemory, tools: CoachToolbox, say: @escaping Say) async throws {
        let loaded = InjuryAdvice.loadedSlots(areas)
        let finder = SwapFinder(catalog: tools.services.catalog)
        let context = try await tools.call("get_planning_context")
        let active = Set((context["active_template_ids"]?.arrayValue ?? []).compactMap(\.stringValue))
        var swaps: [String] = []
        for template in context["templates"]?.arrayValue ?? [] {
            guard let id = template["id"]?.stringValue, active.contains(id), let name = template["name"]?.stringValue else { continue }
            var exercises = try (template["exercises"] ?? []).decode([PlannedExercise].self)
            let equipment = memory.equipmentSet ?? .fullGym
            var changed = false
            for index in exercises.indices {
                guard let exercise = try await tools.services.catalog.exercise(id: exercises[index].exerciseId),
                    let slot = SwapFinder.slot(of: exercise), loaded.contains(slot)
                else { continue }
                let found = try await finder.alternatives(
                    to: exercise, sparing: areas, equipment: equipment, excluding: Set(exercises.map(\.exerciseId)), count: 1)
                guard let new = found.exercises.first else { continue }
                exercises[index].exerciseId = new.id
                swaps.append("\(new.name) for \(exercise.name) (\(name))")
                changed = true
            }
            if changed {
                _ = try await tools.call(
                    "update_template", arguments: ["template_id": .string(id), "exercises": try JSONValue(encoding: exercises)])
            }
        }
        guard !swaps.isEmpty else {
            try await say("I found nothing to change: your routine already spares your \(areas.joined(separator: " and ")).")
            return
        }
        try await say(
            "Here are the swaps, same sets: \(swaps.joined(separator: ", ")). Accept each change to update your routine.")
    }

    /// The areas the offer was about: those the user named in the message the offer answered, else those remembered.
    static func offeredAreas(_ turn: CoachTurn) -> [String] {
        let asked = turn.history.dropLast().last { $0.role == .user }.map {
            MessageUnderstanding.read($0.content).slots.spare.map(\.planName)
        }
        if let asked, !asked.isEmpty { return asked }
        return turn.memory.injuries ?? []
    }
}
