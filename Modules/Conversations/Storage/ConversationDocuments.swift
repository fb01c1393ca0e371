import Contracts
import Foundation
import Platform

/// A conversation as listed: its title (set after the first exchange), the workout it was opened in (workout
/// mode), how many messages it holds and when it last changed.
public struct ConversationSummary: Codable, Sendable, Equatable {
    public var id: String
    public var sessionId: String
    @ExplicitNull public var title: String?
    @ExplicitNull public var workoutId: String?
    public var messageCount: Int
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case sessionId = "session_id"
        case title
        case workoutId = "workout_id"
        case messageCount = "message_count"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// Who wrote a message.
public enum MessageRole: String, Codable, Sendable {
    case user, assistant
}

/// The lane that answered a message (seed 003's 4-lane shell; the worker lane never answers a chat).
public enum Lane: String, Codable, Sendable {
    case fast, functional, slow
}

/// One message of a conversation, in the order written.
public struct ConversationMessage: Codable, Sendable, Equatable {
    public var id: String
    public var role: MessageRole
    public var content: String
    @ExplicitNull public var lane: Lane?
    public var createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, role, content, lane
        case createdAt = "created_at"
    }
}

/// What the coach can propose inline.
public enum ArtifactType: String, Codable, Sendable, CaseIterable {
    case sessionPlan = "session_plan"
    case routineSummary = "routine_summary"
    case visualization
    case analysisSummary = "analysis_summary"
    case clarifyQuestions = "clarify_questions"
}

/// Where an artifact stands: proposed until the user accepts or dismisses it.
public enum ArtifactStatus: String, Codable, Sendable {
    case proposed, accepted, dismissed
}

/// An artifact the coach proposed in a conversation, with its type's payload (`data`) and, once acted on, what
/// the action made (`result`: e.g. `routine_id`, `template_ids`).
public struct Artifact: Codable, Sendable, Equatable {
    public var id: String
    public var type: ArtifactType
    public var lane: Lane
    public var status: ArtifactStatus
    public var title: String
    public var data: JSONValue
    @ExplicitNull public var result: JSONValue?
    public var messageId: String
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, type, lane, status, title, data, result
        case messageId = "message_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// A conversation with a page of its messages, newest first, the artifacts proposed in them in the order proposed,
/// and the cursor of the page of older messages when there is one.
public struct ConversationDetail: Codable, Sendable, Equatable {
    public var conversation: ConversationSummary
    public var messages: [ConversationMessage]
    public var artifacts: [Artifact]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case conversation, messages, artifacts
        case nextCursor = "next_cursor"
    }
}
