import Foundation

/// A workout was completed and archived. Published by Workouts in the completing transaction.
public struct WorkoutCompleted: DomainEvent, Equatable {
    public static let eventType = "workouts.workout_completed"
    public var userId: String
    public var workoutId: String
    public var sourceTemplateId: String?
    public var sourceRoutineId: String?
    public var completedAt: Date

    public init(userId: String, workoutId: String, sourceTemplateId: String?, sourceRoutineId: String?, completedAt: Date) {
        self.userId = userId
        self.workoutId = workoutId
        self.sourceTemplateId = sourceTemplateId
        self.sourceRoutineId = sourceRoutineId
        self.completedAt = completedAt
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case workoutId = "workout_id"
        case sourceTemplateId = "source_template_id"
        case sourceRoutineId = "source_routine_id"
        case completedAt = "completed_at"
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
