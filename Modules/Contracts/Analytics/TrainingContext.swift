import Foundation

/// What the coach puts in front of a request: the last workouts, this week's sets per muscle against the four
/// weeks before, and the main lifts' trend. Bounded whatever the history (at most 2 KB as JSON).
public struct TrainingContext: Codable, Sendable, Equatable {
    /// The current week's first day in the user's time zone.
    public var weekStart: String
    /// Workouts in the current week and in each of the four weeks before it, newest first.
    public var workoutsPerWeek: [Int]
    /// The last three workouts, newest first.
    public var lastWorkouts: [RecentWorkout]
    /// Up to eight muscles trained in the last five weeks, most sets this week first.
    public var muscles: [MuscleLoad]
    /// Up to five exercises with the most working sets in the last eight weeks.
    public var lifts: [LiftTrend]

    public init(weekStart: String, workoutsPerWeek: [Int], lastWorkouts: [RecentWorkout], muscles: [MuscleLoad], lifts: [LiftTrend]) {
        self.weekStart = weekStart
        self.workoutsPerWeek = workoutsPerWeek
        self.lastWorkouts = lastWorkouts
        self.muscles = muscles
        self.lifts = lifts
    }

    public struct RecentWorkout: Codable, Sendable, Equatable {
        public var date: String
        public var sets: Int
        public var volumeKg: Double
        /// Its exercises' names, at most four.
        public var exercises: [String]

        public init(date: String, sets: Int, volumeKg: Double, exercises: [String]) {
            self.date = date
            self.sets = sets
            self.volumeKg = volumeKg
            self.exercises = exercises
        }

        enum CodingKeys: String, CodingKey {
            case date, sets
            case volumeKg = "volume_kg"
            case exercises
        }
    }

    public struct MuscleLoad: Codable, Sendable, Equatable {
        public var muscle: String
        /// Working sets this week, and the weekly average of the four weeks before.
        public var sets: Double
        public var previousAverage: Double

        public init(muscle: String, sets: Double, previousAverage: Double) {
            self.muscle = muscle
            self.sets = sets
            self.previousAverage = previousAverage
        }

        enum CodingKeys: String, CodingKey {
            case muscle, sets
            case previousAverage = "prev_avg"
        }
    }

    public struct LiftTrend: Codable, Sendable, Equatable {
        public var exerciseId: String
        public var name: String
        /// The best e1RM of the last four weeks, and of the four weeks before (nil when not trained then).
        public var e1rmKg: Double
        @ExplicitNull public var previousE1rmKg: Double?

        public init(exerciseId: String, name: String, e1rmKg: Double, previousE1rmKg: Double?) {
            self.exerciseId = exerciseId
            self.name = name
            self.e1rmKg = e1rmKg
            self.previousE1rmKg = previousE1rmKg
        }

        enum CodingKeys: String, CodingKey {
            case exerciseId = "exercise_id"
            case name
            case e1rmKg = "e1rm_kg"
            case previousE1rmKg = "prev_e1rm_kg"
        }
    }

    enum CodingKeys: String, CodingKey {
        case weekStart = "week_start"
        case workoutsPerWeek = "workouts_per_week"
        case lastWorkouts = "last_workouts"
        case muscles, lifts
    }
}
