import Foundation

/// A user's subscription changed tier, status or override (a notification, a sync or an operator). Published
/// by Subscription; for product analytics (purchase and trial events) and for modules that cache premium access.
public struct SubscriptionChanged: DomainEvent, Equatable {
    public static let eventType = "subscription.changed"
    public var userId: String
    /// `free` or `premium`.
    public var tier: String
    /// `free`, `trial`, `active`, `grace_period` or `expired`.
    public var status: String
    public var isPremium: Bool
    /// `webhook`, `sync` or `override`.
    public var source: String
    public var occurredAt: Date

    public init(userId: String, tier: String, status: String, isPremium: Bool, source: String, occurredAt: Date) {
        self.userId = userId
        self.tier = tier
        self.status = status
        self.isPremium = isPremium
        self.source = source
        self.occurredAt = occurredAt
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case tier, status, source
        case isPremium = "is_premium"
        case occurredAt = "occurred_at"
    }
}
