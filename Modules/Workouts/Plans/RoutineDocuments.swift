import Contracts
import Foundation
import Platform

/// A routine as a client writes it. Legacy `templateIds` is read as `template_ids`.
public struct RoutineDraft: Codable, Sendable, Equatable {
    public var name: String
    public var description: String?
    public var templateIds: [String]
    public var frequency: Int?

    public init(name: String, description: String? = nil, templateIds: [String], frequency: Int? = nil) {
        self.name = name
        self.description = description
        self.templateIds = templateIds
        self.frequency = frequency
    }

    enum CodingKeys: String, CodingKey {
        case name, description, frequency
        case templateIds = "template_ids"
        case legacyTemplateIds = "templateIds"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        frequency = try container.decodeIfPresent(Int.self, forKey: .frequency)
        templateIds = try container.decode([String].self, forKey: .templateIds, alias: .legacyTemplateIds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(templateIds, forKey: .templateIds)
        try container.encodeIfPresent(frequency, forKey: .frequency)
    }
}

/// The stored form of a routine: the document plus the rest of its cursor (`RoutineCursor`): the position of
/// the last completed template, which keeps the cursor meaningful when templates are removed or reordered, and
/// the completions that moved it.
struct StoredRoutine: Codable, Sendable {
    var routine: Routine
    /// `RoutineCursor.lastCompletedIndex`.
    var lastCompletedIndex: Int?
    /// `RoutineCursor.nextPosition`.
    var nextPosition: Int?
    /// `RoutineCursor.recent`.
    var recent: [RoutineCursor.Step]?

    enum CodingKeys: String, CodingKey {
        case routine
        case lastCompletedIndex = "last_completed_index"
        case nextPosition = "next_position"
        case recent = "recent_completions"
    }

    /// The routine's cursor: its list and last completion (kept in the routine document, as clients read them)
    /// and the positions and completions kept beside it.
    var cursor: RoutineCursor {
        get {
            RoutineCursor(
                templateIds: routine.templateIds, lastCompletedTemplateId: routine.lastCompletedTemplateId,
                lastCompletedAt: routine.lastCompletedAt, lastCompletedIndex: lastCompletedIndex, nextPosition: nextPosition, recent: recent
            )
        }
        set {
            routine.templateIds = newValue.templateIds
            routine.lastCompletedTemplateId = newValue.lastCompletedTemplateId
            routine.lastCompletedAt = newValue.lastCompletedAt
            lastCompletedIndex = newValue.lastCompletedIndex
            nextPosition = newValue.nextPosition
            recent = newValue.recent
        }
    }
}

/// The next workout of a routine.
public struct NextWorkout: Codable, Sendable, Equatable {
    public var template: WorkoutTemplate
    public var index: Int
    public var routineId: String

    enum CodingKeys: String, CodingKey {
        case template, index
        case routineId = "routine_id"
    }
}

/// Changes to a routine; absent fields stay as they are. Legacy `templateIds` is read as `template_ids`.
struct RoutinePatch: Codable, Sendable, Equatable {
    var name: String?
    var description: String?
    var templateIds: [String]?
    var frequency: Int?

    enum CodingKeys: String, CodingKey {
        case name, description, frequency
        case templateIds = "template_ids"
        case legacyTemplateIds = "templateIds"
    }

    init(name: String? = nil, description: String? = nil, templateIds: [String]? = nil, frequency: Int? = nil) {
        self.name = name
        self.description = description
        self.templateIds = templateIds
        self.frequency = frequency
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        frequency = try container.decodeIfPresent(Int.self, forKey: .frequency)
        templateIds = try container.decodeIfPresent([String].self, forKey: .templateIds, alias: .legacyTemplateIds)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(templateIds, forKey: .templateIds)
        try container.encodeIfPresent(frequency, forKey: .frequency)
    }
}

extension RoutinePatch: PatchChanges {
    init() { self.init(name: nil) }
}

/// A routine as the routine endpoints answer it: the document and `is_active`, whether it is the user's active
/// routine (the original app's `isActive`), so every device can show which one is without asking elsewhere.
/// The flag is read with the routine, not stored in it: it belongs to the user's settings.
struct RoutineAnswer: Codable, Sendable, Equatable {
    var routine: Routine
    var isActive: Bool

    enum CodingKeys: String, CodingKey { case isActive = "is_active" }

    init(_ routine: Routine, isActive: Bool) {
        self.routine = routine
        self.isActive = isActive
    }

    init(from decoder: any Decoder) throws {
        routine = try Routine(from: decoder)
        // Answers stored under a key before the flag was answered have none.
        isActive = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Bool.self, forKey: .isActive) ?? false
    }

    func encode(to encoder: any Encoder) throws {
        try routine.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isActive, forKey: .isActive)
    }
}
