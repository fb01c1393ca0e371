import Foundation
import PovverClient

/// A workout as the Workouts operations answer it. Each operation's answer is a type of its own in the generated
/// client; these protocols name what the flow tests read of any of them (conformances below, one per operation).
protocol WorkoutAnswer: Sendable {
    associatedtype Exercise: WorkoutExerciseAnswer
    var id: String { get }
    var exercises: [Exercise] { get }
}

/// An exercise of a workout's answer.
protocol WorkoutExerciseAnswer: Sendable {
    associatedtype SetAnswer: WorkoutSetAnswer
    var instanceId: String { get }
    var exerciseId: String { get }
    var name: String { get }
    var sets: [SetAnswer] { get }
}

/// A set of a workout's answer.
protocol WorkoutSetAnswer: Sendable {
    var id: String { get }
    var setIndex: Int { get }
    var reps: Int? { get }
    var rir: Int? { get }
    var weightKg: Double? { get }
    var targetReps: Int? { get }
    var targetRir: Int? { get }
    var targetWeightKg: Double? { get }
    var completedAt: Date? { get }
}

extension Operations.StartActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.StartActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.StartActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer
{}
extension Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer {}
extension Operations.AddExercise.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.AddExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.AddExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer {}
extension Operations.SwapExercise.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.SwapExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.SwapExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer {}
extension Operations.PatchActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.PatchActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.PatchActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer
{}
extension Operations.CompleteActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.CompleteActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.CompleteActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload:
    WorkoutSetAnswer
{}
extension Operations.GetWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.GetWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.GetWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer {}
extension Operations.UpdateWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.UpdateWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.UpdateWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer {}
extension Operations.DeleteWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutAnswer {}
extension Operations.DeleteWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseAnswer {}
extension Operations.DeleteWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetAnswer {}
extension Operations.GetRecentWorkouts.Output.Ok.Body.JsonPayload.DataPayload.ItemsPayloadPayload: WorkoutAnswer {}
extension Operations.GetRecentWorkouts.Output.Ok.Body.JsonPayload.DataPayload.ItemsPayloadPayload.ExercisesPayloadPayload:
    WorkoutExerciseAnswer
{}
extension Operations.GetRecentWorkouts.Output.Ok.Body.JsonPayload.DataPayload.ItemsPayloadPayload.ExercisesPayloadPayload
    .SetsPayloadPayload: WorkoutSetAnswer
{}
