/// What a user asked for when they asked the coach for a training routine (`Understood.planRequest`).
///
/// Every field but `goal` may be unknown: the coach asks for what is missing (`PlanQuestions.missing(_:)`)
/// before `RoutinePlanner` plans. `goal` has a default (hypertrophy), since a routine built for muscle is a
/// sensible plan for anyone who did not say otherwise.
public struct PlanRequest: Sendable, Equatable {
    /// Training days a week, 1…7; nil when the user named none.
    public var days: Int?
    /// The split the user named; nil lets the planner choose one from `days`.
    public var split: Split?
    /// What the user has to train with; nil when they did not say.
    public var equipment: EquipmentSet?
    /// What the routine is for.
    public var goal: Goal
    /// The longest session the user can train, in minutes; nil for no limit (the planner assumes an hour).
    public var minutes: Int?
    /// Body areas to spare, in the reader's words: "knees", "lower back", "shoulders".
    public var avoid: [String]
    /// Exercises the user does not want, in the reader's words ("lunges", "burpees"): no exercise whose name holds
    /// one is planned (`ExercisePool`).
    public var dislikes: [String]

    public init(
        days: Int? = nil, split: Split? = nil, equipment: EquipmentSet? = nil, goal: Goal = .hypertrophy, minutes: Int? = nil,
        avoid: [String] = [], dislikes: [String] = []
    ) {
        self.days = days
        self.split = split
        self.equipment = equipment
        self.goal = goal
        self.minutes = minutes
        self.avoid = avoid
        self.dislikes = dislikes
    }

    /// The days a week to plan for: the ones the user named, else the ones their split implies.
    public var plannedDays: Int? { days ?? split?.impliedDays }

    /// How the week's training is divided into sessions.
    public enum Split: String, Sendable, Equatable, CaseIterable {
        /// Every session trains the whole body.
        case fullBody
        /// Upper-body and lower-body sessions in turn.
        case upperLower
        /// Push (chest, shoulders, triceps), pull (back, biceps) and legs sessions in turn.
        case pushPullLegs
        /// Upper, lower, push, pull, legs: the five-day hybrid.
        case upperLowerPushPullLegs
        /// One or two body parts a session ("bro split").
        case bodyPart

        /// The days a week the split means when the user names it with no number ("push pull legs": 3).
        public var impliedDays: Int {
            switch self {
            case .fullBody: 3
            case .upperLower: 4
            case .pushPullLegs: 3
            case .upperLowerPushPullLegs: 5
            case .bodyPart: 5
            }
        }

        /// The fewest days a week that cover every session of the split once; with fewer the planner chooses
        /// another split (see `RoutinePlanner`).
        public var minimumDays: Int {
            switch self {
            case .fullBody: 1
            case .upperLower: 2
            case .pushPullLegs: 3
            case .upperLowerPushPullLegs: 5
            case .bodyPart: 3
            }
        }

        /// The split's name as a routine's name shows it.
        public var title: String {
            switch self {
            case .fullBody: "Full Body"
            case .upperLower: "Upper/Lower"
            case .pushPullLegs: "Push/Pull/Legs"
            case .upperLowerPushPullLegs: "Upper/Lower/Push/Pull/Legs"
            case .bodyPart: "Body-Part Split"
            }
        }
    }

    /// What the routine is for; it sets the sets, reps and effort of every exercise (`SetPrescription`).
    public enum Goal: String, Sendable, Equatable, CaseIterable {
        /// Heavier, fewer reps: 3–6 reps, 2–3 in reserve.
        case strength
        /// Muscle size: 8–12 reps, 1–2 in reserve. The default.
        case hypertrophy
        /// Muscular endurance and conditioning: 12–20 reps.
        case endurance
        /// General fitness and health: moderate 8–12 reps, 2–3 in reserve.
        case general
    }
}
