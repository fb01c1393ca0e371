import Contracts
import Foundation
import Platform

/// What `logSet` answers: the logged set and the workout's new totals.
struct LoggedSet: Codable, Sendable, Equatable {
    var workoutId: String
    var exerciseInstanceId: String
    var set: WorkoutSet
    var totals: WorkoutTotals
    var version: Int

    enum CodingKeys: String, CodingKey {
        case workoutId = "workout_id"
        case exerciseInstanceId = "exercise_instance_id"
        case set, totals, version
    }
}

extension ActiveWorkoutService {
    struct LogSetRequest: Codable, Sendable {
        var workoutId: String
        var exerciseInstanceId: String
        var setId: String
        var weightKg: Double
        var reps: Int
        var rir: Int?
    }

    /// Records the actual weight, reps and RIR of a set (logging it again corrects it).
    func logSet(userId: String, request: LogSetRequest, key: String?) async throws -> IdempotentAnswer<LoggedSet> {
        var normalized = request
        // As stored (-0 is 0), so the fingerprint of a retry sending 0 is the same.
        normalized.weightKg = try WorkoutsValidation.weight(request.weightKg, field: "weight_kg")
        let request = normalized
        let weight = request.weightKg
        let reps = try WorkoutsValidation.reps(request.reps, field: "reps")
        let rir = try WorkoutsValidation.rir(request.rir, field: "rir")
        return try await mutate(userId: userId, workoutId: request.workoutId, key: key, operation: "logSet", request: request) {
            workout, _ in
            let (exercise, set) = try Self.locate(request.exerciseInstanceId, request.setId, in: workout)
            workout.exercises[exercise].sets[set].weightKg = weight
            workout.exercises[exercise].sets[set].reps = reps
            workout.exercises[exercise].sets[set].rir = rir
            workout.exercises[exercise].sets[set].completedAt = workout.updatedAt  // this write's time
            return LoggedSet(
                workoutId: workout.id, exerciseInstanceId: request.exerciseInstanceId, set: workout.exercises[exercise].sets[set],
                totals: WorkoutAnalyzer.totals(workout.exercises), version: workout.version + 1)
        }
    }

    struct PatchRequest: Codable, Sendable {
        var workoutId: String
        var ops: [PatchOperation]
        var expectedVersion: Int?
    }

    func patch(userId: String, request: PatchRequest, key: String?) async throws -> IdempotentAnswer<ActiveWorkout> {
        guard !request.ops.isEmpty, request.ops.count <= 50 else {
            throw ServiceError.invalidArgument(field: "ops", reason: "must hold 1 to 50 operations")
        }
        let referenced = request.ops.enumerated().compactMap { index, op -> (field: String, id: String)? in
            if case .addExercise(let id, _) = op { return ("ops[\(index)].exercise_id", id) }
            return nil
        }
        // Unknown exercises are reported once the workout is found (`apply`): another user's workout is NOT_FOUND.
        let catalog = try await context.catalog.exercises(ids: referenced.map(\.id))
        let context = self.context
        return try await mutate(
            userId: userId, workoutId: request.workoutId, key: key, operation: "patchActiveWorkout", request: request,
            expectedVersion: request.expectedVersion
        ) { workout, _ in
            let before = workout
            for (index, op) in request.ops.enumerated() {
                try Self.apply(op, index: index, to: &workout, catalog: catalog, context: context, before: before)
            }
            var result = workout
            result.totals = WorkoutAnalyzer.totals(workout.exercises)
            result.version += 1
            return result
        }
    }

    struct AddExerciseRequest: Codable, Sendable {
        var workoutId: String
        var exerciseId: String
        var sets: Int?
    }

