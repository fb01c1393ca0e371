import Foundation

/// One week of one exercise: its working sets' numbers (weights in kg; e1RM by Epley, `weight × (1 + reps / 30)`).
public struct ExerciseWeek: Codable, Sendable, Equatable {
    /// The first day of the week in the user's time zone, `YYYY-MM-DD`.
    public var weekStart: String
    public var e1rmKg: Double
    public var topWeightKg: Double
    public var bestSet: BestSet
    public var volumeKg: Double
    public var sets: Int
    public var reps: Int

    /// The set with the highest e1RM of the week (ties: the heavier, then the earlier).
    public struct BestSet: Codable, Sendable, Equatable {
        public var weightKg: Double
        public var reps: Int

        public init(weightKg: Double, reps: Int) {
            self.weightKg = weightKg
            self.reps = reps
        }

        enum CodingKeys: String, CodingKey {
            case weightKg = "weight_kg"
            case reps
        }
    }

    public init(weekStart: String, e1rmKg: Double, topWeightKg: Double, bestSet: BestSet, volumeKg: Double, sets: Int, reps: Int) {
        self.weekStart = weekStart
        self.e1rmKg = e1rmKg
        self.topWeightKg = topWeightKg
        self.bestSet = bestSet
        self.volumeKg = volumeKg
        self.sets = sets
        self.reps = reps
    }

    enum CodingKeys: String, CodingKey {
        case weekStart = "week_start"
        case e1rmKg = "e1rm_kg"
        case topWeightKg = "top_weight_kg"
        case bestSet = "best_set"
        case volumeKg = "volume_kg"
        case sets, reps
    }
}

/// One week of one muscle: working sets (a secondary muscle counts half a set) and volume.
public struct MuscleWeek: Codable, Sendable, Equatable {
    public var weekStart: String
    public var sets: Double
    public var volumeKg: Double

    public init(weekStart: String, sets: Double, volumeKg: Double) {
        self.weekStart = weekStart
        self.sets = sets
        self.volumeKg = volumeKg
    }

    enum CodingKeys: String, CodingKey {
        case weekStart = "week_start"
        case sets
        case volumeKg = "volume_kg"
    }
}

/// One week of training as a whole.
public struct WeeklyStats: Codable, Sendable, Equatable {
    public var weekStart: String
    public var workouts: Int
    /// Logged sets, reps and volume, warm-ups included (as a workout's totals count them).
    public var sets: Int
    public var reps: Int
    public var volumeKg: Double
    public var durationMin: Int
    /// Working sets per muscle (a secondary muscle counts half).
    public var setsByMuscle: [String: Double]

    public init(weekStart: String, workouts: Int, sets: Int, reps: Int, volumeKg: Double, durationMin: Int, setsByMuscle: [String: Double])
    {
        self.weekStart = weekStart
        self.workouts = workouts
        self.sets = sets
        self.reps = reps
        self.volumeKg = volumeKg
        self.durationMin = durationMin
        self.setsByMuscle = setsByMuscle
    }

    enum CodingKeys: String, CodingKey {
        case weekStart = "week_start"
        case workouts, sets, reps
        case volumeKg = "volume_kg"
        case durationMin = "duration_min"
        case setsByMuscle = "sets_by_muscle"
    }
}

/// One logged set as Analytics keeps it.
public struct TrainingSet: Codable, Sendable, Equatable {
    public var workoutId: String
    public var exerciseId: String
    public var exerciseName: String
    /// The workout's day in the user's time zone, `YYYY-MM-DD`, and its week's first day.
    public var date: String
    public var weekStart: String
    public var weightKg: Double
    public var reps: Int
    @ExplicitNull public var rir: Int?
    public var e1rmKg: Double
    public var volumeKg: Double
    /// False for a warm-up: a set lighter than half the heaviest set of its exercise in the workout.
    public var working: Bool
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]

    public init(
        workoutId: String, exerciseId: String, exerciseName: String, date: String, weekStart: String, weightKg: Double, reps: Int,
        rir: Int?, e1rmKg: Double, volumeKg: Double, working: Bool, primaryMuscles: [String], secondaryMuscles: [String]
    ) {
        self.workoutId = workoutId
        self.exerciseId = exerciseId
        self.exerciseName = exerciseName
        self.date = date
        self.weekStart = weekStart
        self.weightKg = weightKg
        self.reps = reps
        self.rir = rir
        self.e1rmKg = e1rmKg
        self.volumeKg = volumeKg
        self.working = working
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
    }

    enum CodingKeys: String, CodingKey {
        case workoutId = "workout_id"
        case exerciseId = "exercise_id"
        case exerciseName = "exercise_name"
        case date
        case weekStart = "week_start"
        case weightKg = "weight_kg"
        case reps, rir
        case e1rmKg = "e1rm_kg"
        case volumeKg = "volume_kg"
        case working
        case primaryMuscles = "primary_muscles"
        case secondaryMuscles = "secondary_muscles"
    }
}

