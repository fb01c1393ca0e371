import OpenAPIRuntime
import PovverClient

/// One operation of a `patchActiveWorkout`. The document's union names its cases by position (the generator's
/// `case1`...`case9`, each with its `op` constant); these name them for what they do.
typealias WorkoutPatchOp = Operations.PatchActiveWorkout.Input.Body.JsonPayload.OpsPayloadPayload

extension WorkoutPatchOp {
    static func setWeight(_ instance: String, _ set: String, _ value: Double?) -> Self {
        .case1(.init(exerciseInstanceId: instance, field: .weightKg, op: "set_field", setId: set, value: value))
    }
    static func setReps(_ instance: String, _ set: String, _ value: Int?) -> Self {
        .case2(.init(exerciseInstanceId: instance, field: .reps, op: "set_field", setId: set, value: value))
    }
    static func setRir(_ instance: String, _ set: String, _ value: Int?) -> Self {
        .case3(.init(exerciseInstanceId: instance, field: .rir, op: "set_field", setId: set, value: value))
    }
    static func addSet(_ instance: String, targetReps: Int? = nil, targetRir: Int? = nil) -> Self {
        .case4(.init(exerciseInstanceId: instance, op: "add_set", targetReps: targetReps, targetRir: targetRir))
    }
    static func removeSet(_ instance: String, _ set: String) -> Self {
        .case5(.init(exerciseInstanceId: instance, op: "remove_set", setId: set))
    }
    static func addExercise(_ exercise: String, sets: Int? = nil) -> Self {
        .case6(.init(exerciseId: exercise, op: "add_exercise", sets: sets))
    }
    static func removeExercise(_ instance: String) -> Self { .case7(.init(exerciseInstanceId: instance, op: "remove_exercise")) }
    static func reorderExercises(_ order: [String]) -> Self { .case8(.init(op: "reorder_exercises", order: order)) }
    static func reorderSets(_ instance: String, _ order: [String]) -> Self {
        .case9(.init(exerciseInstanceId: instance, op: "reorder_sets", order: order))
    }
}
