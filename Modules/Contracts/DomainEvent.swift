import Foundation

/// A fact one module announces and others react to (the seeds' Firestore triggers, made durable).
/// Published in the same transaction as the state change; delivered at least once; handlers are idempotent.
public protocol DomainEvent: Codable, Sendable {
    /// The stable name subscribers listen for, e.g. `auth.account_created`.
    static var eventType: String { get }
    /// The user the event is about. Stored beside the event (and its delivery jobs) so account deletion can
    /// erase them.
    var userId: String { get }
}

/// A new account finished sign-up (profile created). Published by Auth.
public struct AccountCreated: DomainEvent, Equatable {
    public static let eventType = "auth.account_created"
    public var userId: String
    /// `email`, `google.com` or `apple.com`.
    public var provider: String
    public var occurredAt: Date

    public init(userId: String, provider: String, occurredAt: Date) {
        self.userId = userId
        self.provider = provider
        self.occurredAt = occurredAt
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case provider
        case occurredAt = "occurred_at"
    }
}
