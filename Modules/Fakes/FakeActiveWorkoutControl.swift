import Contracts
import Foundation

/// Active workouts in memory, with the contract's idempotency, ownership and range rules.
public actor FakeActiveWorkoutControl: ActiveWorkoutControl {
    private var workouts: [String: ActiveWorkout] = [:]
    private var answers: [String: (request: String, workout: ActiveWorkout)] = [:]
    private let catalog: [String: Exercise]
    private let clock: any WallClock
    private let ids: any IDGenerator

    public init(catalog: [Exercise], clock: any WallClock, ids: any IDGenerator) {
        self.catalog = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.clock = clock
        self.ids = ids
    }

    /// Puts a workout in place (a test's "start").
    public func seed(_ workout: ActiveWorkout) { workouts[workout.id] = workout }

    /// Ends a workout the way completing it would.
    public func finish(workoutId: String) { workouts[workoutId]?.status = .completed }

    public func activeWorkout(userId: String) async throws -> ActiveWorkout? {
        workouts.values.first { $0.userId == userId && $0.status == .inProgress }
    }

    public func logSet(
        userId: String, workoutId: String, exerciseInstanceId: String, setId: String, weightKg: Double, reps: Int, rir: Int?,
        idempotencyKey: String
    ) async throws -> ActiveWorkout {
        // Values first, as the live one checks them before it looks the key or the workout up.
        guard weightKg.isFinite, (0...1000).contains(weightKg) else {
            throw ServiceError.invalidArgument(field: "weight_kg", reason: "must be from 0 to 1000 kg")
        }
        let weightKg = weightKg == 0 ? 0 : weightKg  // -0 is 0, as the live one stores it
        guard (0...1000).contains(reps) else { throw ServiceError.invalidArgument(field: "reps", reason: "must be from 0 to 1000") }
        if let rir, !(0...10).contains(rir) { throw ServiceError.invalidArgument(field: "rir", reason: "must be from 0 to 10") }
        // A repeat answers the workout as it stands now, like the live one.
        let logged = try write(
            userId: userId, workoutId: workoutId, key: idempotencyKey,
            request: "logSet|\(exerciseInstanceId)|\(setId)|\(weightKg)|\(reps)|\(rir ?? -1)"
        ) {
            workout in
            guard let exercise = workout.exercises.firstIndex(where: { $0.instanceId == exerciseInstanceId }) else {
                throw ServiceError(.notFound, details: ["exercise_instance_id": exerciseInstanceId])
            }
            guard let set = workout.exercises[exercise].sets.firstIndex(where: { $0.id == setId }) else {
                // A set a swap moved to the new exercise is a stale read of the workout, not a missing set.
                if let moved = workout.exercises.first(where: { $0.sets.contains { $0.id == setId } }) {
                    throw ServiceError(
                        .conflict,
                        details: ["set_id": setId, "exercise_instance_id": moved.instanceId, "current_version": "\(workout.version)"])
                }
                throw ServiceError(.notFound, details: ["set_id": setId])
            }
            workout.exercises[exercise].sets[set].weightKg = weightKg
            workout.exercises[exercise].sets[set].reps = reps
            workout.exercises[exercise].sets[set].rir = rir
            workout.exercises[exercise].sets[set].completedAt = clock.now()
        }
        return workouts[logged.id] ?? logged
    }

    public func addExercise(userId: String, workoutId: String, exerciseId: String, sets: Int, idempotencyKey: String) async throws
        -> ActiveWorkout
    {
        try write(userId: userId, workoutId: workoutId, key: idempotencyKey, request: "addExercise|\(exerciseId)|\(sets)") { workout in
            guard let exercise = catalog[exerciseId] else {
                throw ServiceError.invalidArgument(field: "exercise_id", reason: "unknown exercise")
            }
            guard (0...30).contains(sets) else { throw ServiceError.invalidArgument(field: "sets", reason: "must be from 0 to 30") }
            guard workout.exercises.count < 50 else {
                throw ServiceError.invalidArgument(field: "exercise_id", reason: "at most 50 exercises")
            }
            workout.exercises.append(
                WorkoutExercise(
                    instanceId: ids.makeID(), exerciseId: exercise.id, name: exercise.name,
                    sets: (0..<sets).map { WorkoutSet(id: ids.makeID(), setIndex: $0) }))
        }
    }

    public func swapExercise(
        userId: String, workoutId: String, exerciseInstanceId: String, newExerciseId: String, idempotencyKey: String
    ) async throws -> ActiveWorkout {
        try write(userId: userId, workoutId: workoutId, key: idempotencyKey, request: "swap|\(exerciseInstanceId)|\(newExerciseId)") {
            workout in
            guard let index = workout.exercises.firstIndex(where: { $0.instanceId == exerciseInstanceId }) else {
                throw ServiceError(.notFound, details: ["exercise_instance_id": exerciseInstanceId])
            }
            guard let replacement = catalog[newExerciseId] else {
                throw ServiceError.invalidArgument(field: "new_exercise_id", reason: "unknown exercise")
            }
            guard replacement.id != workout.exercises[index].exerciseId else {
                throw ServiceError.invalidArgument(field: "new_exercise_id", reason: "is already the exercise of this entry")
            }
            let logged = workout.exercises[index].sets.filter { $0.completedAt != nil }
            // The sets still to do keep their ids and target reps and RIR; weights were for the old exercise.
            let remaining = workout.exercises[index].sets.filter { $0.completedAt == nil }.enumerated().map { position, set in
                WorkoutSet(id: set.id, setIndex: position, targetReps: set.targetReps, targetRir: set.targetRir)
            }
            if logged.isEmpty {
                workout.exercises[index].exerciseId = replacement.id
                workout.exercises[index].name = replacement.name
                workout.exercises[index].sets = remaining
            } else {
                guard workout.exercises.count < 50 else {
                    throw ServiceError.invalidArgument(
                        field: "exercise_instance_id",
                        reason: "has logged sets, so swapping it adds an exercise, and a workout holds at most 50")
                }
                workout.exercises[index].sets = logged.enumerated().map { position, set in
                    var set = set
                    set.setIndex = position
                    return set
                }
                let moved = remaining.isEmpty ? [WorkoutSet(id: ids.makeID(), setIndex: 0)] : remaining
                workout.exercises.insert(
                    WorkoutExercise(instanceId: ids.makeID(), exerciseId: replacement.id, name: replacement.name, sets: moved),
                    at: index + 1)
            }
        }
    }

    private func write(
        userId: String, workoutId: String, key: String, request: String, _ change: (inout ActiveWorkout) throws -> Void
    ) throws -> ActiveWorkout {
        guard !key.isEmpty, key.unicodeScalars.count <= 128 else {
            throw ServiceError.invalidArgument(field: "idempotency_key", reason: "must be 1 to 128 characters")
        }
        guard !key.utf8.contains(0) else {
            throw ServiceError.invalidArgument(field: "idempotency_key", reason: "must not contain the NUL character")
        }
        let slot = "\(userId)|\(key)"
        if let previous = answers[slot] {
            guard previous.request == "\(workoutId)|\(request)" else {
                throw ServiceError(
                    .conflict, "This idempotency key was already used for a different request.", details: ["idempotency_key": key])
            }
            return previous.workout
        }
        guard var workout = workouts[workoutId], workout.userId == userId else {
            throw ServiceError(.notFound, "That workout does not exist.", details: ["workout_id": workoutId])
        }
        guard workout.status == .inProgress else { throw ServiceError(.failedPrecondition, details: ["status": workout.status.rawValue]) }
        try change(&workout)
        workout.totals = WorkoutTotals(loggedSetsOf: workout.exercises)
        workout.version += 1
        workout.updatedAt = clock.now()
        workouts[workoutId] = workout
        answers[slot] = ("\(workoutId)|\(request)", workout)
        return workout
    }
}
