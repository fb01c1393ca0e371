import Contracts
import Platform

/// Where Workouts' answers lead (OpenAPI links): the ids a created or listed resource is called by next.
enum WorkoutsLinks {
    static let all: [EndpointLink] = catalog + plans + active + history

    private static func answer(_ pointer: String) -> JSONValue { EndpointLink.answer(pointer) }

    /// A catalog exercise found is one to plan, add, swap in, or ask the progress of.
    private static let catalog: [EndpointLink] = {
        let found = answer("/items/0/id")
        return [
            EndpointLink(from: "searchExercises", to: "getExercise", ["exercise_id": found]),
            EndpointLink(
                from: "searchExercises", to: "createTemplate",
                ["exercises": [["exercise_id": found, "sets": [["target_reps": 8, "target_weight_kg": 40]]]]]),
            EndpointLink(from: "searchExercises", to: "addExercise", ["exercise_id": found]),
            EndpointLink(from: "searchExercises", to: "getExerciseProgress", ["exercise_id": found]),
            EndpointLink(from: "searchExercises", to: "queryTrainingSets", ["exercise_id": found]),
        ]
    }()

    private static let plans: [EndpointLink] =
        templateLinks(from: "createTemplate", id: answer("/id"), version: answer("/version"))
        + templateLinks(from: "patchTemplate", id: answer("/id"), version: answer("/version"))
        + templateLinks(from: "getTemplates", id: answer("/items/0/id"), version: answer("/items/0/version"))
        + routineLinks(from: "createRoutine", id: answer("/id"), version: answer("/version"))
        + routineLinks(from: "getRoutines", id: answer("/items/0/id"), version: answer("/items/0/version"))

    private static func templateLinks(from source: String, id: JSONValue, version: JSONValue) -> [EndpointLink] {
        [
            EndpointLink(from: source, to: "getTemplate", ["template_id": id]),
            EndpointLink(from: source, to: "patchTemplate", ["template_id": id, "expected_version": version]),
            EndpointLink(from: source, to: "deleteTemplate", ["template_id": id]),
            EndpointLink(from: source, to: "startActiveWorkout", ["template_id": id]),
            EndpointLink(from: source, to: "createRoutine", ["template_ids": [id]]),
        ]
    }

    private static func routineLinks(from source: String, id: JSONValue, version: JSONValue) -> [EndpointLink] {
        [
            EndpointLink(from: source, to: "getRoutine", ["routine_id": id]),
            EndpointLink(from: source, to: "patchRoutine", ["routine_id": id, "expected_version": version]),
            EndpointLink(from: source, to: "deleteRoutine", ["routine_id": id]),
            EndpointLink(from: source, to: "setActiveRoutine", ["routine_id": id]),
            EndpointLink(from: source, to: "getNextWorkout", ["routine_id": id]),
            EndpointLink(from: source, to: "startActiveWorkout", ["routine_id": id]),
        ]
    }

    /// The workout in progress (as started, or as read back) is the one to log into, change and end.
    private static let active: [EndpointLink] =
        ["startActiveWorkout", "getActiveWorkout", "patchActiveWorkout", "addExercise", "swapExercise"].flatMap { source in
            let workout = answer("/id")
            let exercise = answer("/exercises/0/instance_id")
            return [
                EndpointLink(
                    from: source, to: "logSet",
                    ["workout_id": workout, "exercise_instance_id": exercise, "set_id": answer("/exercises/0/sets/0/id")]),
                EndpointLink(from: source, to: "patchActiveWorkout", ["workout_id": workout]),
                EndpointLink(from: source, to: "addExercise", ["workout_id": workout]),
                EndpointLink(from: source, to: "swapExercise", ["workout_id": workout, "exercise_instance_id": exercise]),
                EndpointLink(from: source, to: "completeActiveWorkout", ["workout_id": workout]),
                EndpointLink(from: source, to: "cancelActiveWorkout", ["workout_id": workout]),
            ]
        }
        + [
            EndpointLink(
                from: "logSet", to: "logSet",
                ["workout_id": answer("/workout_id"), "exercise_instance_id": answer("/exercise_instance_id")])
        ]

    /// A finished workout is one to read, correct or delete.
    private static let history: [EndpointLink] = [("completeActiveWorkout", "/id"), ("getRecentWorkouts", "/items/0/id")].flatMap {
        source, pointer in
        ["getWorkout", "updateWorkout", "deleteWorkout"].map { EndpointLink(from: source, to: $0, ["workout_id": answer(pointer)]) }
    }
}
