import Platform

/// The OpenAPI shapes of a card's `data` as a user may send it back edited (`artifactAction`'s `data`), one per type
/// that offers `edit`, within the bounds the coach's own proposals are checked to (`RoutineCritic`, `update_routine`).
/// Fields the server derives (exercise `name`s, `days`, a change's `routine`, `previous_exercises`) are listed, so the
/// card's content can be sent back as it came, and recomputed from what the user edited.
enum CardDataSchemas {
    static let plannedSet = Schema.object([
        "target_reps": Schema.integer(minimum: 1, maximum: 50), "target_rir": Schema.integer(minimum: 0, maximum: 5),
        "target_weight_kg": ["type": "number", "minimum": 0, "maximum": 500],
    ])
    static let exercises = Schema.array(
        Schema.object(
            ["exercise_id": Schema.string, "name": Schema.string, "sets": Schema.array(plannedSet, minItems: 1, maxItems: 10)],
            required: ["exercise_id", "sets"]), minItems: 1, maxItems: 12)
    static let dayName = Schema.name(maxLength: 100)
    static let version = Schema.integer(minimum: 1)
    /// A day as the app shows it (derived: read, never applied).
    static let dayView = Schema.object([
        "template_id": Schema.string, "name": Schema.string,
        "exercises": Schema.array(
            Schema.object([
                "exercise_id": Schema.string, "name": Schema.string, "sets": Schema.integer(minimum: 0, maximum: 1000),
                "reps": Schema.integer(minimum: 0, maximum: 1000), "rir": Schema.integer(minimum: 0, maximum: 1000),
                "weight_kg": Schema.nullable(["type": "number", "minimum": 0, "maximum": 500]),
            ])),
    ])

    /// The edited `data` of a card of `type`, or nil when the type offers no edit.
    static func edit(_ type: ArtifactType) -> JSONValue? {
        switch type {
        case .sessionPlan:
            Schema.object(
                ["name": dayName, "exercises": exercises, "template_id": Schema.string, "routine_id": Schema.string],
                required: ["exercises"])
        case .templateUpdate:
            Schema.object(
                [
                    "name": dayName, "exercises": exercises, "template_id": Schema.string, "expected_version": version,
                    "previous_exercises": Schema.array(Schema.string),
                ], required: ["exercises"])
        case .routineSummary:
            Schema.object(
                [
                    "routine": Schema.object(
                        [
                            "name": dayName, "description": Schema.string, "frequency": Schema.integer(minimum: 1, maximum: 14),
                            "templates": Schema.array(
                                Schema.object(["name": dayName, "exercises": exercises], required: ["name", "exercises"]), minItems: 1,
                                maxItems: 7),
                        ], required: ["name", "templates"]),
                    "days": Schema.array(dayView),
                ], required: ["routine"])
        case .routineUpdate:
            Schema.object(
                [
                    "routine_id": Schema.string, "expected_version": version,
                    "changes": Schema.object([
                        "name": dayName, "description": Schema.string, "frequency": Schema.integer(minimum: 1, maximum: 14),
                        "template_ids": Schema.array(Schema.string, minItems: 1, maxItems: 30),
                    ]),
                    "routine": Schema.object([
                        "name": Schema.string, "description": Schema.string, "frequency": Schema.integer(minimum: 1, maximum: 14),
                        "template_ids": Schema.array(Schema.string),
                    ]),
                    "days": Schema.array(dayView),
                ], required: ["changes"])
        case .visualization, .analysisSummary, .clarifyQuestions, .suggestion, .text: nil
        }
    }

    /// `artifactAction`'s `data`: the edited content of any type that offers `edit`.
    static let edited: JSONValue = ["anyOf": .array(ArtifactType.allCases.compactMap(edit))]
}
