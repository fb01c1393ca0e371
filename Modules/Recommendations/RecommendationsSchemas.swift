import Platform

/// OpenAPI schemas of Recommendations' answers.
enum RecommendationsSchemas {
    static let note = Schema.object(
        [
            "id": Schema.string, "section": Schema.enumeration(["insights", "daily_brief", "weekly_review"]), "period": Schema.string,
            "headline": Schema.string, "findings": Schema.array(Schema.string), "created_at": Schema.timestamp,
        ], required: ["id", "section", "period", "headline", "findings", "created_at"])
    static let summary = Schema.object(
        ["insights": Schema.array(note), "daily_brief": Schema.nullable(note), "weekly_review": Schema.nullable(note)],
        required: ["insights", "daily_brief", "weekly_review"])

    static let setChange = Schema.object(
        [
            "set_index": Schema.integer, "from_weight_kg": Schema.nullable(Schema.number), "to_weight_kg": Schema.number,
            "from_reps": Schema.nullable(Schema.integer), "to_reps": Schema.nullable(Schema.integer),
        ],
        required: ["set_index", "from_weight_kg", "to_weight_kg", "from_reps", "to_reps"])
    static let change = Schema.object(
        [
            "exercise_id": Schema.string, "exercise_name": Schema.string,
            "action": Schema.enumeration(ProgressionAction.allCases.map(\.rawValue)), "reason": Schema.string,
            "from_weight_kg": Schema.nullable(Schema.number), "to_weight_kg": Schema.number, "from_reps": Schema.nullable(Schema.integer),
            "to_reps": Schema.nullable(Schema.integer), "sets": Schema.array(setChange),
        ],
        required: [
            "exercise_id", "exercise_name", "action", "reason", "from_weight_kg", "to_weight_kg", "from_reps", "to_reps", "sets",
        ])
    static let status = Schema.enumeration(RecommendationStatus.allCases.map(\.rawValue))
    static let recommendation = Schema.object(
        [
            "id": Schema.string, "scope": Schema.enumeration(["template", "exercise"]),
            "target": Schema.object([
                "template_id": Schema.string, "template_name": Schema.string, "template_version": Schema.integer,
                "exercise_id": Schema.string, "exercise_name": Schema.string,
            ]),
            "changes": Schema.array(change), "status": status, "workout_id": Schema.nullable(Schema.string), "created_at": Schema.timestamp,
            "expires_at": Schema.timestamp, "reviewed_at": Schema.timestamp,
        ], required: ["id", "scope", "target", "changes", "status", "workout_id", "created_at", "expires_at"])
    static let page = Schema.object(
        ["items": Schema.array(recommendation), "next_cursor": Schema.nullable(Schema.string)], required: ["items", "next_cursor"])
    static let settings = Schema.object(
        ["auto_pilot_enabled": Schema.boolean, "premium": Schema.boolean], required: ["auto_pilot_enabled", "premium"])
}
