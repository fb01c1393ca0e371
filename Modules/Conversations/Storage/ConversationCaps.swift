import Contracts
import Foundation

/// How much the coach keeps for one user, so that no conversation, list or answer grows without bound.
///
/// - A conversation holds at most `messagesPerConversation` messages (500 turns); a turn beyond it is refused
///   (`FAILED_PRECONDITION`, `details.limit`), and the user starts a new conversation.
/// - A user keeps at most `conversationsPerUser` conversations: opening one more removes the one least recently
///   active, with its messages and artifacts (what an accepted card made — routines, templates, workouts — lives
///   in Workouts and stays).
/// - `getConversation` answers its messages newest first, `messagesPage` at most a page.
enum ConversationCaps {
    static let messagesPerConversation = 1_000
    static let conversationsPerUser = 200
    static let messagesPage = 1...100
    static let defaultMessagesPage = 50

    /// The first key of the PostgreSQL advisory lock a user's conversation openings take (no other lock uses it).
    static let lockClass = 7_428_402

    static func conversationFull() -> ServiceError {
        ServiceError(
            .failedPrecondition,
            "This conversation holds \(messagesPerConversation) messages, the most one keeps. Start a new conversation to go on.",
            details: ["limit": "\(messagesPerConversation)"])
    }
}
