/// The words lifters name exercises with: modifiers ("incline", "db", "close grip") and movements ("press", "rdl",
/// "pull ups"), each with the way the reader writes it (abbreviations spelled out, singular). An exercise is any
/// modifiers followed by a movement ("incline db press" is "incline dumbbell press"); a few movements need a
/// modifier ("lateral raise", "hip thrust", "cable fly", not "raise").
enum ExerciseLexicon {
    /// Written forms of modifiers, with the name they take.
    static let modifiers = PhraseTable<String>(
        [
            ("incline", "incline"), ("decline", "decline"), ("flat", "flat"), ("dumbbell", "dumbbell"), ("dumbbells", "dumbbell"),
            ("dumbell", "dumbbell"), ("dumbells", "dumbbell"), ("db", "dumbbell"), ("dbs", "dumbbell"), ("barbell", "barbell"),
            ("bb", "barbell"), ("cable", "cable"), ("cables", "cable"), ("machine", "machine"), ("smith machine", "smith machine"),
            ("smith", "smith machine"), ("close grip", "close grip"), ("closegrip", "close grip"), ("wide grip", "wide grip"),
            ("narrow grip", "narrow grip"), ("front", "front"), ("back", "back"), ("overhead", "overhead"), ("seated", "seated"),
            ("standing", "standing"), ("lying", "lying"), ("romanian", "romanian"), ("sumo", "sumo"), ("conventional", "conventional"),
            ("stiff leg", "stiff leg"), ("stiff legged", "stiff leg"), ("straight leg", "straight leg"), ("goblet", "goblet"),
            ("bulgarian", "bulgarian"), ("split", "split"), ("hack", "hack"), ("box", "box"), ("pause", "paused"), ("paused", "paused"),
            ("deficit", "deficit"), ("leg", "leg"), ("lateral", "lateral"), ("side", "side"), ("rear delt", "rear delt"),
            ("rear", "rear"), ("reverse", "reverse"), ("hammer", "hammer"), ("preacher", "preacher"), ("concentration", "concentration"),
            ("ez bar", "ez bar"), ("ez", "ez bar"), ("ezbar", "ez bar"), ("tricep", "tricep"), ("triceps", "tricep"), ("bicep", "bicep"),
            ("biceps", "bicep"), ("calf", "calf"), ("hip", "hip"), ("lat", "lat"), ("t bar", "t bar"), ("tbar", "t bar"),
            ("pendlay", "pendlay"), ("bent over", "bent over"), ("one arm", "one arm"), ("1 arm", "one arm"), ("single arm", "one arm"),
            ("single leg", "single leg"), ("weighted", "weighted"), ("assisted", "assisted"), ("walking", "walking"),
            ("military", "military"), ("shoulder", "shoulder"), ("chest", "chest"), ("chest supported", "chest supported"),
            ("arnold", "arnold"), ("upright", "upright"), ("landmine", "landmine"), ("floor", "floor"), ("kettlebell", "kettlebell"),
            ("kettlebells", "kettlebell"), ("kb", "kettlebell"), ("banded", "banded"), ("band", "band"), ("bodyweight", "bodyweight"),
            ("jump", "jump"), ("nordic", "nordic"), ("seal", "seal"), ("inverted", "inverted"), ("pec", "pec"), ("rope", "rope"),
            ("straight arm", "straight arm"), ("trap bar", "trap bar"), ("power", "power"), ("hang", "hang"), ("kneeling", "kneeling"),
            ("zercher", "zercher"), ("handstand", "handstand"), ("pike", "pike"), ("diamond", "diamond"), ("spider", "spider"),
            ("zottman", "zottman"), ("cossack", "cossack"), ("sissy", "sissy"), ("hanging", "hanging"), ("russian", "russian"),
            ("glute", "glute"), ("single", "single"),
        ])

    /// A movement's name and whether it needs a modifier before it.
    struct Movement: Sendable {
        let name: String
        let needsModifier: Bool
    }

    /// Written forms of movements, with the name they take.
    static let movements = PhraseTable<Movement>(
        movementForms.flatMap { name, forms, needsModifier in forms.map { ($0, Movement(name: name, needsModifier: needsModifier)) } })

