import Platform

/// OpenAPI schemas of Analytics' answers.
enum AnalyticsSchemas {
    static let date = Schema.date
    static let kg = Schema.number

    static let exerciseWeek = Schema.object(
        [
            "week_start": date, "e1rm_kg": kg, "top_weight_kg": kg,
            "best_set": Schema.object(["weight_kg": kg, "reps": Schema.integer], required: ["weight_kg", "reps"]), "volume_kg": kg,
            "sets": Schema.integer, "reps": Schema.integer,
        ], required: ["week_start", "e1rm_kg", "top_weight_kg", "best_set", "volume_kg", "sets", "reps"])
    static let exerciseProgress = Schema.object(
        ["exercise_id": Schema.string, "points": Schema.array(exerciseWeek)], required: ["exercise_id", "points"])

    static let muscleWeek = Schema.object(
        ["week_start": date, "sets": Schema.number, "volume_kg": kg], required: ["week_start", "sets", "volume_kg"])
    static let muscleProgress = Schema.object(
        ["muscle": Schema.string, "points": Schema.array(muscleWeek)], required: ["muscle", "points"])

    static let weekStats = Schema.object(
        [
            "week_start": date, "workouts": Schema.integer, "sets": Schema.integer, "reps": Schema.integer, "volume_kg": kg,
            "duration_min": Schema.integer, "sets_by_muscle": ["type": "object", "additionalProperties": Schema.number],
        ], required: ["week_start", "workouts", "sets", "reps", "volume_kg", "duration_min", "sets_by_muscle"])
    static let weeklyStats = Schema.object(["items": Schema.array(weekStats)], required: ["items"])

    static let trainingSet = Schema.object(
        [
            "workout_id": Schema.string, "exercise_id": Schema.string, "exercise_name": Schema.string, "date": date, "week_start": date,
            "weight_kg": kg, "reps": Schema.integer, "rir": Schema.nullable(Schema.integer), "e1rm_kg": kg, "volume_kg": kg,
            "working": Schema.boolean, "primary_muscles": Schema.array(Schema.string), "secondary_muscles": Schema.array(Schema.string),
        ],
        required: [
            "workout_id", "exercise_id", "exercise_name", "date", "week_start", "weight_kg", "reps", "rir", "e1rm_kg", "volume_kg",
            "working", "primary_muscles", "secondary_muscles",
        ])
    static let trainingSets = Schema.object(
        ["items": Schema.array(trainingSet), "next_cursor": Schema.nullable(Schema.string)], required: ["items"])

    static let trainingContext = Schema.object(
        [
            "week_start": date, "workouts_per_week": Schema.array(Schema.integer),
            "last_workouts": Schema.array(
                Schema.object(
                    ["date": date, "sets": Schema.integer, "volume_kg": kg, "exercises": Schema.array(Schema.string)],
                    required: ["date", "sets", "volume_kg", "exercises"])),
            "muscles": Schema.array(
                Schema.object(
                    ["muscle": Schema.string, "sets": Schema.number, "prev_avg": Schema.number], required: ["muscle", "sets", "prev_avg"])),
            "lifts": Schema.array(
                Schema.object(
                    ["exercise_id": Schema.string, "name": Schema.string, "e1rm_kg": kg, "prev_e1rm_kg": Schema.nullable(kg)],
                    required: ["exercise_id", "name", "e1rm_kg", "prev_e1rm_kg"])),
        ], required: ["week_start", "workouts_per_week", "last_workouts", "muscles", "lifts"])
}