    func addExercise(userId: String, request: AddExerciseRequest, key: String?) async throws -> IdempotentAnswer<ActiveWorkout> {
        let catalog = try await context.catalog.exercises(ids: [request.exerciseId])
        let context = self.context
        return try await mutate(userId: userId, workoutId: request.workoutId, key: key, operation: "addExercise", request: request) {
            workout, _ in
            try Self.apply(
                .addExercise(exerciseId: request.exerciseId, sets: request.sets), index: nil, to: &workout, catalog: catalog,
                context: context)
            return Self.answer(workout)
        }
    }

    struct SwapRequest: Codable, Sendable {
        var workoutId: String
        var exerciseInstanceId: String
        var newExerciseId: String
    }

    /// Swaps an exercise for another. Sets already logged stay with the exercise they were done on (history
    /// and progression stay true): the logged part remains as its own entry and the new exercise takes the
    /// sets still to do, right after it. With nothing logged yet the exercise is replaced in place. Either way the
    /// sets still to do keep their ids and target reps and RIR only: weights, planned or typed, were for the old
    /// exercise and do not carry over to a different one. A split adds an entry, so it is refused in a workout
    /// that already holds 50.
    func swapExercise(userId: String, request: SwapRequest, key: String?) async throws -> IdempotentAnswer<ActiveWorkout> {
        let catalog = try await context.catalog.exercises(ids: [request.newExerciseId])
        let context = self.context
        return try await mutate(userId: userId, workoutId: request.workoutId, key: key, operation: "swapExercise", request: request) {
            workout, _ in
            guard let index = workout.exercises.firstIndex(where: { $0.instanceId == request.exerciseInstanceId }) else {
                throw ServiceError(
                    .notFound, "That exercise is not in this workout.", details: ["exercise_instance_id": request.exerciseInstanceId])
            }
            guard let replacement = catalog[request.newExerciseId] else {
                throw WorkoutsContext.unknownExercise(field: "new_exercise_id", id: request.newExerciseId)
            }
            let original = workout.exercises[index]
            // Swapping an exercise for itself would drop its planned and typed weights (meant for another
            // exercise) or split it in two: it is refused, like any other write that changes nothing.
            guard replacement.id != original.exerciseId else {
                throw ServiceError.invalidArgument(
                    field: "new_exercise_id", reason: "is already the exercise of this entry",
                    message: "That exercise is already \(original.name); choose another one to swap to.")
            }
            let logged = original.sets.filter { $0.completedAt != nil }
            let remaining = original.sets.filter { $0.completedAt == nil }
            let carried = remaining.map { WorkoutSet(id: $0.id, setIndex: $0.setIndex, targetReps: $0.targetReps, targetRir: $0.targetRir) }
            if logged.isEmpty {
                workout.exercises[index].exerciseId = replacement.id
                workout.exercises[index].name = replacement.name
                workout.exercises[index].sets = carried
            } else {
                try WorkoutsValidation.roomForAnotherExercise(
                    workout.exercises.count, field: "exercise_instance_id",
                    reason: "has logged sets, so swapping it adds an exercise, and a workout holds at most 50")
                workout.exercises[index].sets = Self.reindexed(logged)
                let fresh = carried.isEmpty ? [WorkoutSet(id: context.ids.makeID(), setIndex: 0)] : carried
                workout.exercises.insert(
                    WorkoutExercise(
                        instanceId: context.ids.makeID(), exerciseId: replacement.id, name: replacement.name, sets: Self.reindexed(fresh)),
                    at: index + 1)
            }
            return Self.answer(workout)
        }
    }

    /// The document as it will be saved (totals and version of the write included).
    static func answer(_ workout: ActiveWorkout) -> ActiveWorkout {
        var result = workout
        result.totals = WorkoutAnalyzer.totals(workout.exercises)
        result.version += 1
        return result
    }

