import Platform

/// OpenAPI schemas of Workouts' documents.
enum WorkoutsSchemas {
    static let idempotencyKey = Schema.idempotencyKey
    static let exercise = Schema.object(
        [
            "id": Schema.string, "name": Schema.string, "category": Schema.string, "equipment": Schema.nullable(Schema.string),
            "force": Schema.nullable(Schema.string), "level": Schema.nullable(Schema.string), "mechanic": Schema.nullable(Schema.string),
            "primary_muscles": Schema.array(Schema.string), "secondary_muscles": Schema.array(Schema.string),
        ], required: ["id", "name", "category", "primary_muscles", "secondary_muscles"])
    /// A planned set's targets; each may be null (none planned), as answers write it.
    private static let targetReps = Schema.integer(
        minimum: WorkoutsValidation.repsRange.lowerBound, maximum: WorkoutsValidation.repsRange.upperBound)
    private static let targetRIR = Schema.integer(
        minimum: WorkoutsValidation.rirRange.lowerBound, maximum: WorkoutsValidation.rirRange.upperBound)
    private static let targetWeight: JSONValue = [
        "type": "number", "minimum": .double(WorkoutsValidation.weightRange.lowerBound),
        "maximum": .double(WorkoutsValidation.weightRange.upperBound),
    ]
    private static let targets: [String: JSONValue] = [
        "target_reps": Schema.nullable(targetReps), "target_rir": Schema.nullable(targetRIR),
        "target_weight_kg": Schema.nullable(targetWeight),
    ]
    static let templateSet = Schema.object(targets)
    /// A planned set as sent: the original templates' `reps`, `rir` and `weight` (kg) are read as the targets,
    /// within the same bounds.
    static let templateSetDraft = Schema.object(
        targets.merging([
            "reps": Schema.described(targetReps, "legacy name of target_reps"),
            "rir": Schema.described(targetRIR, "legacy name of target_rir"),
            "weight": Schema.described(targetWeight, "legacy name of target_weight_kg (kilograms)"),
        ]) { current, _ in current })
    static let exerciseDraft = Schema.object(
        ["exercise_id": Schema.string, "sets": Schema.array(templateSetDraft)], required: ["exercise_id", "sets"])
    static let template = Schema.object(
        [
            "id": Schema.string, "user_id": Schema.string, "name": Schema.string, "description": Schema.nullable(Schema.string),
            "exercises": Schema.array(
                Schema.object(
                    ["exercise_id": Schema.string, "name": Schema.string, "sets": Schema.array(templateSet)],
                    required: ["exercise_id", "name", "sets"])),
            "analytics": Schema.object(
                ["estimated_duration_minutes": Schema.integer, "total_sets": Schema.integer, "muscles": Schema.array(Schema.string)],
                required: ["estimated_duration_minutes", "total_sets", "muscles"]),
            "version": Schema.integer, "created_at": Schema.timestamp, "updated_at": Schema.timestamp,
        ], required: ["id", "user_id", "name", "exercises", "analytics", "version", "created_at", "updated_at"])
    static let routine = Schema.object(
        [
            "id": Schema.string, "user_id": Schema.string, "name": Schema.string, "description": Schema.nullable(Schema.string),
            "template_ids": Schema.array(Schema.string), "frequency": Schema.nullable(Schema.integer(minimum: 1, maximum: 14)),
            "last_completed_template_id": Schema.nullable(Schema.string), "last_completed_at": Schema.nullable(Schema.timestamp),
            "version": Schema.integer, "created_at": Schema.timestamp, "updated_at": Schema.timestamp, "is_active": Schema.boolean,
        ], required: ["id", "user_id", "name", "template_ids", "version", "created_at", "updated_at", "is_active"])
    static let set = Schema.object(
        [
            "id": Schema.string, "set_index": Schema.integer, "target_reps": Schema.nullable(Schema.integer),
            "target_rir": Schema.nullable(Schema.integer), "target_weight_kg": Schema.nullable(Schema.number),
            "weight_kg": Schema.nullable(Schema.number), "reps": Schema.nullable(Schema.integer),
            "rir": Schema.nullable(Schema.integer), "completed_at": Schema.nullable(Schema.timestamp),
        ], required: ["id", "set_index"])
    static let workoutExercise = Schema.object(
        ["instance_id": Schema.string, "exercise_id": Schema.string, "name": Schema.string, "sets": Schema.array(set)],
        required: ["instance_id", "exercise_id", "name", "sets"])
    static let totals = Schema.object(
        ["sets": Schema.integer, "reps": Schema.integer, "volume": Schema.number], required: ["sets", "reps", "volume"])
    static let activeWorkout = Schema.object(
        [
            "id": Schema.string, "user_id": Schema.string, "name": Schema.nullable(Schema.string),
            "source_template_id": Schema.nullable(Schema.string), "source_routine_id": Schema.nullable(Schema.string),
            "status": Schema.enumeration(["in_progress", "completed", "cancelled"]), "start_time": Schema.timestamp,
            "version": Schema.integer,
            "exercises": Schema.array(workoutExercise), "totals": totals, "created_at": Schema.timestamp, "updated_at": Schema.timestamp,
        ], required: ["id", "user_id", "status", "start_time", "version", "exercises", "totals"])
    static let analytics = Schema.object(
        [
            "totals": totals,
            "exercises": Schema.array(
                Schema.object(
                    [
                        "instance_id": Schema.string, "exercise_id": Schema.string, "name": Schema.string, "sets": Schema.integer,
                        "reps": Schema.integer, "volume": Schema.number, "best_e1rm": Schema.nullable(Schema.number),
                    ], required: ["exercise_id", "sets", "reps", "volume"])),
            "muscles": Schema.array(
                Schema.object(
                    ["muscle": Schema.string, "sets": Schema.integer, "volume": Schema.number], required: ["muscle", "sets", "volume"])),
        ], required: ["totals", "exercises", "muscles"])
    static let completedWorkout = Schema.object(
        [
            "id": Schema.string, "user_id": Schema.string, "name": Schema.nullable(Schema.string),
            "source_template_id": Schema.nullable(Schema.string), "source_routine_id": Schema.nullable(Schema.string),
            "start_time": Schema.timestamp, "end_time": Schema.timestamp, "exercises": Schema.array(workoutExercise),
            "analytics": analytics,
            "created_at": Schema.timestamp, "updated_at": Schema.timestamp,
        ], required: ["id", "user_id", "start_time", "end_time", "exercises", "analytics"])

    static func items(_ item: JSONValue) -> JSONValue {
        Schema.object(["items": Schema.array(item), "next_cursor": Schema.nullable(Schema.string)], required: ["items"])
    }
}
