import Foundation
import PovverClient
import Testing

/// Reading any workout answer alike (`WorkoutAnswer`), and the active workout's common steps.
extension WorkoutAnswer {
    /// The instance id and set ids of the exercise at `index`.
    func exercise(at index: Int) throws -> (instanceId: String, setIds: [String]) {
        try #require(exercises.indices.contains(index), "no exercise \(index) in \(self)")
        return (exercises[index].instanceId, exercises[index].sets.map(\.id))
    }

    /// The set with `id`, wherever it is in the workout.
    func set(_ id: String) -> Exercise.SetAnswer? {
        for exercise in exercises {
            if let set = exercise.sets.first(where: { $0.id == id }) { return set }
        }
        return nil
    }

    /// The sets of the exercise `instanceId`, in order (none when it is not there).
    func sets(of instanceId: String) -> [Exercise.SetAnswer] {
        exercises.first { $0.instanceId == instanceId }?.sets ?? []
    }
}

extension Client {
    /// The workout in progress, as getActiveWorkout answers it (the test fails when there is none).
    func activeWorkout() async throws -> Operations.GetActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload {
        try #require(try await getActiveWorkout(body: .json(.init())).ok.body.json.data, "no workout in progress")
    }

    /// Logs every set of the (active) workout and completes it, each write checked.
    func logEverySetAndComplete(_ workout: some WorkoutAnswer, key: String) async throws {
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
