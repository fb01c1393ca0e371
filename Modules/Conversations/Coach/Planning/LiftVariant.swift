import Contracts

/// Which catalog exercises take a weight, and which are close variants of one another, for starting weights.
enum LiftVariant {
    /// Catalog equipment with nothing to load: the body, bands (their resistance is no weight), balls and rollers.
    static let unweighted: Set<String> = ["body only", "bands", "exercise ball", "foam roll"]

    /// Whether sets of the exercise are planned with a weight: not for bodyweight moves (no equipment given counts as
    /// bodyweight, as `EquipmentSet` reads the catalog) nor bands.
    static func isWeighted(_ exercise: Exercise) -> Bool {
        guard let equipment = exercise.equipment?.lowercased() else { return false }
        return !unweighted.contains(equipment)
    }

    /// Whether two weighted exercises are close variants of one movement: the same equipment, mechanic and force, and
    /// the same primary muscles ("Barbell Squat" and "Front Barbell Squat"; "Dumbbell Bench Press" and "Incline
    /// Dumbbell Press"), so that one's e1RM says something about the other's. Never an exercise with itself.
    static func areClose(_ one: Exercise, _ other: Exercise) -> Bool {
        one.id != other.id && isWeighted(one) && isWeighted(other) && one.equipment?.lowercased() == other.equipment?.lowercased()
            && one.mechanic != nil && one.mechanic == other.mechanic && one.force == other.force
            && Set(one.primaryMuscles.map { $0.lowercased() }) == Set(other.primaryMuscles.map { $0.lowercased() })
    }
}
