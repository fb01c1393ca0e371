import Foundation

/// `free` or `premium` (docs/product.md "Subscription").
public enum SubscriptionTier: String, Sendable, Codable {
    case free, premium
}

/// The subscription's status; the tier follows from it.
public enum SubscriptionStatus: String, Sendable, Codable, CaseIterable {
    case free, trial, active
    case gracePeriod = "grace_period"
    case expired

    public var tier: SubscriptionTier {
        switch self {
        case .trial, .active, .gracePeriod: .premium
        case .free, .expired: .free
        }
    }
}

/// One user's subscription as `getSubscriptionStatus` answers it.
public struct SubscriptionState: Sendable, Equatable, Encodable {
    public var userId: String
    public var tier: SubscriptionTier
    public var status: SubscriptionStatus
    public var expiresAt: Date?
    public var autoRenewEnabled: Bool?
    public var productId: String?
    public var originalTransactionId: String?
    /// `premium` grants premium whatever the App Store says; nil respects it. Set only by an operator.
    public var override: String?
    public var appAccountToken: String
    public var updatedAt: Date

    /// The state as it stands at `now`: a premium tier more than `lapseGrace` past its `expires_at` with no renewal
    /// received has lapsed (`expired`, free), so premium never outlives a webhook that was never delivered. A premium
    /// tier with no `expires_at` at all (stored before every grant carried one) counts from its last update. The stored
    /// row is left as it is: a renewal notification or a client's sync with a newer expiry restores premium at once.
    /// The override still wins.
    public func asOf(_ now: Date, lapseGrace: TimeInterval) -> SubscriptionState {
        guard tier == .premium, now.timeIntervalSince(expiresAt ?? updatedAt) > lapseGrace else { return self }
        var lapsed = self
        lapsed.tier = .free
        lapsed.status = .expired
        return lapsed
    }

    /// The premium gate: the override, or the tier the webhook keeps (never `status` + `expires_at`).
    public var isPremium: Bool { override == "premium" || tier == .premium }

    /// A user the App Store has told nothing about.
    public static func initial(userId: String, at date: Date) -> SubscriptionState {
        SubscriptionState(
            userId: userId, tier: .free, status: .free, expiresAt: nil, autoRenewEnabled: nil, productId: nil, originalTransactionId: nil,
            override: nil, appAccountToken: AppAccountToken.forUser(userId), updatedAt: date)
    }

    enum CodingKeys: String, CodingKey {
        case tier, status, override
        case isPremium = "is_premium"
        case expiresAt = "expires_at"
        case autoRenewEnabled = "auto_renew_enabled"
        case productId = "product_id"
        case appAccountToken = "app_account_token"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tier, forKey: .tier)
        try container.encode(status, forKey: .status)
        try container.encode(isPremium, forKey: .isPremium)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(autoRenewEnabled, forKey: .autoRenewEnabled)
        try container.encode(productId, forKey: .productId)
        try container.encode(override, forKey: .override)
        try container.encode(appAccountToken, forKey: .appAccountToken)
    }
}

/// What a notification does to the state: the notifications table of docs/product.md "Subscription", exactly.
enum NotificationEffect: Equatable {
    /// Sets status (and the tier it implies), expiry, product and renewal flag.
    case setStatus(SubscriptionStatus)
    /// `DID_CHANGE_RENEWAL_STATUS`: only `auto_renew_enabled`.
    case autoRenewOnly
    /// Recorded in the audit trail; the state is untouched.
    case none

    static func of(type: String, subtype: String?, offerType: Int?) -> NotificationEffect {
        switch type {
        case "SUBSCRIBED": .setStatus(offerType == 1 ? .trial : .active)
        case "DID_RENEW": .setStatus(.active)
        case "DID_FAIL_TO_RENEW": .setStatus(subtype == "GRACE_PERIOD" ? .gracePeriod : .expired)
        case "EXPIRED", "GRACE_PERIOD_EXPIRED", "REFUND", "REVOKE": .setStatus(.expired)
        case "DID_CHANGE_RENEWAL_STATUS": .autoRenewOnly
        default: .none
        }
    }
}

/// How a notification or sync ended, as the audit trail records it.
public enum SubscriptionEventOutcome: String, Sendable, Codable {
    /// The state changed (or was confirmed) by it.
    case applied
    /// Older than what was already applied for its original transaction: recorded, never applied.
    case stale
    /// No user could be found yet; applied when the user's token or transaction arrives.
    case orphaned
    /// Its type changes no state (or a sync without a positive entitlement).
    case recorded
}

/// One row of a user's `subscription_events` audit trail.
public struct SubscriptionEvent: Sendable, Equatable {
    public var id: String
    public var source: String
    public var notificationType: String?
    public var subtype: String?
    public var notificationUUID: String?
    public var originalTransactionId: String?
    public var signedDate: Date?
    public var outcome: SubscriptionEventOutcome
    public var statusAfter: String?
    public var tierAfter: String?
    public var receivedAt: Date
}
