/// The commonness prior of catalog search: the exercises lifters mean when they type a lift's plain name.
///
/// The catalog (free-exercise-db) names no lift plainly: there is no "Squat", only "Barbell Squat" among fifty
/// squats, and by words alone "squat" finds "Squat Jerk" and "Squat with Bands" first (their names start with the
/// query) and "deadlift" "Deadlift with Bands". Word matching cannot tell the staple from the curiosity, so this
/// table says it once, by catalog id: a match with one of these exercises gains `boost` quality points.
///
/// Two tiers, so one family's staples fall in a sensible order:
/// - `standard`: the lift as its plain name means it, one per movement ("squat" is the barbell back squat,
///   "row" the bent-over barbell row, "curl" the barbell curl). Its boost (12) outweighs a name starting with the
///   query (+8) and a word typed in full against one completed from a prefix (6 against 4), but not the whole name
///   equal to the query (+20): "Squat Jerk" still comes first for "squat jerk", and "Romanian Deadlift" for its
///   name.
/// - `common`: popular variants (the dumbbell bench press, the Romanian deadlift, the seated cable row). Their
///   boost (10) lifts them over obscure namesakes but keeps them under the standard lift, so "bench press" answers
///   the barbell bench press before the dumbbell one.
///
/// The boost is given only to matches whose words were all typed in full or as prefixes, never to a word matched
/// by a typo: the prior orders what the user asked for, it never lifts a guess over a word they typed ("back"
/// still finds every name holding "back" before "Hack Squat"). Exercises absent from an imported catalog are simply
/// not boosted. `SearchRelevanceTests` holds the queries this table is tuned for; change it with them.
enum StapleExercises {
    /// How common a staple is.
    enum Tier: Sendable {
        case standard
        case common

        /// Quality points a match with the exercise gains (see the type's comment for why these values).
        var boost: Int {
            switch self {
            case .standard: 12
            case .common: 10
            }
        }
    }

    /// The largest boost of any tier: an alias's hit ranks above anything a query's words can score with it.
    static let maxBoost = 12

    /// The tier of each staple, by catalog id.
    static let tiers: [String: Tier] = {
        var tiers: [String: Tier] = [:]
        for id in standard { tiers[id] = .standard }
        for id in common { tiers[id] = .common }
        return tiers
    }()

    /// The lift each plain name means.
    static let standard: [String] = [
        "Barbell_Squat", "Barbell_Deadlift", "Barbell_Bench_Press_-_Medium_Grip", "Standing_Military_Press",
        "Bent_Over_Barbell_Row", "Pullups", "Chin-Up", "Dips_-_Triceps_Version", "Pushups", "Barbell_Curl",
        "Wide-Grip_Lat_Pulldown", "Leg_Press", "Lying_Leg_Curls", "Leg_Extensions", "Standing_Calf_Raises",
        "Barbell_Shrug", "Side_Lateral_Raise", "Triceps_Pushdown", "Barbell_Hip_Thrust", "Barbell_Lunge", "Crunches",
        "Hyperextensions_Back_Extensions",
    ]

    /// Popular variants, ranked under the standard lift of their family.
    static let common: [String] = [
        // Squats and deadlifts
        "Front_Barbell_Squat", "Goblet_Squat", "Hack_Squat", "Split_Squat_with_Dumbbells", "Romanian_Deadlift",
        "Sumo_Deadlift", "Trap_Bar_Deadlift", "Stiff-Legged_Barbell_Deadlift", "Good_Morning", "Barbell_Glute_Bridge",
        "Dumbbell_Lunges",
        // Presses and flyes
        "Dumbbell_Bench_Press", "Barbell_Incline_Bench_Press_-_Medium_Grip", "Incline_Dumbbell_Press",
        "Close-Grip_Barbell_Bench_Press", "Dumbbell_Shoulder_Press", "Arnold_Dumbbell_Press", "Push_Press",
        "Leverage_Chest_Press", "Dumbbell_Flyes", "Cable_Crossover", "Butterfly",
        // Pulls and rows
        "Seated_Cable_Rows", "One-Arm_Dumbbell_Row", "T-Bar_Row_with_Handle", "Inverted_Row", "Upright_Barbell_Row",
        "Close-Grip_Front_Lat_Pulldown", "Straight-Arm_Pulldown", "Face_Pull", "Reverse_Flyes", "Dumbbell_Shrug",
        // Arms
        "Dumbbell_Bicep_Curl", "Hammer_Curls", "Preacher_Curl", "EZ-Bar_Curl", "EZ-Bar_Skullcrusher",
        "Standing_Dumbbell_Triceps_Extension", "Cable_Rope_Overhead_Triceps_Extension", "Tricep_Dumbbell_Kickback",
        // Legs, core and the rest
        "Thigh_Abductor", "Thigh_Adductor", "Hanging_Leg_Raise", "Cable_Crunch", "Russian_Twist",
        "One-Arm_Kettlebell_Swings", "Farmers_Walk", "Power_Clean",
    ]

    /// The boost of a match with this exercise (0 for any other).
    static func boost(id: String) -> Int {
        tiers[id]?.boost ?? 0
    }
}
