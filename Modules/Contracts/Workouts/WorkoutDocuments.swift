import Foundation

/// One set of a workout: targets from the plan, actuals once logged.
public struct WorkoutSet: Codable, Sendable, Equatable {
    public var id: String
    public var setIndex: Int
    public var targetReps: Int?
    public var targetRir: Int?
    /// The weight planned for the set (from its template), apart from the weight actually lifted.
    public var targetWeightKg: Double?
    public var weightKg: Double?
    public var reps: Int?
    public var rir: Int?
    /// Nil until the set is logged.
    public var completedAt: Date?

    public init(
        id: String, setIndex: Int, targetReps: Int? = nil, targetRir: Int? = nil, targetWeightKg: Double? = nil, weightKg: Double? = nil,
        reps: Int? = nil, rir: Int? = nil, completedAt: Date? = nil
    ) {
        self.id = id
        self.setIndex = setIndex
        self.targetReps = targetReps
        self.targetRir = targetRir
        self.targetWeightKg = targetWeightKg
        self.weightKg = weightKg
        self.reps = reps
        self.rir = rir
        self.completedAt = completedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case setIndex = "set_index"
        case targetReps = "target_reps"
        case targetRir = "target_rir"
        case targetWeightKg = "target_weight_kg"
        case weightKg = "weight_kg"
        case weight
        case reps, rir
        case completedAt = "completed_at"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        setIndex = try container.decode(Int.self, forKey: .setIndex)
        targetReps = try container.decodeIfPresent(Int.self, forKey: .targetReps)
        targetRir = try container.decodeIfPresent(Int.self, forKey: .targetRir)
        targetWeightKg = try container.decodeIfPresent(Double.self, forKey: .targetWeightKg)
        // Legacy documents carry `weight`, which was always kilograms.
        weightKg = try container.decodeIfPresent(Double.self, forKey: .weightKg) ?? container.decodeIfPresent(Double.self, forKey: .weight)
        reps = try container.decodeIfPresent(Int.self, forKey: .reps)
        rir = try container.decodeIfPresent(Int.self, forKey: .rir)
        completedAt = try container.decodeIfPresent(Date.self, forKey: .completedAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(setIndex, forKey: .setIndex)
        try container.encode(targetReps, forKey: .targetReps)
        try container.encode(targetRir, forKey: .targetRir)
        try container.encode(targetWeightKg, forKey: .targetWeightKg)
        try container.encode(weightKg, forKey: .weightKg)
        try container.encode(reps, forKey: .reps)
        try container.encode(rir, forKey: .rir)
        try container.encode(completedAt, forKey: .completedAt)
    }
}

/// One exercise of a workout, addressed by its instance id (the same exercise may appear twice).
public struct WorkoutExercise: Codable, Sendable, Equatable {
    public var instanceId: String
    public var exerciseId: String
    public var name: String
    public var sets: [WorkoutSet]

    public init(instanceId: String, exerciseId: String, name: String, sets: [WorkoutSet]) {
        self.instanceId = instanceId
        self.exerciseId = exerciseId
        self.name = name
        self.sets = sets
    }

    enum CodingKeys: String, CodingKey {
        case instanceId = "instance_id"
        case exerciseId = "exercise_id"
        case name, sets
    }
}

/// Sets, reps and volume (kg × reps) of logged sets.
public struct WorkoutTotals: Codable, Sendable, Equatable {
    public var sets: Int
    public var reps: Int
    public var volume: Double

    public init(sets: Int = 0, reps: Int = 0, volume: Double = 0) {
        self.sets = sets
        self.reps = reps
        self.volume = volume
    }