    /// The positions of a set named with its exercise entry. A set that is in the workout under another entry was
    /// moved there by a swap (`swapExercise` gives the sets still to do to the new exercise, ids kept), after the
    /// client last read the workout: it is `CONFLICT` naming where the set now is, not `NOT_FOUND`, and is not
    /// written, as the client meant it for the exercise it still shows.
    static func locate(_ instanceId: String, _ setId: String, in workout: ActiveWorkout) throws -> (Int, Int) {
        guard let exercise = workout.exercises.firstIndex(where: { $0.instanceId == instanceId }) else {
            throw ServiceError(.notFound, "That exercise is not in this workout.", details: ["exercise_instance_id": instanceId])
        }
        if let set = workout.exercises[exercise].sets.firstIndex(where: { $0.id == setId }) { return (exercise, set) }
        // Set ids are unique within a workout (the key of its set rows). A swap leaves the entry it was asked for
        // in place (holding the sets logged before it), so the entry named is here and the set moved on.
        if let moved = workout.exercises.first(where: { $0.sets.contains { $0.id == setId } }) {
            throw ServiceError(
                .conflict, "This set now belongs to \(moved.name) (the exercise was swapped). Reload the workout and try again.",
                details: ["set_id": setId, "exercise_instance_id": moved.instanceId, "current_version": "\(workout.version)"])
        }
        throw ServiceError(.notFound, "That set is not in this workout.", details: ["set_id": setId])
    }

    /// A reorder must list each id once; a list of other ids than the workout's was made from an older read of it
    /// (an exercise or set added or removed since, on another device or by the coach): `CONFLICT`, so the client
    /// reloads rather than taking its request for malformed. Unless it lists them as they were before an earlier
    /// operation of the same patch (`before`): reloading would not help a patch that adds and then reorders (it
    /// cannot name what it adds), so that is `INVALID_ARGUMENT`.
    static func checkOrder(_ order: [String], against current: [String], before: [String]?, field: String, what: String, version: Int)
        throws
    {
        guard Set(order).count == order.count else {
            throw ServiceError.invalidArgument(field: field, reason: "lists an id more than once")
        }
        guard order.count == current.count, Set(order) == Set(current) else {
            if let before, before.count == order.count, Set(before) == Set(order) {
                throw ServiceError.invalidArgument(
                    field: field,
                    reason:
                        "lists the \(what) as they were before an earlier operation of this patch changed them; reorder in a patch of its own"
                )
            }
            throw ServiceError(
                .conflict, "The \(what) changed since the workout was read. Reload it and try again.",
                details: ["field": field, "current_version": "\(version)"])
        }
    }

    static func reindexed(_ sets: [WorkoutSet]) -> [WorkoutSet] {
        sets.enumerated().map { index, set in
            var set = set
            set.setIndex = index
            return set
        }
    }

