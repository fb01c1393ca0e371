import Contracts
import Foundation
import Logging
import Platform

/// The premium gate over Subscription's rows: the override, or the tier the webhook keeps (docs/product.md
/// "Subscription"), as of now: a premium tier more than the lapse grace past its `expires_at` with no renewal received has
/// lapsed (`SubscriptionState.asOf`), so premium never outlives a notification that was never delivered. A tier past
/// its expiry for a day is reported (`subscription_expiry_overdue` log, metric) for an operator to look at, and a
/// lapse too (`subscription_lapsed`).
public struct SQLPremiumGate: PremiumGate {
    /// How long past `expires_at` a premium tier may stand before it is reported.
    public static let overdueAfter: TimeInterval = 24 * 3600

    let database: Database
    let store: SubscriptionStore
    let clock: any WallClock
    let metrics: ServerMetrics?
    static let expiryOverdue = ServerMetrics.MetricName(
        "povver_subscription_expiry_overdue_total", help: "Premium checks that found the tier past its expiry without a downgrade.")
    let logger: Logger
    let lapseGrace: TimeInterval

    init(database: Database, clock: any WallClock, metrics: ServerMetrics?, logger: Logger, lapseGrace: TimeInterval) {
        self.lapseGrace = lapseGrace
        self.database = database
        self.store = SubscriptionStore(engine: database.engine)
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
    }

    public func isPremium(userId: String) async throws -> Bool {
        guard let state = try await store.state(userId: userId, sql: database.sql) else { return false }
        if state.tier == .premium, let expires = state.expiresAt, clock.now().timeIntervalSince(expires) > Self.overdueAfter {
            metrics?.increment(Self.expiryOverdue)
            logger.warning(
                "premium tier past its expiry without a downgrade notification",
                metadata: [
                    "event": "subscription_expiry_overdue", "user_id": "\(userId)", "expires_at": "\(expires.rfc3339)",
                    "status": "\(state.status.rawValue)",
                ])
        }
        let current = state.asOf(clock.now(), lapseGrace: lapseGrace)
        if current.tier != state.tier, state.override == nil {
            logger.warning(
                "premium lapsed: past its expiry and the grace without a renewal",
                metadata: ["event": "subscription_lapsed", "user_id": "\(userId)", "expires_at": "\(state.expiresAt?.rfc3339 ?? "")"])
        }
        return current.isPremium
    }
}
