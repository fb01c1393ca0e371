import Contracts
import Foundation

/// Active workouts in memory, with the contract's idempotency, ownership and range rules.
public actor FakeActiveWorkoutControl: ActiveWorkoutControl {
    private var workouts: [String: ActiveWorkout] = [:]
    private var answers: [String: (request: String, workout: ActiveWorkout)] = [:]
    private let catalog: [String: Exercise]
    private let clock: any WallClock
    private let ids: any IDGenerator
    private let plans: (any PlanLibrary)?
    private var started: [String: (request: WorkoutStart, workout: ActiveWorkout)] = [:]
    private var completed: [String: CompletedWorkout] = [:]
    private var cancelled: Set<String> = []

    /// `plans`: where a start from a template finds it (none: such a start is NOT_FOUND).
    public init(catalog: [Exercise], clock: any WallClock, ids: any IDGenerator, plans: (any PlanLibrary)? = nil) {
        self.catalog = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.clock = clock
        self.ids = ids
        self.plans = plans
    }

    public func startWorkout(userId: String, start: WorkoutStart, idempotencyKey: String) async throws -> ActiveWorkout {
        let slot = "\(userId)|\(idempotencyKey)"
        if let previous = started[slot] {
            guard previous.request == start else {
                throw ServiceError(
                    .conflict, "This idempotency key was already used for a different request.",
                    details: ["idempotency_key": idempotencyKey])
            }
            return previous.workout
        }
        if let existing = workouts.values.first(where: { $0.userId == userId && $0.status == .inProgress }) {
            throw ServiceError(.conflict, "You already have a workout in progress.", details: ["workout_id": existing.id])
        }
        let name: String?
        let planned: [TemplateExercise]
        var source: (template: String?, routine: String?) = (nil, nil)
        switch start {
        case .template(let templateId, let routineId):
            guard let plans else { throw ServiceError(.notFound, details: ["template_id": templateId]) }
            let template = try await plans.template(userId: userId, id: templateId)
            (name, planned, source) = (template.name, template.exercises, (template.id, routineId))
        case .plan(let planName, let exercises):
            planned = try exercises.enumerated().map { index, exercise in
                guard let known = catalog[exercise.exerciseId] else {
                    throw ServiceError.invalidArgument(field: "exercises[\(index)].exercise_id", reason: "unknown exercise")
                }
                return TemplateExercise(exerciseId: known.id, name: known.name, sets: exercise.sets)
            }
            name = planName
        }
        let now = clock.now()
        let workout = ActiveWorkout(
            id: ids.makeID(), userId: userId, name: name, sourceTemplateId: source.template, sourceRoutineId: source.routine,
            status: .inProgress, startTime: now, version: 1,
            exercises: planned.map { exercise in
                WorkoutExercise(
                    instanceId: ids.makeID(), exerciseId: exercise.exerciseId, name: exercise.name,
                    sets: exercise.sets.enumerated().map { index, set in
                        WorkoutSet(
                            id: ids.makeID(), setIndex: index, targetReps: set.targetReps, targetRir: set.targetRir,
                            targetWeightKg: set.targetWeightKg)
                    })
            }, totals: WorkoutTotals(), createdAt: now, updatedAt: now)
        workouts[workout.id] = workout
        started[slot] = (start, workout)
        return workout
    }

    public func prescribeSet(
        userId: String, workoutId: String, exerciseInstanceId: String, setId: String, targetReps: Int?, targetWeightKg: Double?,
        targetRir: Int?, idempotencyKey: String
    ) async throws -> ActiveWorkout {
        guard targetReps != nil || targetWeightKg != nil || targetRir != nil else {
            throw ServiceError.invalidArgument(field: "target_reps", reason: "name at least one target to set")
        }
        return try write(
            userId: userId, workoutId: workoutId, key: idempotencyKey,
            request: "prescribe|\(exerciseInstanceId)|\(setId)|\(targetReps ?? -1)|\(targetWeightKg ?? -1)|\(targetRir ?? -1)"
        ) { workout in
            guard let exercise = workout.exercises.firstIndex(where: { $0.instanceId == exerciseInstanceId }) else {
                throw ServiceError(.notFound, details: ["exercise_instance_id": exerciseInstanceId])
            }
            guard let set = workout.exercises[exercise].sets.firstIndex(where: { $0.id == setId }) else {
                throw ServiceError(.notFound, details: ["set_id": setId])
            }
            if let targetReps { workout.exercises[exercise].sets[set].targetReps = targetReps }
            if let targetWeightKg { workout.exercises[exercise].sets[set].targetWeightKg = targetWeightKg }
            if let targetRir { workout.exercises[exercise].sets[set].targetRir = targetRir }
        }
    }

    public func removeSet(userId: String, workoutId: String, exerciseInstanceId: String, setId: String, idempotencyKey: String) async throws
        -> ActiveWorkout
    {
        try write(userId: userId, workoutId: workoutId, key: idempotencyKey, request: "removeSet|\(exerciseInstanceId)|\(setId)") {
            workout in
            guard let exercise = workout.exercises.firstIndex(where: { $0.instanceId == exerciseInstanceId }) else {
                throw ServiceError(.notFound, details: ["exercise_instance_id": exerciseInstanceId])
            }
            guard let set = workout.exercises[exercise].sets.firstIndex(where: { $0.id == setId }) else {
                throw ServiceError(.notFound, details: ["set_id": setId])
            }
            workout.exercises[exercise].sets.remove(at: set)
            for index in workout.exercises[exercise].sets.indices { workout.exercises[exercise].sets[index].setIndex = index }
        }
    }

    public func completeWorkout(userId: String, workoutId: String, idempotencyKey: String) async throws -> CompletedWorkout {
        if let done = completed["\(userId)|\(idempotencyKey)"], done.id == workoutId { return done }
        guard let workout = workouts[workoutId], workout.userId == userId else {
            throw ServiceError(.notFound, "That workout does not exist.", details: ["workout_id": workoutId])
        }
        guard workout.status == .inProgress else { throw ServiceError(.failedPrecondition, details: ["status": workout.status.rawValue]) }
        let logged = workout.exercises.compactMap { exercise -> WorkoutExercise? in
            var sets = exercise.sets.filter { $0.completedAt != nil }
            for index in sets.indices { sets[index].setIndex = index }
            return sets.isEmpty
                ? nil : WorkoutExercise(instanceId: exercise.instanceId, exerciseId: exercise.exerciseId, name: exercise.name, sets: sets)
        }
        guard !logged.isEmpty else {
            throw ServiceError(
                .failedPrecondition, "Log at least one set to finish this workout, or cancel it.", details: ["logged_sets": "0"])
        }
        let now = clock.now()
        let archived = CompletedWorkout(
            id: workout.id, userId: userId, name: workout.name, sourceTemplateId: workout.sourceTemplateId,
            sourceRoutineId: workout.sourceRoutineId, startTime: workout.startTime, endTime: now, exercises: logged,
            analytics: WorkoutAnalytics(totals: WorkoutTotals(loggedSetsOf: logged), exercises: [], muscles: []), createdAt: now,
            updatedAt: now)
        workouts[workoutId]?.status = .completed
        completed["\(userId)|\(idempotencyKey)"] = archived
        return archived
    }

    public func cancelWorkout(userId: String, workoutId: String, idempotencyKey: String) async throws {
        if cancelled.contains("\(userId)|\(idempotencyKey)|\(workoutId)") { return }
        guard let workout = workouts[workoutId], workout.userId == userId else {
            throw ServiceError(.notFound, "That workout does not exist.", details: ["workout_id": workoutId])
        }
        guard workout.status == .inProgress else { throw ServiceError(.failedPrecondition, details: ["status": workout.status.rawValue]) }
        workouts[workoutId]?.status = .cancelled
        cancelled.insert("\(userId)|\(idempotencyKey)|\(workoutId)")
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
