import Contracts
import Foundation
import Platform

struct StartWorkoutInput: Decodable, Sendable {
    var templateId: String?
    var routineId: String?
    var name: String?
    var idempotencyKey: String?

    enum CodingKeys: String, CodingKey {
        case templateId = "template_id"
        case routineId = "routine_id"
        case name
        case idempotencyKey = "idempotency_key"
    }
}

/// A request's `workout_id`, also read from the seed clients' camelCase `workoutId` (docs/api.md, "Fields").
/// Without either the error names `workout_id`; both with different values is `INVALID_ARGUMENT`.
enum WorkoutIDField {
    private enum Keys: String, CodingKey {
        case workoutId = "workout_id"
        case alias = "workoutId"
    }

    static func decode(from decoder: any Decoder) throws -> String {
        let container = try decoder.container(keyedBy: Keys.self)
        return try container.decode(String.self, forKey: .workoutId, alias: .alias)
    }
}

struct LogSetInput: Decodable, Sendable, Equatable {
    var workoutId: String
    var exerciseInstanceId: String
    var setId: String
    var weightKg: Double
    var reps: Int
    var rir: Int?
    var idempotencyKey: String

    enum CodingKeys: String, CodingKey {
        case workoutId = "workout_id"
        case exerciseInstanceId = "exercise_instance_id"
        case setId = "set_id"
        case weightKg = "weight_kg"
        case weight
        case reps, rir
        case idempotencyKey = "idempotency_key"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        workoutId = try WorkoutIDField.decode(from: decoder)
        exerciseInstanceId = try container.decode(String.self, forKey: .exerciseInstanceId)
        setId = try container.decode(String.self, forKey: .setId)
        // Legacy clients send `weight`, always kilograms.
        weightKg = try container.decode(Double.self, forKey: .weightKg, alias: .weight)
        reps = try container.decode(Int.self, forKey: .reps)
        rir = try container.decodeIfPresent(Int.self, forKey: .rir)
        idempotencyKey = try container.decode(String.self, forKey: .idempotencyKey)
    }
}

struct PatchWorkoutInput: Decodable, Sendable {
    var workoutId: String
    var ops: [PatchOperation]
    var expectedVersion: Int?
    var idempotencyKey: String

    enum CodingKeys: String, CodingKey {
        case workoutId = "workout_id"
        case ops
        case expectedVersion = "expected_version"
        case idempotencyKey = "idempotency_key"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        workoutId = try WorkoutIDField.decode(from: decoder)
        ops = try container.decode([PatchOperation].self, forKey: .ops)
        expectedVersion = try container.decodeIfPresent(Int.self, forKey: .expectedVersion)
        idempotencyKey = try container.decode(String.self, forKey: .idempotencyKey)
    }
}

struct AddExerciseInput: Decodable, Sendable {
    var workoutId: String
    var exerciseId: String
    var sets: Int?
    var idempotencyKey: String

    enum CodingKeys: String, CodingKey {
        case workoutId = "workout_id"
        case exerciseId = "exercise_id"
        case sets
        case idempotencyKey = "idempotency_key"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        workoutId = try WorkoutIDField.decode(from: decoder)
        exerciseId = try container.decode(String.self, forKey: .exerciseId)
        sets = try container.decodeIfPresent(Int.self, forKey: .sets)
        idempotencyKey = try container.decode(String.self, forKey: .idempotencyKey)
    }
}

struct SwapExerciseInput: Decodable, Sendable {
    var workoutId: String
    var exerciseInstanceId: String
    var newExerciseId: String
    var idempotencyKey: String

    enum CodingKeys: String, CodingKey {
        case workoutId = "workout_id"
        case exerciseInstanceId = "exercise_instance_id"
        case newExerciseId = "new_exercise_id"
        case idempotencyKey = "idempotency_key"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        workoutId = try WorkoutIDField.decode(from: decoder)
        exerciseInstanceId = try container.decode(String.self, forKey: .exerciseInstanceId)
        newExerciseId = try container.decode(String.self, forKey: .newExerciseId)
        idempotencyKey = try container.decode(String.self, forKey: .idempotencyKey)
    }
}

struct WorkoutKeyInput: Decodable, Sendable {
    var workoutId: String
    var idempotencyKey: String