    static let movementForms: [(name: String, forms: [String], needsModifier: Bool)] = [
        ("squat", ["squat", "squats", "squatting", "squatted"], false),
        ("deadlift", ["deadlift", "deadlifts", "deadlifting", "deadlifted", "deads", "dead lift", "dead lifts"], false),
        ("bench press", ["bench press", "bench presses", "benchpress", "bench pressing"], false),
        ("bench", ["bench", "benching", "benched"], false),
        ("overhead press", ["ohp", "ohps"], false),
        ("romanian deadlift", ["rdl", "rdls"], false),
        ("stiff leg deadlift", ["sldl", "sldls"], false),
        ("bulgarian split squat", ["bss"], false),
        ("press", ["press", "presses", "pressing"], false),
        ("row", ["row", "rows", "rowing"], false),
        ("curl", ["curl", "curls", "curling"], false),
        ("raise", ["raise", "raises"], true),
        ("fly", ["fly", "flys", "flies"], true),
        ("fly", ["flyes"], false),
        ("extension", ["extension", "extensions", "ext", "exts"], true),
        ("pushdown", ["pushdown", "pushdowns", "push down", "push downs"], false),
        ("pulldown", ["pulldown", "pulldowns", "pull down", "pull downs"], false),
        ("pull up", ["pull up", "pull ups", "pullup", "pullups"], false),
        ("chin up", ["chin up", "chin ups", "chinup", "chinups"], false),
        ("push up", ["push up", "push ups", "pushup", "pushups", "press up", "press ups"], false),
        ("sit up", ["sit up", "sit ups", "situp", "situps"], false),
        ("step up", ["step up", "step ups", "stepup", "stepups"], false),
        ("muscle up", ["muscle up", "muscle ups"], false),
        ("dip", ["dip", "dips", "dipping"], false),
        ("lunge", ["lunge", "lunges", "lunging"], false),
        ("shrug", ["shrug", "shrugs"], false),
        ("thrust", ["thrust", "thrusts"], true),
        ("hip thrust", ["hipthrust", "hipthrusts"], false),
        ("bridge", ["bridge", "bridges"], true),
        ("crunch", ["crunch", "crunches"], false),
        ("plank", ["plank", "planks"], false),
        ("kickback", ["kickback", "kickbacks", "kick back", "kick backs"], false),
        ("swing", ["swing", "swings"], true),
        ("crossover", ["crossover", "crossovers", "cross over", "cross overs"], false),
        ("pec deck", ["pec deck", "pecdeck", "pec dec"], false),
        ("good morning", ["good mornings"], false),
        ("good morning", ["good morning"], true),
        ("face pull", ["face pull", "face pulls", "facepull", "facepulls"], false),
        ("skull crusher", ["skull crusher", "skull crushers", "skullcrusher", "skullcrushers"], false),
        ("farmer walk", ["farmer walk", "farmers walk", "farmer walks", "farmers walks", "farmer carry", "farmers carry"], false),
        ("trap bar", ["trap bar"], false),
        ("clean", ["clean", "cleans"], true),
        ("clean and jerk", ["clean and jerk"], false),
        ("snatch", ["snatch", "snatches"], false),
        ("burpee", ["burpee", "burpees"], false),
        ("thruster", ["thruster", "thrusters"], false),
        ("pullover", ["pullover", "pullovers"], false),
        ("rollout", ["rollout", "rollouts", "roll out", "roll outs"], false),
        ("ab wheel", ["ab wheel"], false),
        ("twist", ["twist", "twists"], true),
        ("mountain climber", ["mountain climber", "mountain climbers"], false),
        ("leg press", ["legpress"], false),
        ("rack pull", ["rack pull", "rack pulls"], false),
        ("lat pulldown", ["lat pull down", "lat pull downs"], false),
    ]

    /// Modifiers that name a body part: before a verb ("my shoulder benching") they are the body, not the lift.
    static let bodyModifiers: Set<String> = [
        "shoulder", "chest", "back", "leg", "calf", "hip", "lat", "tricep", "bicep", "glute", "pec", "rear delt", "rear",
    ]
    /// Words after "a bench" that make it the lift after all ("a bench pr").
    static let liftWordsAfter: Set<String> = [
        "pr", "prs", "max", "1rm", "e1rm", "personal", "record", "set", "sets", "day", "session", "numbers", "progress",
    ]
    /// Words before "bench" that make it a piece of equipment ("a bench", "no bench"), not the lift.
    static let benchAsEquipment: Set<String> = ["a", "an", "no", "adjustable", "any", "weight", "own"]
    /// Words before a singular "good morning" that make it the lift, not a greeting ("do good mornings", "the good morning").
    static let liftDeterminers: Set<String> = ["the", "my", "some", "do", "doing", "and", "or", "for", "with", "of"]
}