/// Which sets `trainingSets` returns. Empty filters are no filter.
public struct TrainingSetQuery: Sendable, Equatable {
    public var exerciseId: String?
    public var muscle: String?
    /// Days in the user's time zone, `YYYY-MM-DD`, both included.
    public var from: String?
    public var to: String?
    public var limit: Int
    public var cursor: String?

    public init(
        exerciseId: String? = nil, muscle: String? = nil, from: String? = nil, to: String? = nil, limit: Int = 50, cursor: String? = nil
    ) {
        self.exerciseId = exerciseId
        self.muscle = muscle
        self.from = from
        self.to = to
        self.limit = limit
        self.cursor = cursor
    }
}

/// A page of sets, newest first.
public struct TrainingSetPage: Codable, Sendable, Equatable {
    public var items: [TrainingSet]
    public var nextCursor: String?

    public init(items: [TrainingSet], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }
}

/// One exercise's best over recent weeks: what a starting weight is planned from.
public struct ExerciseBest: Codable, Sendable, Equatable {
    public var exerciseId: String
    /// The highest weekly e1RM of the weeks asked for (Epley, from the logged sets as done: RIR not counted).
    public var e1rmKg: Double
    /// The newest week the exercise was trained in, `YYYY-MM-DD`.
    public var lastWeekStart: String

    /// The most exercises `exerciseBests` answers.
    public static let limit = 300

    public init(exerciseId: String, e1rmKg: Double, lastWeekStart: String) {
        self.exerciseId = exerciseId
        self.e1rmKg = e1rmKg
        self.lastWeekStart = lastWeekStart
    }

    enum CodingKeys: String, CodingKey {
        case exerciseId = "exercise_id"
        case e1rmKg = "e1rm_kg"
        case lastWeekStart = "last_week_start"
    }
}

/// The user's training analytics: exact, maintained as workouts are completed, edited and deleted. Provided by
/// Analytics; read by the coach and the analyst. Weeks start on the user's chosen day in the user's time zone;
/// only weeks with training appear. Weeks count back from the current week (`weeks` 1…260).
public protocol TrainingAnalytics: Sendable {
    /// The exercise's weekly points over the last `weeks` weeks, oldest first.
    func exerciseProgress(userId: String, exerciseId: String, weeks: Int) async throws -> [ExerciseWeek]
    /// Every exercise trained in the last `weeks` weeks with its best e1RM over them, at most `ExerciseBest.limit`
    /// (the most recently trained first), ordered by exercise id.
    func exerciseBests(userId: String, weeks: Int) async throws -> [ExerciseBest]
    /// The muscle's weekly points over the last `weeks` weeks, oldest first.
    func muscleProgress(userId: String, muscle: String, weeks: Int) async throws -> [MuscleWeek]
    /// The last `weeks` weeks' stats, oldest first.
    func weeklyStats(userId: String, weeks: Int) async throws -> [WeeklyStats]
    /// Logged sets matching the query, newest first. Throws `INVALID_ARGUMENT` for a bad limit (1…200), date or
    /// cursor.
    func trainingSets(userId: String, query: TrainingSetQuery) async throws -> TrainingSetPage
    /// The compact summary the coach puts in front of a request (at most 2 KB as JSON).
    func trainingContext(userId: String) async throws -> TrainingContext
}