    enum CodingKeys: String, CodingKey {
        case workoutId = "workout_id"
        case idempotencyKey = "idempotency_key"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        workoutId = try WorkoutIDField.decode(from: decoder)
        idempotencyKey = try container.decode(String.self, forKey: .idempotencyKey)
    }
}

struct WorkoutIDInput: Decodable, Sendable {
    var workoutId: String

    init(from decoder: any Decoder) throws {
        workoutId = try WorkoutIDField.decode(from: decoder)
    }
}

struct RecentWorkoutsInput: Decodable, Sendable {
    var limit: Int?
    var cursor: String?
}

struct UpdateWorkoutInput: Decodable, Sendable {
    var workoutId: String
    var changes: WorkoutChanges

    init(from decoder: any Decoder) throws {
        workoutId = try WorkoutIDField.decode(from: decoder)
        changes = try ChangesField.decode(WorkoutChanges.self, from: decoder)
    }
}

/// `getActiveWorkout`'s answer: the workout, or null.
struct OptionalWorkout: Encodable, Sendable {
    var workout: ActiveWorkout?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(workout)
    }
}

extension WorkoutsModule {
    func activeEndpoints() -> [Endpoint] {
        let tag = Self.tag
        let active = self.active
        let history = self.history
        let key = WorkoutsSchemas.idempotencyKey
        let setSchema: [String: JSONValue] = [
            "workout_id": Schema.string, "exercise_instance_id": Schema.string, "set_id": Schema.string,
            "weight_kg": ["type": "number", "minimum": 0, "maximum": 1000],
            "reps": Schema.integer(minimum: 0, maximum: 1000), "rir": Schema.integer(minimum: 0, maximum: 10), "idempotency_key": key,
        ]
        // One shape per op (`PatchOperation`); `set_field`'s value is ranged by its field, null clearing it.
        func patchOp(_ op: String, _ properties: [String: JSONValue], required: [String]) -> JSONValue {
            Schema.object(properties.merging(["op": ["const": .string(op)]]) { old, _ in old }, required: ["op"] + required)
        }
        let reps = Schema.integer(minimum: 0, maximum: 1000)
        let rir = Schema.integer(minimum: 0, maximum: 10)
        let setField = ["exercise_instance_id", "set_id", "field", "value"]
        func setFieldOp(_ fields: [String], value: JSONValue) -> JSONValue {
            patchOp(
                "set_field",
                [
                    "exercise_instance_id": Schema.string, "set_id": Schema.string, "field": Schema.enumeration(fields),
                    "value": Schema.nullable(value),
                ], required: setField)
        }
        let patchOp: JSONValue = [
            "oneOf": [
                setFieldOp(["weight_kg", "weight", "target_weight_kg"], value: ["type": "number", "minimum": 0, "maximum": 1000]),
                setFieldOp(["reps", "target_reps"], value: reps),
                setFieldOp(["rir", "target_rir"], value: rir),
                patchOp(
                    "add_set", ["exercise_instance_id": Schema.string, "target_reps": reps, "target_rir": rir],
                    required: ["exercise_instance_id"]),
                patchOp(
                    "remove_set", ["exercise_instance_id": Schema.string, "set_id": Schema.string],
                    required: ["exercise_instance_id", "set_id"]),
                patchOp(
                    "add_exercise", ["exercise_id": Schema.string, "sets": Schema.integer(minimum: 0, maximum: 30)],
                    required: ["exercise_id"]),
                patchOp("remove_exercise", ["exercise_instance_id": Schema.string], required: ["exercise_instance_id"]),
                patchOp("reorder_exercises", ["order": Schema.array(Schema.string)], required: ["order"]),
                patchOp(
                    "reorder_sets", ["exercise_instance_id": Schema.string, "order": Schema.array(Schema.string)],
                    required: ["exercise_instance_id", "order"]),
            ]
        ]
        // Legacy clients send `weight` (always kilograms) and the seeds' camelCase `workoutId`: either name is read.
        let workoutAlias = ["workout_id": "workoutId"]
        let weightAlias = ["weight_kg": "weight"]
        let workoutAndKey = Schema.object(
            ["workout_id": Schema.string, "idempotency_key": key], required: ["workout_id", "idempotency_key"], aliases: workoutAlias)
        let changes: [String: JSONValue] = [
            "name": Schema.name(maxLength: 100),
            "exercises": Schema.array(
                // An exercise of the workout (instance_id) or a new one (exercise_id).
                Schema.requiringOne(
                    of: ["instance_id", "exercise_id"],
                    in: Schema.object(
                        [
                            "instance_id": Schema.string, "exercise_id": Schema.string,
                            "sets": Schema.array(
                                Schema.object(
                                    [
                                        // cannot trap: built at start from the set schema above, which has the key
                                        "id": Schema.string, "weight_kg": setSchema["weight_kg"]!,
                                        "reps": Schema.integer(minimum: 0, maximum: 1000), "rir": Schema.integer(minimum: 0, maximum: 10),
                                    ], required: ["weight_kg", "reps"], aliases: weightAlias),
                                minItems: 1, maxItems: 30),
                        ], required: ["sets"])),
                // deleteWorkout removes a workout; a change keeps at least one exercise.
                minItems: 1),
        ]
        return [
            .rpc(
                "startActiveWorkout", access: .user, tag: tag,
                summary:
                    "Start a workout from a template, from a routine (its next template) or empty. CONFLICT (with workout_id) if one is in progress.",
                request: Schema.object([
                    "template_id": Schema.string, "routine_id": Schema.string, "name": Schema.name(maxLength: 100),
                    "idempotency_key": key,
                ]),
                response: WorkoutsSchemas.activeWorkout, input: StartWorkoutInput.self
            ) { input, call in
                try await active.start(
                    userId: try call.userId(), request: .init(templateId: input.templateId, routineId: input.routineId, name: input.name),
                    idempotencyKey: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "getActiveWorkout", access: .user, tag: tag, readOnly: true, summary: "The workout in progress, or null.",
                request: Schema.empty,
                response: Schema.nullable(WorkoutsSchemas.activeWorkout), input: EmptyResult.self
            ) { _, call in
                OptionalWorkout(workout: try await active.active(userId: try call.userId()))
            },
            .rpc(
                "logSet", access: .user, tag: tag, summary: "Log a set's weight (kg), reps and RIR. Idempotent under idempotency_key.",
                request: Schema.object(
                    setSchema, required: ["workout_id", "exercise_instance_id", "set_id", "weight_kg", "reps", "idempotency_key"],
                    aliases: workoutAlias.merging(weightAlias) { current, _ in current }),
                response: Schema.object(
                    [
                        "workout_id": Schema.string, "exercise_instance_id": Schema.string, "set": WorkoutsSchemas.set,
                        "totals": WorkoutsSchemas.totals, "version": Schema.integer,
                    ],
                    required: ["set", "totals", "version"]),
                input: LogSetInput.self
            ) { input, call in
                try await active.logSet(
                    userId: try call.userId(),
                    request: .init(
                        workoutId: input.workoutId, exerciseInstanceId: input.exerciseInstanceId, setId: input.setId,
                        weightKg: input.weightKg,
                        reps: input.reps, rir: input.rir),
                    key: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "patchActiveWorkout", access: .user, tag: tag,
                summary: "Apply edits (set a field, add/remove/reorder sets, add/remove/reorder exercises) atomically.",
                request: Schema.object(
                    [
                        "workout_id": Schema.string, "ops": Schema.array(patchOp, minItems: 1, maxItems: 50),
                        "expected_version": Schema.integer,
                        "idempotency_key": key,
                    ],
                    required: ["workout_id", "ops", "idempotency_key"], aliases: workoutAlias),
                response: WorkoutsSchemas.activeWorkout, input: PatchWorkoutInput.self
            ) { input, call in
                try await active.patch(
                    userId: try call.userId(),
                    request: .init(workoutId: input.workoutId, ops: input.ops, expectedVersion: input.expectedVersion),
                    key: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "addExercise", access: .user, tag: tag, summary: "Add an exercise (with empty sets) to the workout.",
                request: Schema.object(
                    [
                        "workout_id": Schema.string, "exercise_id": Schema.string, "sets": Schema.integer(minimum: 0, maximum: 30),
                        "idempotency_key": key,
                    ],
                    required: ["workout_id", "exercise_id", "idempotency_key"], aliases: workoutAlias),
                response: WorkoutsSchemas.activeWorkout, input: AddExerciseInput.self
            ) { input, call in
                try await active.addExercise(
                    userId: try call.userId(), request: .init(workoutId: input.workoutId, exerciseId: input.exerciseId, sets: input.sets),
                    key: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "swapExercise", access: .user, tag: tag,
                summary: "Swap an exercise; logged sets stay with the exercise they were done on, the remaining sets move to the new one.",
                request: Schema.object(
                    [
                        "workout_id": Schema.string, "exercise_instance_id": Schema.string, "new_exercise_id": Schema.string,
                        "idempotency_key": key,
                    ],
                    required: ["workout_id", "exercise_instance_id", "new_exercise_id", "idempotency_key"], aliases: workoutAlias),
                response: WorkoutsSchemas.activeWorkout, input: SwapExerciseInput.self
            ) { input, call in
                try await active.swapExercise(
                    userId: try call.userId(),
                    request: .init(
                        workoutId: input.workoutId, exerciseInstanceId: input.exerciseInstanceId, newExerciseId: input.newExerciseId),
                    key: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "completeActiveWorkout", access: .user, tag: tag, summary: "Finish the workout: archive it with analytics.",
                request: workoutAndKey, response: WorkoutsSchemas.completedWorkout, input: WorkoutKeyInput.self
            ) { input, call in
                try await active.complete(userId: try call.userId(), workoutId: input.workoutId, key: input.idempotencyKey).encoded
            },
            .rpc(
                "cancelActiveWorkout", access: .user, tag: tag, summary: "Cancel the workout; nothing is archived.",
                request: workoutAndKey, response: Schema.empty, input: WorkoutKeyInput.self
            ) { input, call in
                try await active.cancel(userId: try call.userId(), workoutId: input.workoutId, key: input.idempotencyKey).encoded
            },
            .rpc(
                "getRecentWorkouts", access: .user, tag: tag, readOnly: true, summary: "Completed workouts, newest first.",
                request: Schema.object(["limit": Schema.integer(minimum: 1, maximum: 100), "cursor": Schema.string]),
                response: WorkoutsSchemas.items(WorkoutsSchemas.completedWorkout), input: RecentWorkoutsInput.self
            ) { input, call in
                try await history.recent(userId: try call.userId(), limit: try WorkoutsValidation.limit(input.limit), cursor: input.cursor)
            },
            .rpc(
                "getWorkout", access: .user, tag: tag, readOnly: true, summary: "One completed workout.",
                request: Schema.object(["workout_id": Schema.string], required: ["workout_id"], aliases: workoutAlias),
                response: WorkoutsSchemas.completedWorkout,
                input: WorkoutIDInput.self
            ) { input, call in
                try await history.get(userId: try call.userId(), id: input.workoutId)
            },
            .rpc(
                "updateWorkout", access: .user, tag: tag,
                summary: """
                    Edit a completed workout; analytics are recomputed. `exercises` replaces the list: exercises and sets sent with \
                    their instance_id / id keep them (and a set its targets and time); those without are new. Optional idempotency_key.
                    """,
                request: Schema.patch(
                    Schema.object(
                        changes.merging(["workout_id": Schema.string, "changes": Schema.object(changes), "idempotency_key": key]) {
                            _, new in
                            new
                        },
                        required: ["workout_id"], aliases: workoutAlias)),
                response: WorkoutsSchemas.completedWorkout, input: KeyedInput<UpdateWorkoutInput>.self
            ) { input, call in
                try await history.update(
                    userId: try call.userId(), id: input.request.workoutId, changes: input.request.changes, key: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "deleteWorkout", access: .user, tag: tag,
                summary: "Delete a completed workout; answers it as it was. With idempotency_key a retry gets that answer again.",
                request: Schema.object(
                    ["workout_id": Schema.string, "idempotency_key": key], required: ["workout_id"], aliases: workoutAlias),
                response: WorkoutsSchemas.completedWorkout, input: KeyedInput<WorkoutIDInput>.self
            ) { input, call in
                try await history.delete(userId: try call.userId(), id: input.request.workoutId, key: input.idempotencyKey).encoded
            },
        ]
    }
}
