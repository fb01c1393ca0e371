/// The curated exercises of each slot: free-exercise-db ids, the staple first, then alternatives across the
/// equipment kinds, in the order a coach would reach for them with a full gym.
///
/// The equipment of an id is the catalog's own (read at plan time with `exercise(id:)`), so the table only
/// orders; `EquipmentSet` decides which ids a user can do. Each list holds at least one id for every kind that can
/// do the movement at all (a dumbbell user's squat is `Dumbbell_Squat`, a bodyweight one's `Bodyweight_Squat`),
/// leaving out expert moves a beginner at home cannot do (the handstand push-up is the catalog's only bodyweight
/// overhead press, so a bodyweight routine presses overhead with none).
/// Rotating through a list gives the A/B/C days their variety: the second upper day of a full gym starts from the
/// second bench press. Every id's first primary muscle is one of the slot's `muscles`; `RoutinePlannerTests`
/// checks that against the bundled catalog, so the table and the catalog cannot drift apart silently.
extension MovementSlot {
    /// The slot's curated catalog ids, best first.
    var candidateIds: [String] {
        switch self {
        case .squat:
            [
                "Barbell_Squat", "Leg_Press", "Hack_Squat", "Front_Barbell_Squat", "Dumbbell_Squat", "Goblet_Squat",
                "Smith_Machine_Squat", "Front_Squats_With_Two_Kettlebells", "Plie_Dumbbell_Squat", "Squats_-_With_Bands",
                "Bodyweight_Squat",
            ]
        case .hinge:
            [
                "Romanian_Deadlift", "Barbell_Deadlift", "Stiff-Legged_Dumbbell_Deadlift", "Stiff-Legged_Barbell_Deadlift",
                "Smith_Machine_Stiff-Legged_Deadlift", "One-Arm_Kettlebell_Swings", "Kettlebell_One-Legged_Deadlift",
                "Band_Good_Morning", "Single_Leg_Glute_Bridge", "Hyperextensions_With_No_Hyperextension_Bench",
            ]
        case .singleLeg:
            [
                "Dumbbell_Lunges", "Barbell_Lunge", "Split_Squat_with_Dumbbells", "Barbell_Walking_Lunge", "Dumbbell_Step_Ups",
                "Smith_Single-Leg_Split_Squat", "Dumbbell_Rear_Lunge", "Bodyweight_Walking_Lunge",
            ]
        case .legCurl:
            ["Lying_Leg_Curls", "Seated_Leg_Curl", "Standing_Leg_Curl", "Natural_Glute_Ham_Raise", "Floor_Glute-Ham_Raise"]
        case .legExtension:
            ["Leg_Extensions", "Single-Leg_Leg_Extension"]
        case .glutes:
            [
                "Barbell_Hip_Thrust", "Barbell_Glute_Bridge", "One-Legged_Cable_Kickback", "Hip_Lift_with_Band", "Single_Leg_Glute_Bridge",
                "Butt_Lift_Bridge",
            ]
        case .calves:
            [
                "Standing_Calf_Raises", "Seated_Calf_Raise", "Standing_Barbell_Calf_Raise", "Standing_Dumbbell_Calf_Raise",
                "Calf_Press_On_The_Leg_Press_Machine", "Dumbbell_Seated_One-Leg_Calf_Raise", "Calf_Raises_-_With_Bands",
            ]
        case .horizontalPush:
            [
                "Barbell_Bench_Press_-_Medium_Grip", "Dumbbell_Bench_Press", "Leverage_Chest_Press", "Cable_Chest_Press",
                "Smith_Machine_Bench_Press", "Dumbbell_Bench_Press_with_Neutral_Grip", "Alternating_Floor_Press",
                "One-Arm_Kettlebell_Floor_Press", "Bench_Press_-_With_Bands", "Pushups", "Push-Ups_With_Feet_Elevated",
            ]
        case .inclinePush:
            [
                "Barbell_Incline_Bench_Press_-_Medium_Grip", "Incline_Dumbbell_Press", "Leverage_Incline_Chest_Press",
                "Incline_Cable_Chest_Press", "Smith_Machine_Incline_Bench_Press", "Hammer_Grip_Incline_DB_Bench_Press",
                "Extended_Range_One-Arm_Kettlebell_Floor_Press", "Decline_Push-Up", "Push-Up_Wide",
            ]
        case .chestFly:
            [
                "Cable_Crossover", "Dumbbell_Flyes", "Butterfly", "Incline_Dumbbell_Flyes", "Low_Cable_Crossover", "Flat_Bench_Cable_Flyes",
                "Cross_Over_-_With_Bands",
            ]
        case .verticalPush:
            [
                "Standing_Military_Press", "Dumbbell_Shoulder_Press", "Machine_Shoulder_Military_Press", "Seated_Barbell_Military_Press",
                "Arnold_Dumbbell_Press", "Cable_Shoulder_Press", "Leverage_Shoulder_Press", "Two-Arm_Kettlebell_Military_Press",
                "Kettlebell_Seated_Press", "Shoulder_Press_-_With_Bands",
            ]
        case .lateralRaise:
            [
                "Side_Lateral_Raise", "Cable_Seated_Lateral_Raise", "One-Arm_Side_Laterals", "Seated_Side_Lateral_Raise",
                "Standing_Low-Pulley_Deltoid_Raise", "Upright_Barbell_Row", "Kettlebell_Pirate_Ships", "Lateral_Raise_-_With_Bands",
            ]
        case .rearDelt:
            [
                "Face_Pull", "Reverse_Flyes", "Reverse_Machine_Flyes", "Cable_Rear_Delt_Fly", "Seated_Bent-Over_Rear_Delt_Raise",
                "Barbell_Rear_Delt_Row", "Band_Pull_Apart", "Back_Flyes_-_With_Bands",
            ]
        case .horizontalPull:
            [
                "Bent_Over_Barbell_Row", "Seated_Cable_Rows", "One-Arm_Dumbbell_Row", "T-Bar_Row_with_Handle", "Leverage_High_Row",
                "Bent_Over_Two-Dumbbell_Row", "Dumbbell_Incline_Row", "Two-Arm_Kettlebell_Row", "One-Arm_Kettlebell_Row",
                "Inverted_Row",
            ]
        case .verticalPull:
            [
                "Wide-Grip_Lat_Pulldown", "Pullups", "Close-Grip_Front_Lat_Pulldown", "Chin-Up", "V-Bar_Pulldown",
                "Underhand_Cable_Pulldowns",
                "Leverage_Iso_Row",
            ]
        case .biceps:
            [
                "Barbell_Curl", "Dumbbell_Bicep_Curl", "Hammer_Curls", "Standing_Biceps_Cable_Curl", "EZ-Bar_Curl", "Incline_Dumbbell_Curl",
                "Preacher_Curl", "Machine_Bicep_Curl", "Cable_Hammer_Curls_-_Rope_Attachment",
            ]
        case .triceps:
            [
                "Triceps_Pushdown", "Close-Grip_Barbell_Bench_Press", "EZ-Bar_Skullcrusher", "Standing_Dumbbell_Triceps_Extension",
                "Cable_Rope_Overhead_Triceps_Extension", "Machine_Triceps_Extension", "Tricep_Dumbbell_Kickback", "Band_Skull_Crusher",
                "Push-Ups_-_Close_Triceps_Position", "Dips_-_Triceps_Version", "Bench_Dips",
            ]
        case .core:
            [
                "Cable_Crunch", "Ab_Crunch_Machine", "Reverse_Crunch", "Hanging_Leg_Raise", "Crunches", "Dead_Bug", "Pallof_Press",
                "Kettlebell_Windmill", "Russian_Twist",
            ]
        }
    }
}
