/// The words of a planned routine: its name, its sessions' names and its description.
extension RoutinePlanner {
    /// "4-day Upper/Lower (dumbbells)", "3-day Full Body (bodyweight)", "6-day Push/Pull/Legs (full gym)".
    static func name(days: Int, split: PlanRequest.Split, equipment: EquipmentSet) -> String {
        "\(days)-day \(split.title) (\(equipment.label))"
    }

    /// Each session's name: its kind's title, with a letter when the kind comes back in the week ("Upper A",
    /// "Upper B"; a hybrid's single "Push" has none).
    static func sessionNames(_ days: [TrainingDay]) -> [String] {
        var seen: [TrainingDay: Int] = [:]
        return days.map { kind in
            let occurrence = seen[kind, default: 0]
            seen[kind] = occurrence + 1
            guard days.filter({ $0 == kind }).count > 1 else { return kind.title }
            return "\(kind.title) \(String(UnicodeScalar(UInt8(65 + occurrence))))"
        }
    }

    /// What the routine is for and how to run it: the goal's reps and effort, the order of the sessions, their
    /// length, and why the split or the exercises differ from what was asked, when they do.
    static func description(request: PlanRequest, schedule: SplitSchedule, names: [String], sessions: [[DraftExercise]]) -> String {
        let minutes = sessions.map { SessionBudget.estimatedMinutes($0.map(\.prescription)) }
        let length =
            minutes.min() == minutes.max() ? "about \(minutes[0]) minutes" : "\(minutes.min() ?? 0)–\(minutes.max() ?? 0) minutes"
        var parts = [
            goalSentence(request.goal),
            "\(names.count) \(names.count == 1 ? "day" : "days") a week, in this order: \(names.joined(separator: ", ")); "
                + "each session takes \(length).",
        ]
        if let note = schedule.note { parts.append(note) }
        if !request.avoid.isEmpty {
            parts.append("Spares your \(request.avoid.joined(separator: " and ")): the movements that load them most are left out.")
        }
        parts.append(progression(request.goal, equipment: request.equipment ?? .fullGym))
        return parts.joined(separator: " ")
    }

    /// The goal as one sentence of the description.
    static func goalSentence(_ goal: PlanRequest.Goal) -> String {
        switch goal {
        case .strength: "Built for strength: compound lifts first, 3–6 reps with 2 reps in reserve and about 3 minutes' rest."
        case .hypertrophy: "Built for muscle size: 8–12 reps with 1–2 reps in reserve and 1.5–2 minutes' rest."
        case .endurance: "Built for muscular endurance: 12–20 reps with 1–2 reps in reserve and about a minute's rest."
        case .general: "Built for general fitness: 8–12 reps with 2–3 reps in reserve and 1.5–2 minutes' rest."
        }
    }

    /// Where the weights start and how they progress, as the analyst does it (docs/recommendations.md), in two short
    /// sentences: one step when every set meets its target, 10 % off after two short sessions; a bodyweight plan moves
    /// on to a harder variation instead.
    static func progression(_ goal: PlanRequest.Goal, equipment: EquipmentSet) -> String {
        let kinds = equipment.kinds ?? Set(EquipmentSet.Kind.allCases)
        let step = kinds.subtracting([.bodyOnly, .bands]).isEmpty ? "a harder variation" : "a step heavier"
        let scheme = goal == .strength ? "linear" : "step on meeting every target"
        return "Weights come from what you have logged, or from your first session. Progression (\(scheme)): every set at its "
            + "reps moves the next session \(step); two short sessions in a row take 10% off."
    }
}
