import Foundation

/// A planned set of a template. Its empty fields are written as `null`, as every document's are.
public struct TemplateSet: Codable, Sendable, Equatable {
    @ExplicitNull public var targetReps: Int?
    @ExplicitNull public var targetRir: Int?
    @ExplicitNull public var targetWeightKg: Double?

    public init(targetReps: Int? = nil, targetRir: Int? = nil, targetWeightKg: Double? = nil) {
        self.targetReps = targetReps
        self.targetRir = targetRir
        self.targetWeightKg = targetWeightKg
    }

    enum CodingKeys: String, CodingKey {
        case targetReps = "target_reps"
        case targetRir = "target_rir"
        case targetWeightKg = "target_weight_kg"
        // The original templates' names for the plan: read as the targets (weight in kg), never written.
        case reps, rir, weight
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        targetReps = try container.decodeIfPresent(Int.self, forKey: .targetReps, alias: .reps)
        targetRir = try container.decodeIfPresent(Int.self, forKey: .targetRir, alias: .rir)
        targetWeightKg = try container.decodeIfPresent(Double.self, forKey: .targetWeightKg, alias: .weight)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(_targetReps, forKey: .targetReps)
        try container.encode(_targetRir, forKey: .targetRir)
        try container.encode(_targetWeightKg, forKey: .targetWeightKg)
    }
}

/// One exercise of a template (name denormalised from the catalog for display).
public struct TemplateExercise: Codable, Sendable, Equatable {
    public var exerciseId: String
    public var name: String
    public var sets: [TemplateSet]

    public init(exerciseId: String, name: String, sets: [TemplateSet]) {
        self.exerciseId = exerciseId
        self.name = name
        self.sets = sets
    }

    enum CodingKeys: String, CodingKey {
        case exerciseId = "exercise_id"
        case name, sets
    }
}

/// Computed on every write of a template.
public struct TemplateAnalytics: Codable, Sendable, Equatable {
    public var estimatedDurationMinutes: Int
    public var totalSets: Int
    /// Primary muscles, most-trained first.
    public var muscles: [String]

    public init(estimatedDurationMinutes: Int, totalSets: Int, muscles: [String]) {
        self.estimatedDurationMinutes = estimatedDurationMinutes
        self.totalSets = totalSets
        self.muscles = muscles
    }

    enum CodingKeys: String, CodingKey {
        case estimatedDurationMinutes = "estimated_duration_minutes"
        case totalSets = "total_sets"
        case muscles
    }
}

/// A workout template (docs/product.md "Documents the app reads").
public struct WorkoutTemplate: Codable, Sendable, Equatable {
    public var id: String
    public var userId: String
    public var name: String
    @ExplicitNull public var description: String?
    public var exercises: [TemplateExercise]
    public var analytics: TemplateAnalytics
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, userId: String, name: String, description: String?, exercises: [TemplateExercise], analytics: TemplateAnalytics,
        version: Int, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.description = description
        self.exercises = exercises
        self.analytics = analytics
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case userId = "user_id"
        case name, description, exercises, analytics, version
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// A routine: an ordered cycle of templates with a cursor (docs/product.md "Documents the app reads").
public struct Routine: Codable, Sendable, Equatable {
    public var id: String
    public var userId: String
    public var name: String
    @ExplicitNull public var description: String?
    public var templateIds: [String]
    @ExplicitNull public var frequency: Int?
    @ExplicitNull public var lastCompletedTemplateId: String?
    @ExplicitNull public var lastCompletedAt: Date?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, userId: String, name: String, description: String?, templateIds: [String], frequency: Int?,
        lastCompletedTemplateId: String?, lastCompletedAt: Date?, version: Int, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.description = description
        self.templateIds = templateIds
        self.frequency = frequency
        self.lastCompletedTemplateId = lastCompletedTemplateId
        self.lastCompletedAt = lastCompletedAt
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id
        case userId = "user_id"
        case name, description
        case templateIds = "template_ids"
        case frequency
        case lastCompletedTemplateId = "last_completed_template_id"
        case lastCompletedAt = "last_completed_at"
        case version
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
