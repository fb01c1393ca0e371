/// A program lifters know by name, with the structure that makes it that program: its days, split, goal and the
/// rep scheme and progression it is known for (from each program's own published description).
public enum NamedProgram: String, Sendable, CaseIterable, Codable {
    /// StrongLifts 5×5 ("5x5", "stronglifts").
    case stronglifts
    /// Starting Strength (Rippetoe).
    case startingStrength = "starting_strength"
    /// Power Hypertrophy Upper Lower.
    case phul
    /// Wendler's 5/3/1 ("531", "boring but big").
    case fiveThreeOne = "531"
    /// GZCLP, Cody Lefever's linear progression.
    case gzclp

    /// The program's name as a routine's name shows it.
    public var title: String {
        switch self {
        case .stronglifts: "StrongLifts 5×5"
        case .startingStrength: "Starting Strength"
        case .phul: "PHUL"
        case .fiveThreeOne: "5/3/1"
        case .gzclp: "GZCLP"
        }
    }

    /// Training days a week as the program is written.
    public var days: Int {
        switch self {
        case .stronglifts, .startingStrength: 3
        case .phul, .fiveThreeOne, .gzclp: 4
        }
    }

    /// How the week is divided: the beginner programs train the whole body each session; PHUL and 5/3/1 split upper
    /// and lower main lifts.
    public var split: PlanRequest.Split {
        switch self {
        case .stronglifts, .startingStrength, .gzclp: .fullBody
        case .phul, .fiveThreeOne: .upperLower
        }
    }

    /// What the program is for: strength for all of them but PHUL, whose hypertrophy days are half the week.
    public var goal: PlanRequest.Goal {
        self == .phul ? .hypertrophy : .strength
    }

    /// Who the program is written for.
    public var experience: Experience {
        switch self {
        case .stronglifts, .startingStrength, .gzclp: .beginner
        case .phul, .fiveThreeOne: .intermediate
        }
    }

    /// The sessions, rep scheme and progression, in a sentence or two.
    public var scheme: String {
        switch self {
        case .stronglifts:
            "Two workouts alternated three days a week: A is squat, bench press and barbell row, B is squat, overhead press "
                + "and deadlift; 5 sets of 5 (deadlift 1 of 5). Add 2.5 kg every session (deadlift 5 kg); after three failed "
                + "sessions on a lift, take 10% off it."
        case .startingStrength:
            "Two workouts alternated three days a week: A is squat, press and deadlift, B is squat, bench press and power "
                + "clean; 3 sets of 5 (deadlift 1 of 5, power clean 5 of 3), more weight every session."
        case .phul:
            "Four days: upper power and lower power (heavy compounds, 3–5 reps), then upper and lower hypertrophy (8–12 "
                + "reps, more accessories); add weight when every set reaches the top of its range."
        case .fiveThreeOne:
            "Four days, one main lift each (overhead press, deadlift, bench press, squat) worked from a training max of 90% "
                + "of the 1RM: weeks of 5, 3 and 5/3/1 reps with the last set for as many as possible, then a deload; the "
                + "training max rises 2.5 kg (upper) or 5 kg (lower) a cycle. Boring But Big adds 5 sets of 10 at 50–60%."
        case .gzclp:
            "Four days in A1, B1, A2, B2 order, each with a tier-1 main lift (5×3, last set as many as possible), a tier-2 "
                + "lift (3×10) and a tier-3 accessory (3×15+); weight goes up every session, and a failed stage moves to "
                + "the next rep scheme (6×2, 10×1 for T1; 3×8, 3×6 for T2)."
        }
    }
}