    /// The totals of the logged sets (those with `completed_at`), volume rounded to 0.1 kg.
    public init(loggedSetsOf exercises: [WorkoutExercise]) {
        self.init()
        for exercise in exercises {
            for set in exercise.sets where set.completedAt != nil {
                sets += 1
                reps += set.reps ?? 0
                volume += (set.weightKg ?? 0) * Double(set.reps ?? 0)
            }
        }
        volume = volume.roundedToTenth
    }
}

/// Where an active workout stands.
public enum WorkoutStatus: String, Codable, Sendable {
    case inProgress = "in_progress"
    case completed
    case cancelled
}

/// The active workout document (docs/product.md "Documents the app reads", with ids for addressing).
public struct ActiveWorkout: Codable, Sendable, Equatable {
    public var id: String
    public var userId: String
    @ExplicitNull public var name: String?
    @ExplicitNull public var sourceTemplateId: String?
    @ExplicitNull public var sourceRoutineId: String?
    public var status: WorkoutStatus
    public var startTime: Date
    public var version: Int
    public var exercises: [WorkoutExercise]
    public var totals: WorkoutTotals
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, userId: String, name: String?, sourceTemplateId: String?, sourceRoutineId: String?, status: WorkoutStatus,
        startTime: Date, version: Int, exercises: [WorkoutExercise], totals: WorkoutTotals, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.sourceTemplateId = sourceTemplateId
        self.sourceRoutineId = sourceRoutineId
        self.status = status
        self.startTime = startTime
        self.version = version
        self.exercises = exercises
        self.totals = totals
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case userId = "user_id"
        case name
        case sourceTemplateId = "source_template_id"
        case sourceRoutineId = "source_routine_id"
        case status
        case startTime = "start_time"
        case version, exercises, totals
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// Per-exercise numbers of a completed workout.
public struct ExerciseAnalytics: Codable, Sendable, Equatable {
    public var instanceId: String
    public var exerciseId: String
    public var name: String
    public var sets: Int
    public var reps: Int
    public var volume: Double
    /// Best estimated one-rep max over the exercise's sets (Epley), nil when no set had weight and reps.
    @ExplicitNull public var bestE1rm: Double?

    public init(instanceId: String, exerciseId: String, name: String, sets: Int, reps: Int, volume: Double, bestE1rm: Double?) {
        self.instanceId = instanceId
        self.exerciseId = exerciseId
        self.name = name
        self.sets = sets
        self.reps = reps
        self.volume = volume
        self.bestE1rm = bestE1rm
    }

    enum CodingKeys: String, CodingKey {
        case instanceId = "instance_id"
        case exerciseId = "exercise_id"
        case name, sets, reps, volume
        case bestE1rm = "best_e1rm"
    }
}

/// Per-muscle numbers of a completed workout (primary muscles of each exercise).
public struct MuscleAnalytics: Codable, Sendable, Equatable {
    public var muscle: String
    public var sets: Int
    public var volume: Double

    public init(muscle: String, sets: Int, volume: Double) {
        self.muscle = muscle
        self.sets = sets
        self.volume = volume
    }
}

/// The analytics archived with a completed workout.
public struct WorkoutAnalytics: Codable, Sendable, Equatable {
    public var totals: WorkoutTotals
    public var exercises: [ExerciseAnalytics]
    public var muscles: [MuscleAnalytics]

    public init(totals: WorkoutTotals, exercises: [ExerciseAnalytics], muscles: [MuscleAnalytics]) {
        self.totals = totals
        self.exercises = exercises
        self.muscles = muscles
    }
}

/// An archived (completed) workout.
public struct CompletedWorkout: Codable, Sendable, Equatable {
    public var id: String
    public var userId: String
    @ExplicitNull public var name: String?
    @ExplicitNull public var sourceTemplateId: String?
    @ExplicitNull public var sourceRoutineId: String?
    public var startTime: Date
    public var endTime: Date
    public var exercises: [WorkoutExercise]
    public var analytics: WorkoutAnalytics
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, userId: String, name: String?, sourceTemplateId: String?, sourceRoutineId: String?, startTime: Date, endTime: Date,
        exercises: [WorkoutExercise], analytics: WorkoutAnalytics, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.sourceTemplateId = sourceTemplateId
        self.sourceRoutineId = sourceRoutineId
        self.startTime = startTime
        self.endTime = endTime
        self.exercises = exercises
        self.analytics = analytics
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case userId = "user_id"
        case name
        case sourceTemplateId = "source_template_id"
        case sourceRoutineId = "source_routine_id"
        case startTime = "start_time"
        case endTime = "end_time"
        case exercises, analytics
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
