import Foundation
import PovverClient
import Testing

/// A workout as the Workouts operations answer it, read alike whichever operation answered: each operation's answer
/// is a type of its own in the generated client, and these protocols name what the plan and edit flow tests read.
protocol WorkoutReading: Sendable {
    associatedtype ExerciseReading: WorkoutExerciseReading
    var id: String { get }
    var exercises: [ExerciseReading] { get }
}

/// An exercise of a workout's answer.
protocol WorkoutExerciseReading: Sendable {
    associatedtype SetReading: WorkoutSetReading
    var instanceId: String { get }
    var exerciseId: String { get }
    var sets: [SetReading] { get }
}

/// A set of a workout's answer.
protocol WorkoutSetReading: Sendable {
    var id: String { get }
    var setIndex: Int { get }
    var reps: Int? { get }
    var weightKg: Double? { get }
    var targetReps: Int? { get }
    var targetWeightKg: Double? { get }
    var completedAt: Date? { get }
}

extension WorkoutReading {
    /// The instance id and set ids of the exercise at `index`.
    func exercise(at index: Int) throws -> (instanceId: String, setIds: [String]) {
        try #require(exercises.indices.contains(index), "no exercise \(index) in \(self)")
        return (exercises[index].instanceId, exercises[index].sets.map(\.id))
    }

    /// The set with `id`, wherever it is in the workout.
    func set(_ id: String) -> ExerciseReading.SetReading? {
        for exercise in exercises {
            if let set = exercise.sets.first(where: { $0.id == id }) { return set }
        }
        return nil
    }

    /// The sets of the exercise `instanceId`, in order (none when it is not there).
    func sets(of instanceId: String) -> [ExerciseReading.SetReading] {
        exercises.first { $0.instanceId == instanceId }?.sets ?? []
    }
}

extension Client {
    /// The workout in progress, as getActiveWorkout answers it (the test fails when there is none).
    func activeWorkout() async throws -> Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload {
        try #require(try await getActiveWorkout(body: .json(.init())).ok.body.json.data, "no workout in progress")
    }

    /// Logs every set of the (active) workout and completes it, each write checked.
    func logEverySetAndComplete(_ workout: some WorkoutReading, key: String) async throws {
        for (exerciseIndex, exercise) in workout.exercises.enumerated() {
            for (setIndex, set) in exercise.sets.enumerated() {
                _ = try await logSet(
                    body: .json(
                        .init(
                            exerciseInstanceId: exercise.instanceId, idempotencyKey: "log-\(key)-\(exerciseIndex)-\(setIndex)", reps: 5,
                            setId: set.id, weightKg: 40, workoutId: workout.id))
                ).ok
            }
        }
        _ = try await completeActiveWorkout(body: .json(.init(idempotencyKey: "complete-\(key)", workoutId: workout.id))).ok
    }
}

extension Operations.StartActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutReading {}
extension Operations.StartActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseReading {}
extension Operations.StartActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload:
    WorkoutSetReading
{}
extension Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutReading {}
extension Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseReading {}
extension Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetReading {
}
extension Operations.AddExercise.Output.Ok.Body.JsonPayload.DataPayload: WorkoutReading {}
extension Operations.AddExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseReading {}
extension Operations.AddExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetReading {}
extension Operations.SwapExercise.Output.Ok.Body.JsonPayload.DataPayload: WorkoutReading {}
extension Operations.SwapExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseReading {}
extension Operations.SwapExercise.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetReading {}
extension Operations.PatchActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutReading {}
extension Operations.PatchActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseReading {}
extension Operations.PatchActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload:
    WorkoutSetReading
{}
extension Operations.GetWorkout.Output.Ok.Body.JsonPayload.DataPayload: WorkoutReading {}
extension Operations.GetWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload: WorkoutExerciseReading {}
extension Operations.GetWorkout.Output.Ok.Body.JsonPayload.DataPayload.ExercisesPayloadPayload.SetsPayloadPayload: WorkoutSetReading {}
