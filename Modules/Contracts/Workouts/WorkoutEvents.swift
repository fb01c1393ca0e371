import Foundation

/// A workout was completed and archived. Published by Workouts in the completing transaction.
public struct WorkoutCompleted: DomainEvent, Equatable {
    public static let eventType = "workouts.workout_completed"
    public var userId: String
    public var workoutId: String
    public var sourceTemplateId: String?
    public var sourceRoutineId: String?
    public var completedAt: Date
    /// Minutes from start to completion, so subscribers that only count (product analytics) need not read the
    /// workout back. Absent in events published before they were carried.
    public var durationMinutes: Double?
    /// Exercises with at least one set done.
    public var exerciseCount: Int?
    /// Sets done.
    public var setCount: Int?
    /// True for a workout imported from another app's export (`importWorkouts`): history, not something done in the
    /// app now, so product analytics do not count it; training analytics do. Absent (nil) otherwise.
    public var imported: Bool?

    public init(
        userId: String, workoutId: String, sourceTemplateId: String?, sourceRoutineId: String?, completedAt: Date,
        durationMinutes: Double? = nil, exerciseCount: Int? = nil, setCount: Int? = nil, imported: Bool? = nil
    ) {
        self.userId = userId
        self.workoutId = workoutId
        self.sourceTemplateId = sourceTemplateId
        self.sourceRoutineId = sourceRoutineId
        self.completedAt = completedAt
        self.durationMinutes = durationMinutes
        self.exerciseCount = exerciseCount
        self.setCount = setCount
        self.imported = imported
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case workoutId = "workout_id"
        case sourceTemplateId = "source_template_id"
        case sourceRoutineId = "source_routine_id"
        case completedAt = "completed_at"
        case durationMinutes = "duration_min"
        case exerciseCount = "exercise_count"
        case setCount = "set_count"
        case imported
    }
}

/// A workout was started. Published by Workouts in the starting transaction (once: a retried start answers the
/// first start and publishes nothing).
public struct WorkoutStarted: DomainEvent, Equatable {
    public static let eventType = "workouts.workout_started"

    /// What the workout was started from.
    public enum Source: String, Codable, Sendable, CaseIterable {
        /// The next (or a named) template of a routine.
        case routine
        /// A template on its own.
        case template
        /// Nothing: an empty workout.
        case freeform
    }

    public var userId: String
    public var workoutId: String
    public var source: Source
    public var startedAt: Date

    public init(userId: String, workoutId: String, source: Source, startedAt: Date) {
        self.userId = userId
        self.workoutId = workoutId
        self.source = source
        self.startedAt = startedAt
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case workoutId = "workout_id"
        case source
        case startedAt = "started_at"
    }
}

/// A workout in progress was cancelled (nothing archived). Published by Workouts in the cancelling transaction.
public struct WorkoutCancelled: DomainEvent, Equatable {
    public static let eventType = "workouts.workout_cancelled"
    public var userId: String
    public var workoutId: String
    public var startedAt: Date
    public var cancelledAt: Date

    public init(userId: String, workoutId: String, startedAt: Date, cancelledAt: Date) {
        self.userId = userId
        self.workoutId = workoutId
        self.startedAt = startedAt
        self.cancelledAt = cancelledAt
    }

    /// Minutes the workout ran before it was cancelled.
    public var durationMinutes: Double { max(0, cancelledAt.timeIntervalSince(startedAt) / 60) }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case workoutId = "workout_id"
        case startedAt = "started_at"
        case cancelledAt = "cancelled_at"
    }
}

/// An archived workout was edited (analytics recomputed).
public struct WorkoutEdited: DomainEvent, Equatable {
    public static let eventType = "workouts.workout_edited"
    public var userId: String
    public var workoutId: String
    public var editedAt: Date

    public init(userId: String, workoutId: String, editedAt: Date) {
        self.userId = userId
        self.workoutId = workoutId
        self.editedAt = editedAt
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case workoutId = "workout_id"
        case editedAt = "edited_at"
    }
}

/// An archived workout was deleted.
public struct WorkoutDeleted: DomainEvent, Equatable {
    public static let eventType = "workouts.workout_deleted"
    public var userId: String
    public var workoutId: String
    /// The routine it was started from, if any (absent in events from before it was carried).
    public var sourceRoutineId: String?
    public var deletedAt: Date

    public init(userId: String, workoutId: String, sourceRoutineId: String? = nil, deletedAt: Date) {
        self.userId = userId
        self.workoutId = workoutId
        self.sourceRoutineId = sourceRoutineId
        self.deletedAt = deletedAt
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case workoutId = "workout_id"
        case sourceRoutineId = "source_routine_id"
        case deletedAt = "deleted_at"
    }
}
