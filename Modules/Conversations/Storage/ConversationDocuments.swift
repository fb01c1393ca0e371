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

/// The lane that answered a message (the four lanes of docs/product.md "The coach"; the worker lane never answers a chat): `message_end`'s
/// `lane` and the stored message's. Not a card's place on the canvas (`CardLane`).
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