    /// `before`: the workout as the patch found it, before its first operation.
    static func apply(
        _ op: PatchOperation, index: Int?, to workout: inout ActiveWorkout, catalog: [String: Exercise], context: WorkoutsContext,
        before: ActiveWorkout? = nil
    ) throws {
        let prefix = index.map { "ops[\($0)]." } ?? ""
        switch op {
        case .setField(let instance, let setId, let field, let value):
            let (exercise, set) = try locate(instance, setId, in: workout)
            let whole = value.map { Int(exactly: $0) }
            if let whole, whole == nil, field != "weight_kg", field != "target_weight_kg" {
                throw ServiceError.invalidArgument(field: "\(prefix)value", reason: "must be a whole number for \(field)")
            }
            switch field {
            case "weight_kg": workout.exercises[exercise].sets[set].weightKg = try WorkoutsValidation.weight(value, field: "\(prefix)value")
            case "reps": workout.exercises[exercise].sets[set].reps = try WorkoutsValidation.reps(whole ?? nil, field: "\(prefix)value")
            case "rir": workout.exercises[exercise].sets[set].rir = try WorkoutsValidation.rir(whole ?? nil, field: "\(prefix)value")
            case "target_reps":
                workout.exercises[exercise].sets[set].targetReps = try WorkoutsValidation.reps(whole ?? nil, field: "\(prefix)value")
            case "target_weight_kg":
                workout.exercises[exercise].sets[set].targetWeightKg = try WorkoutsValidation.weight(value, field: "\(prefix)value")
            default: workout.exercises[exercise].sets[set].targetRir = try WorkoutsValidation.rir(whole ?? nil, field: "\(prefix)value")
            }
            // A logged set has its weight and reps (logSet requires both): clearing either un-logs the set, so it
            // no longer counts in the totals nor goes into the archive, as if it had never been logged.
            if value == nil, field == "weight_kg" || field == "reps" {
                workout.exercises[exercise].sets[set].completedAt = nil
            }
        case .addSet(let instance, let reps, let rir):
            guard let exercise = workout.exercises.firstIndex(where: { $0.instanceId == instance }) else {
                throw ServiceError(.notFound, "That exercise is not in this workout.", details: ["exercise_instance_id": instance])
            }
            guard workout.exercises[exercise].sets.count < 30 else {
                throw ServiceError.invalidArgument(field: "\(prefix)exercise_instance_id", reason: "at most 30 sets per exercise")
            }
            workout.exercises[exercise].sets.append(
                WorkoutSet(
                    id: context.ids.makeID(), setIndex: workout.exercises[exercise].sets.count,
                    targetReps: try WorkoutsValidation.reps(reps, field: "\(prefix)target_reps"),
                    targetRir: try WorkoutsValidation.rir(rir, field: "\(prefix)target_rir")))
        case .removeSet(let instance, let setId):
            let (exercise, set) = try locate(instance, setId, in: workout)
            workout.exercises[exercise].sets.remove(at: set)
            workout.exercises[exercise].sets = reindexed(workout.exercises[exercise].sets)
        case .addExercise(let exerciseId, let sets):
            guard let exercise = catalog[exerciseId] else {
                throw WorkoutsContext.unknownExercise(field: "\(prefix)exercise_id", id: exerciseId)
            }
            let count = sets ?? 3
            guard (0...30).contains(count) else {
                throw ServiceError.invalidArgument(field: "\(prefix)sets", reason: "must be from 0 to 30")
            }
            try WorkoutsValidation.roomForAnotherExercise(workout.exercises.count, field: "\(prefix)exercise_id")
            workout.exercises.append(
                WorkoutExercise(
                    instanceId: context.ids.makeID(), exerciseId: exercise.id, name: exercise.name,
                    sets: (0..<count).map { WorkoutSet(id: context.ids.makeID(), setIndex: $0) }))
        case .removeExercise(let instance):
            guard let exercise = workout.exercises.firstIndex(where: { $0.instanceId == instance }) else {
                throw ServiceError(.notFound, "That exercise is not in this workout.", details: ["exercise_instance_id": instance])
            }
            workout.exercises.remove(at: exercise)
        case .reorderExercises(let order):
            try checkOrder(
                order, against: workout.exercises.map(\.instanceId), before: before?.exercises.map(\.instanceId), field: "\(prefix)order",
                what: "exercises of this workout", version: workout.version)
            let byID = Dictionary(uniqueKeysWithValues: workout.exercises.map { ($0.instanceId, $0) })
            workout.exercises = order.compactMap { byID[$0] }
        case .reorderSets(let instance, let order):
            guard let exercise = workout.exercises.firstIndex(where: { $0.instanceId == instance }) else {
                throw ServiceError(.notFound, "That exercise is not in this workout.", details: ["exercise_instance_id": instance])
            }
            let sets = workout.exercises[exercise].sets
            try checkOrder(
                order, against: sets.map(\.id), before: before?.exercises.first { $0.instanceId == instance }?.sets.map(\.id),
                field: "\(prefix)order",
                what: "sets of this exercise", version: workout.version)
            let byID = Dictionary(uniqueKeysWithValues: sets.map { ($0.id, $0) })
            workout.exercises[exercise].sets = reindexed(order.compactMap { byID[$0] })
        }
    }
}
