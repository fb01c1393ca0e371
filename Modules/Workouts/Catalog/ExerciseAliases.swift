/// Names other apps give common lifts, with the catalog exercise each means.
///
/// Strong exports "Name (Equipment)" ("Squat (Barbell)", "Lat Pulldown (Cable)"), Hevy much the same with its own
/// wording ("Seated Cable Row - V Grip (Cable)"), and lifters type a few names the catalog never uses ("Overhead
/// Press", "Pec Deck"). Such names find the wrong exercise or none by words: "Overhead Press (Barbell)" shares no
/// word with "Standing Military Press". This table names the exercise for each, by catalog id, so an import maps a
/// workout log without guessing and a search for the name answers the exercise first.
///
/// Names are matched folded (`CatalogIndex.fold`: case, accents and punctuation aside), so "Pull-Up" and "pull up"
/// are one alias. A name the catalog itself uses for an exercise is no alias of another one (a test checks it),
/// and every target exists in the bundled catalog (a test checks that too). Where the catalog lacks the exact lift
/// the nearest one is named, noted beside it. An exercise missing from an imported catalog is simply not found.
enum ExerciseAliases {
    /// Exported name → catalog id, as written by the apps (folded when looked up).
    static let table: [(name: String, id: String)] = [
        // Squats
        ("Squat (Barbell)", "Barbell_Squat"), ("Back Squat", "Barbell_Squat"), ("Back Squat (Barbell)", "Barbell_Squat"),
        ("Front Squat (Barbell)", "Front_Barbell_Squat"), ("Front Squat", "Front_Barbell_Squat"),
        ("Squat (Dumbbell)", "Dumbbell_Squat"), ("Squat (Smith Machine)", "Smith_Machine_Squat"),
        ("Squat (Bodyweight)", "Bodyweight_Squat"), ("Air Squat", "Bodyweight_Squat"), ("Box Squat (Barbell)", "Box_Squat"),
        ("Overhead Squat (Barbell)", "Overhead_Squat"), ("Goblet Squat (Kettlebell)", "Goblet_Squat"),
        ("Goblet Squat (Dumbbell)", "Goblet_Squat"), ("Goblet Squat", "Goblet_Squat"), ("Hack Squat (Machine)", "Hack_Squat"),
        // The catalog's split squat with dumbbells is the nearest to a rear-foot-elevated one.
        ("Bulgarian Split Squat", "Split_Squat_with_Dumbbells"), ("Bulgarian Split Squat (Dumbbell)", "Split_Squat_with_Dumbbells"),
        ("Leg Press (Machine)", "Leg_Press"), ("Leg Press", "Leg_Press"),
        ("Lunge (Barbell)", "Barbell_Lunge"), ("Lunge (Dumbbell)", "Dumbbell_Lunges"), ("Walking Lunge", "Bodyweight_Walking_Lunge"),
        ("Walking Lunge (Barbell)", "Barbell_Walking_Lunge"), ("Step Up (Dumbbell)", "Dumbbell_Step_Ups"),
        ("Step Up (Barbell)", "Barbell_Step_Ups"),
        // Hinges
        ("Deadlift (Barbell)", "Barbell_Deadlift"), ("Conventional Deadlift", "Barbell_Deadlift"),
        ("Romanian Deadlift (Barbell)", "Romanian_Deadlift"),
        // No dumbbell RDL in the catalog: the stiff-legged dumbbell deadlift is the same hinge.
        ("Romanian Deadlift (Dumbbell)", "Stiff-Legged_Dumbbell_Deadlift"),
        ("Stiff Leg Deadlift (Barbell)", "Stiff-Legged_Barbell_Deadlift"),
        ("Straight Leg Deadlift (Barbell)", "Stiff-Legged_Barbell_Deadlift"),
        ("Stiff Leg Deadlift (Dumbbell)", "Stiff-Legged_Dumbbell_Deadlift"), ("Sumo Deadlift (Barbell)", "Sumo_Deadlift"),
        ("Trap Bar Deadlift", "Trap_Bar_Deadlift"), ("Deadlift (Trap Bar)", "Trap_Bar_Deadlift"), ("Rack Pull (Barbell)", "Rack_Pulls"),
        ("Rack Pull", "Rack_Pulls"), ("Deficit Deadlift (Barbell)", "Deficit_Deadlift"), ("Good Morning (Barbell)", "Good_Morning"),
        ("Hip Thrust (Barbell)", "Barbell_Hip_Thrust"), ("Glute Bridge", "Butt_Lift_Bridge"),
        ("Glute Bridge (Barbell)", "Barbell_Glute_Bridge"), ("Back Extension", "Hyperextensions_Back_Extensions"),
        ("Back Extension (Hyperextension)", "Hyperextensions_Back_Extensions"), ("Hyperextension", "Hyperextensions_Back_Extensions"),
        // Chest
        ("Bench Press (Barbell)", "Barbell_Bench_Press_-_Medium_Grip"), ("Bench Press (Dumbbell)", "Dumbbell_Bench_Press"),
        ("Bench Press (Smith Machine)", "Smith_Machine_Bench_Press"),
        ("Bench Press - Close Grip (Barbell)", "Close-Grip_Barbell_Bench_Press"),
        ("Close Grip Bench Press", "Close-Grip_Barbell_Bench_Press"),
        ("Bench Press - Wide Grip (Barbell)", "Wide-Grip_Barbell_Bench_Press"),
        ("Incline Bench Press (Barbell)", "Barbell_Incline_Bench_Press_-_Medium_Grip"),
        ("Incline Bench Press (Dumbbell)", "Incline_Dumbbell_Press"),
        ("Incline Bench Press (Smith Machine)", "Smith_Machine_Incline_Bench_Press"),
        ("Decline Bench Press (Barbell)", "Decline_Barbell_Bench_Press"),
        ("Decline Bench Press (Dumbbell)", "Decline_Dumbbell_Bench_Press"),
        ("Chest Press (Machine)", "Leverage_Chest_Press"), ("Chest Fly (Dumbbell)", "Dumbbell_Flyes"), ("Chest Fly", "Dumbbell_Flyes"),
        ("Incline Chest Fly (Dumbbell)", "Incline_Dumbbell_Flyes"), ("Chest Fly (Machine)", "Butterfly"), ("Pec Deck", "Butterfly"),
        ("Pec Deck (Machine)", "Butterfly"), ("Butterfly (Pec Deck)", "Butterfly"), ("Cable Crossover", "Cable_Crossover"),
        ("Cable Fly Crossovers", "Cable_Crossover"), ("Chest Fly (Cable)", "Cable_Crossover"), ("Push Up", "Pushups"),
        ("Chest Dip", "Dips_-_Chest_Version"), ("Triceps Dip", "Dips_-_Triceps_Version"), ("Dip", "Dips_-_Triceps_Version"),
        ("Bench Dip", "Bench_Dips"),
        // Shoulders
        ("Overhead Press (Barbell)", "Standing_Military_Press"), ("Overhead Press", "Standing_Military_Press"),
        ("Strict Press", "Standing_Military_Press"),
        ("Seated Overhead Press (Barbell)", "Seated_Barbell_Military_Press"), ("Overhead Press (Dumbbell)", "Dumbbell_Shoulder_Press"),
        ("Shoulder Press (Dumbbell)", "Dumbbell_Shoulder_Press"), ("Seated Shoulder Press (Dumbbell)", "Dumbbell_Shoulder_Press"),
        ("Shoulder Press (Machine)", "Leverage_Shoulder_Press"),
        ("Overhead Press (Smith Machine)", "Smith_Machine_Overhead_Shoulder_Press"),
        ("Arnold Press (Dumbbell)", "Arnold_Dumbbell_Press"), ("Push Press (Barbell)", "Push_Press"),
        ("Lateral Raise (Dumbbell)", "Side_Lateral_Raise"), ("Front Raise (Dumbbell)", "Front_Dumbbell_Raise"),
        ("Front Raise (Cable)", "Front_Cable_Raise"),
        ("Reverse Fly (Dumbbell)", "Reverse_Flyes"), ("Rear Delt Reverse Fly (Dumbbell)", "Reverse_Flyes"),
        ("Reverse Fly (Machine)", "Reverse_Machine_Flyes"), ("Rear Delt Reverse Fly (Machine)", "Reverse_Machine_Flyes"),
        ("Face Pull (Cable)", "Face_Pull"), ("Upright Row (Barbell)", "Upright_Barbell_Row"),
        ("Upright Row (Dumbbell)", "Standing_Dumbbell_Upright_Row"), ("Upright Row (Cable)", "Upright_Cable_Row"),
        ("Shrug (Barbell)", "Barbell_Shrug"), ("Shrug (Dumbbell)", "Dumbbell_Shrug"),
        // Back
        ("Lat Pulldown (Cable)", "Wide-Grip_Lat_Pulldown"), ("Lat Pulldown (Machine)", "Wide-Grip_Lat_Pulldown"),
        ("Lat Pulldown - Close Grip (Cable)", "Close-Grip_Front_Lat_Pulldown"),
        ("Close Grip Lat Pulldown", "Close-Grip_Front_Lat_Pulldown"), ("Pull Up", "Pullups"), ("Pull Up (Band)", "Band_Assisted_Pull-Up"),
        ("Assisted Pull Up", "Band_Assisted_Pull-Up"), ("Weighted Pull Up", "Weighted_Pull_Ups"),
        ("Pull Up (Weighted)", "Weighted_Pull_Ups"),
        ("Chin Up", "Chin-Up"), ("Seated Cable Row", "Seated_Cable_Rows"), ("Seated Row (Cable)", "Seated_Cable_Rows"),
        ("Seated Cable Row - V Grip (Cable)", "Seated_Cable_Rows"), ("Seated Cable Row - Bar Grip", "Seated_Cable_Rows"),
        ("Seated Row (Machine)", "Leverage_Iso_Row"), ("Bent Over Row (Barbell)", "Bent_Over_Barbell_Row"),
        ("Bent Over Row (Dumbbell)", "Bent_Over_Two-Dumbbell_Row"),
        ("Bent Over One Arm Row (Dumbbell)", "One-Arm_Dumbbell_Row"), ("Dumbbell Row", "One-Arm_Dumbbell_Row"),
        ("T Bar Row", "T-Bar_Row_with_Handle"), ("Inverted Row (Bodyweight)", "Inverted_Row"),
        ("Straight Arm Pulldown (Cable)", "Straight-Arm_Pulldown"), ("Pullover (Dumbbell)", "Straight-Arm_Dumbbell_Pullover"),
        // Arms
        ("Bicep Curl (Barbell)", "Barbell_Curl"), ("Bicep Curl (Dumbbell)", "Dumbbell_Bicep_Curl"),
        ("Bicep Curl (Cable)", "Standing_Biceps_Cable_Curl"), ("Bicep Curl (Machine)", "Machine_Bicep_Curl"),
        ("EZ Bar Biceps Curl", "EZ-Bar_Curl"), ("Hammer Curl (Dumbbell)", "Hammer_Curls"), ("Hammer Curl", "Hammer_Curls"),
        ("Hammer Curl (Cable)", "Cable_Hammer_Curls_-_Rope_Attachment"), ("Preacher Curl (Barbell)", "Preacher_Curl"),
        ("Preacher Curl (Dumbbell)", "One_Arm_Dumbbell_Preacher_Curl"), ("Preacher Curl (Machine)", "Machine_Preacher_Curls"),
        ("Concentration Curl (Dumbbell)", "Concentration_Curls"), ("Concentration Curl", "Concentration_Curls"),
        ("Incline Curl (Dumbbell)", "Incline_Dumbbell_Curl"), ("Reverse Curl (Barbell)", "Reverse_Barbell_Curl"),
        ("Wrist Curl (Barbell)", "Seated_Palm-Up_Barbell_Wrist_Curl"),
        ("Triceps Pushdown (Cable - Straight Bar)", "Triceps_Pushdown"), ("Triceps Pushdown (Cable)", "Triceps_Pushdown"),
        ("Triceps Pushdown (Cable - Rope)", "Triceps_Pushdown_-_Rope_Attachment"),
        ("Triceps Rope Pushdown", "Triceps_Pushdown_-_Rope_Attachment"),
        ("Triceps Extension (Dumbbell)", "Standing_Dumbbell_Triceps_Extension"),
        ("Triceps Extension (Cable)", "Cable_Rope_Overhead_Triceps_Extension"),
        ("Overhead Triceps Extension (Cable)", "Cable_Rope_Overhead_Triceps_Extension"), ("Skullcrusher (Barbell)", "EZ-Bar_Skullcrusher"),
        ("Skullcrusher (EZ Bar)", "EZ-Bar_Skullcrusher"), ("Skull Crusher", "EZ-Bar_Skullcrusher"),
        ("Lying Triceps Extension", "EZ-Bar_Skullcrusher"),
        ("Triceps Kickback (Dumbbell)", "Tricep_Dumbbell_Kickback"), ("Triceps Kickback", "Tricep_Dumbbell_Kickback"),
        // Legs
        ("Leg Extension (Machine)", "Leg_Extensions"), ("Leg Extension", "Leg_Extensions"), ("Lying Leg Curl (Machine)", "Lying_Leg_Curls"),
        ("Lying Leg Curl", "Lying_Leg_Curls"), ("Seated Leg Curl (Machine)", "Seated_Leg_Curl"),
        ("Standing Calf Raise (Machine)", "Standing_Calf_Raises"), ("Calf Raise (Machine)", "Standing_Calf_Raises"),
        ("Standing Calf Raise", "Standing_Calf_Raises"), ("Seated Calf Raise (Machine)", "Seated_Calf_Raise"),
        ("Standing Calf Raise (Dumbbell)", "Standing_Dumbbell_Calf_Raise"),
        ("Standing Calf Raise (Barbell)", "Standing_Barbell_Calf_Raise"),
        ("Standing Calf Raise (Smith Machine)", "Smith_Machine_Calf_Raise"),
        ("Calf Press on Leg Press", "Calf_Press_On_The_Leg_Press_Machine"), ("Calf Press (Machine)", "Calf_Press"),
        ("Hip Abductor (Machine)", "Thigh_Abductor"), ("Hip Adductor (Machine)", "Thigh_Adductor"),
        // Core
        ("Plank", "Plank"), ("Side Plank", "Side_Bridge"), ("Crunch", "Crunches"), ("Crunch (Machine)", "Ab_Crunch_Machine"),
        ("Cable Crunch", "Cable_Crunch"), ("Sit Up", "Sit-Up"), ("Hanging Leg Raise", "Hanging_Leg_Raise"),
        ("Knee Raise (Captain's Chair)", "Knee_Hip_Raise_On_Parallel_Bars"), ("Lying Leg Raise", "Flat_Bench_Lying_Leg_Raise"),
        ("Russian Twist", "Russian_Twist"), ("Ab Wheel", "Ab_Roller"), ("Ab Wheel Rollout", "Ab_Roller"),
        // Olympic lifts, strongman and conditioning
        ("Power Clean", "Power_Clean"), ("Clean (Barbell)", "Clean"), ("Hang Clean (Barbell)", "Hang_Clean"),
        ("Clean and Jerk (Barbell)", "Clean_and_Jerk"), ("Snatch (Barbell)", "Snatch"),
        // The catalog's only kettlebell swing is one-armed.
        ("Kettlebell Swing", "One-Arm_Kettlebell_Swings"), ("Farmer's Walk", "Farmers_Walk"), ("Farmers Carry", "Farmers_Walk"),
        ("Mountain Climber", "Mountain_Climbers"), ("Jump Rope", "Rope_Jumping"), ("Running (Treadmill)", "Running_Treadmill"),
        ("Treadmill", "Running_Treadmill"), ("Cycling", "Bicycling"), ("Rowing (Machine)", "Rowing_Stationary"),
        ("Elliptical Trainer", "Elliptical_Trainer"), ("Stair Machine", "Stairmaster"),
    ]

    /// `table` by folded name. Should two names fold alike the first is kept (a test asserts none do).
    static let idsByFoldedName: [String: String] = Dictionary(
        table.map { (CatalogIndex.fold($0.name), $0.id) }, uniquingKeysWith: { first, _ in first })

    /// The catalog id of the exercise an app's exported name stands for, or nil when the name is no alias.
    /// Case, accents and punctuation do not matter ("squat (barbell)" is "Squat (Barbell)").
    static func exerciseId(forExportedName name: String) -> String? {
        idsByFoldedName[CatalogIndex.fold(name)]
    }

    /// The same for a name already folded (the search folds its query once).
    static func exerciseId(forFolded folded: String) -> String? {
        idsByFoldedName[folded]
    }
}
