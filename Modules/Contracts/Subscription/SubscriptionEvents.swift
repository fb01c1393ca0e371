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
    /// The status before this change, so a subscriber tells a purchase (from `free` or `expired`) from a renewal
    /// recovered (`grace_period` → `active`) or a trial converting. Absent in events published before it was carried.
    public var previousStatus: String?
    /// The App Store product the state is for, when known.
    public var productId: String?

    public init(
        userId: String, tier: String, status: String, isPremium: Bool, source: String, occurredAt: Date, previousStatus: String? = nil,
        productId: String? = nil
    ) {
        self.userId = userId
        self.tier = tier
        self.status = status
        self.isPremium = isPremium
        self.source = source
        self.occurredAt = occurredAt
        self.previousStatus = previousStatus
        self.productId = productId
    }

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case tier, status, source
        case isPremium = "is_premium"
        case occurredAt = "occurred_at"
        case previousStatus = "previous_status"
        case productId = "product_id"
    }
}
