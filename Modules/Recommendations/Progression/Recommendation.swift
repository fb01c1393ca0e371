import Contracts
import Foundation

/// Where a recommendation applies (seed 003 "Recommendation Scopes").
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

/// The progression step of one exercise.
public enum ProgressionAction: String, Codable, Sendable {
    case progress, deload
}

/// One planned set's weight before and after.
public struct SetWeightChange: Codable, Sendable, Equatable {
    public var setIndex: Int
    public var fromWeightKg: Double
    public var toWeightKg: Double

    public init(setIndex: Int, fromWeightKg: Double, toWeightKg: Double) {
        self.setIndex = setIndex
        self.fromWeightKg = fromWeightKg
        self.toWeightKg = toWeightKg
    }

    enum CodingKeys: String, CodingKey {
        case setIndex = "set_index"
        case fromWeightKg = "from_weight_kg"
        case toWeightKg = "to_weight_kg"
    }
}

/// One exercise's change: the heaviest weight before and after and, for a template, every planned set's.
public struct ExerciseChange: Codable, Sendable, Equatable {
    public var exerciseId: String
    public var exerciseName: String
    public var action: ProgressionAction
    public var reason: String
    public var fromWeightKg: Double
    public var toWeightKg: Double
    public var sets: [SetWeightChange]

    public init(
        exerciseId: String, exerciseName: String, action: ProgressionAction, reason: String, fromWeightKg: Double, toWeightKg: Double,
        sets: [SetWeightChange] = []
    ) {
        self.exerciseId = exerciseId
        self.exerciseName = exerciseName
        self.action = action
        self.reason = reason
        self.fromWeightKg = fromWeightKg
        self.toWeightKg = toWeightKg
        self.sets = sets
    }

    enum CodingKeys: String, CodingKey {
        case exerciseId = "exercise_id"
        case exerciseName = "exercise_name"
        case action, reason
        case fromWeightKg = "from_weight_kg"
        case toWeightKg = "to_weight_kg"
        case sets
    }
}

/// A recommendation as the API shows it (API.md "Recommendations").
public struct Recommendation: Codable, Sendable, Equatable {
    public var id: String
    public var scope: RecommendationScope
    public var target: RecommendationTarget
    public var changes: [ExerciseChange]
    public var status: RecommendationStatus
    /// The workout whose analysis made it.
    public var workoutId: String
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
