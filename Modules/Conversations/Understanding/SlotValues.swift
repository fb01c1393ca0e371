import Contracts

/// A muscle group as lifters name it, with the catalog muscles it stands for.
public enum MuscleGroup: String, Sendable, CaseIterable, Codable {
    case chest, back, lats, traps
    case lowerBack = "lower_back"
    case shoulders, arms, biceps, triceps, forearms, legs, quads, hamstrings, glutes, calves, core

    /// The catalog's muscle names (free-exercise-db) this group covers: "back" is the lats, middle and lower back and
    /// traps; "legs" every muscle below the hips; "core" the abdominals.
    public var catalogMuscles: [String] {
        MuscleGroups.muscles(for: rawValue)
    }
}

/// A body area to spare: hurt, injured or weak.
public enum BodyArea: String, Sendable, CaseIterable, Codable {
    case knees
    case lowerBack = "lower_back"
    case shoulders, elbows, wrists, hips, neck, ankles

    /// The area in the planner's words (`PlanRequest.avoid`, `SwapFinder`): "knees", "lower back", "shoulders" ….
    public var planName: String {
        self == .lowerBack ? "lower back" : rawValue
    }
}

/// The kind of single session asked for: "push workout", "leg day", "upper body session". A full-body session is the
/// `split` slot.
public enum SessionFocus: String, Sendable, CaseIterable, Codable {
    case push, pull, legs, upper, lower
}

/// How experienced the user says they are.
public enum Experience: String, Sendable, CaseIterable, Codable {
    case beginner, intermediate, advanced
}

/// What a change to a routine does with what it names: add it, remove it, or train it more or less.
public enum RoutineEdit: String, Sendable, CaseIterable, Codable {
    case add, remove, more, less
}

/// An exercise to replace and, when named, the one to put in its place (both as the user named them, written the
/// way `MessageSlots.exercises` writes them).
public struct SwapTarget: Sendable, Equatable, Hashable {
    public var from: String?
    public var to: String?

    public init(from: String?, to: String?) {
        self.from = from
        self.to = to
    }
}

/// When a message is about: "today", "last week", "the past 6 weeks".
public enum TimeReference: Sendable, Equatable, Hashable {
    case today, tomorrow, yesterday
    /// "lately", "recently".
    case recent
    case thisWeek, lastWeek, thisMonth, lastMonth, thisYear, lastYear
    /// "the last 10 days".
    case pastDays(Int)
    /// "the past 6 weeks", "the past week" (1).
    case pastWeeks(Int)
    /// "the last 3 months", "the past month" (1).
    case pastMonths(Int)
}
