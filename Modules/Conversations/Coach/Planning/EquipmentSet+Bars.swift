import Contracts

/// Moves that hang from a bar: the catalog lists pull-ups, chin-ups, hanging leg raises, inverted rows and dips as
/// "body only" (or with no equipment), though no one can do them with nothing but the body.
extension EquipmentSet {
    /// Whether the user can do the exercise: its catalog equipment is theirs, and it hangs from a bar only when they
    /// have one.
    func allows(_ exercise: Exercise) -> Bool {
        allows(catalogEquipment: exercise.equipment) && (pullUpBar || !Self.needsBar(exercise))
    }

    /// Whether the exercise hangs from a bar or a dip station: a pull-up, chin-up, muscle-up, hanging raise,
    /// inverted row or dip (not a bench dip: a bench or a chair will do) without equipment of its own.
    static func needsBar(_ exercise: Exercise) -> Bool {
        guard [nil, "body only", "other"].contains(exercise.equipment) else { return false }
        let words = exercise.name.lowercased().split { !$0.isLetter }.map(String.init)
        let text = " " + words.joined(separator: " ") + " "
        let hanging = [
            " pull up ", " pullup ", " pullups ", " pull ups ", " chin up ", " chinup ", " hanging ", " muscle up ", " inverted row ",
        ]
        if hanging.contains(where: text.contains) { return true }
        return words.contains { $0 == "dip" || $0 == "dips" } && !text.contains(" bench dip")
    }
}
