import Contracts
import Foundation

/// Where a recommendation applies (docs/product.md "Recommendation scopes").
public enum RecommendationScope: String, Codable, Sendable {
    /// The user has an active routine: the change is to a template's planned weights.
    case template
    /// No active routine: a suggestion for the exercise; accepting it acknowledges it.
    case exercise
}

/// Where a recommendation stands.
public enum RecommendationStatus: String, Codable, Sendable, CaseIterable {
    case pendingReview = "pending_review"
    /// Auto-pilot applied it when it was made.
    case applied
    case accepted
    case rejected
    /// Not reviewed within its 7 days, or superseded by a newer one for the same target.
    case expired
}

/// What a recommendation changes: `template_id` (with the name and the version it was made against) or the
/// exercise.
public struct RecommendationTarget: Codable, Sendable, Equatable {
    public var templateId: String?
    public var templateName: String?
    public var templateVersion: Int?
    public var exerciseId: String?
    public var exerciseName: String?

    public init(
        templateId: String? = nil, templateName: String? = nil, templateVersion: Int? = nil, exerciseId: String? = nil,
        exerciseName: String? = nil
    ) {
        self.templateId = templateId
        self.templateName = templateName
        self.templateVersion = templateVersion
        self.exerciseId = exerciseId
        self.exerciseName = exerciseName
    }

    enum CodingKeys: String, CodingKey {
        case templateId = "template_id"
        case templateName = "template_name"
        case templateVersion = "template_version"
        case exerciseId = "exercise_id"
        case exerciseName = "exercise_name"
    }
}

/// The step of one exercise.
public enum ProgressionAction: String, Codable, Sendable, CaseIterable {
    /// One step up the grid (`WeightProgression`).
    case progress
    /// −10 % (`WeightProgression`).
    case deload
    /// A template's first weights, from what its first session logged (the set had none).
    case calibrate
    /// A stalled lift moves to another rep range, its weight brought to the new reps by its e1RM.
    case repRange = "rep_range"
}

/// One planned set before and after: its weight (none before a calibration) and, for a rep-range change, its reps.
public struct SetWeightChange: Codable, Sendable, Equatable {
    public var setIndex: Int
    @ExplicitNull public var fromWeightKg: Double?
    public var toWeightKg: Double
    @ExplicitNull public var fromReps: Int?
    @ExplicitNull public var toReps: Int?

    public init(setIndex: Int, fromWeightKg: Double?, toWeightKg: Double, fromReps: Int? = nil, toReps: Int? = nil) {
        self.setIndex = setIndex
        self.fromWeightKg = fromWeightKg
        self.toWeightKg = toWeightKg
        self.fromReps = fromReps
        self.toReps = toReps
    }

    enum CodingKeys: String, CodingKey {
        case setIndex = "set_index"
        case fromWeightKg = "from_weight_kg"
        case toWeightKg = "to_weight_kg"
        case fromReps = "from_reps"
        case toReps = "to_reps"
    }
}

/// One exercise's change: the heaviest weight before (none before a calibration) and after, the reps of a rep-range
/// change, and, for a template, every planned set's.
public struct ExerciseChange: Codable, Sendable, Equatable {
    public var exerciseId: String
    public var exerciseName: String
    public var action: ProgressionAction
    public var reason: String
    @ExplicitNull public var fromWeightKg: Double?
    public var toWeightKg: Double
    @ExplicitNull public var fromReps: Int?
    @ExplicitNull public var toReps: Int?
    public var sets: [SetWeightChange]

    public init(
        exerciseId: String, exerciseName: String, action: ProgressionAction, reason: String, fromWeightKg: Double?, toWeightKg: Double,
        fromReps: Int? = nil, toReps: Int? = nil, sets: [SetWeightChange] = []
    ) {
        self.exerciseId = exerciseId
        self.exerciseName = exerciseName
        self.action = action
        self.reason = reason
        self.fromWeightKg = fromWeightKg
        self.toWeightKg = toWeightKg
        self.fromReps = fromReps
        self.toReps = toReps
        self.sets = sets
    }

    enum CodingKeys: String, CodingKey {
        case exerciseId = "exercise_id"
        case exerciseName = "exercise_name"
        case action, reason
        case fromWeightKg = "from_weight_kg"
        case toWeightKg = "to_weight_kg"
        case fromReps = "from_reps"
        case toReps = "to_reps"
        case sets
    }
}

/// A recommendation as the API shows it (docs/recommendations.md).
public struct Recommendation: Codable, Sendable, Equatable {
    public var id: String
    public var scope: RecommendationScope
    public var target: RecommendationTarget
    public var changes: [ExerciseChange]
    public var status: RecommendationStatus
    /// The workout whose analysis made it; nil for one a weekly review made.
    @ExplicitNull public var workoutId: String?
    public var createdAt: Date
    public var expiresAt: Date
    public var reviewedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, scope, target, changes, status
        case workoutId = "workout_id"
        case createdAt = "created_at"
        case expiresAt = "expires_at"
        case reviewedAt = "reviewed_at"
    }
}
