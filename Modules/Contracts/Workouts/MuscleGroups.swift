import Foundation

/// Muscle groups as lifters name them ("back", "legs", "arms") and the catalog muscles each stands for, so a muscle
/// filter or a muscle's progress answers to either: the catalog's search (`ExerciseQuery.muscle`), Analytics'
/// `getMuscleGroupProgress` and `queryTrainingSets`, and the coach read a group as any of its muscles. A catalog muscle
/// ("chest", "lats", "middle back") stands for itself.
public enum MuscleGroups {
    /// The groups that are no catalog muscle (free-exercise-db), by the names lifters use, and their muscles.
    public static let groups: [String: [String]] = [
        "back": ["lats", "middle back", "lower back", "traps"], "upper back": ["lats", "middle back", "traps"],
        "arms": ["biceps", "triceps", "forearms"], "arm": ["biceps", "triceps", "forearms"],
        "legs": ["quadriceps", "hamstrings", "glutes", "calves", "adductors", "abductors"],
        "leg": ["quadriceps", "hamstrings", "glutes", "calves", "adductors", "abductors"],
        "quads": ["quadriceps"], "quad": ["quadriceps"], "hams": ["hamstrings"], "hamstring": ["hamstrings"],
        "glute": ["glutes"], "calf": ["calves"], "bicep": ["biceps"], "tricep": ["triceps"], "lat": ["lats"],
        "core": ["abdominals"], "abs": ["abdominals"], "delts": ["shoulders"], "pecs": ["chest"],
    ]

    /// The catalog muscles a name stands for, lower case: a group's, else the name itself (trimmed, "_" read as a
    /// space).
    public static func muscles(for name: String) -> [String] {
        let key = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased().replacingOccurrences(of: "_", with: " ")
        return groups[key] ?? [key]
    }
}
