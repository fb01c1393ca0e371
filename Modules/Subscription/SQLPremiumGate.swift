import Contracts
import Foundation
import Logging
import Platform

/// The premium gate over Subscription's rows: the override, or the tier the webhook keeps (seed 003 "Gate Check
/// Logic"). A premium tier whose `expires_at` is long past with no downgrade received is still premium — the
/// webhook is authoritative — but is reported (`subscription_expiry_overdue` log, metric) for an operator to look at.
public struct SQLPremiumGate: PremiumGate {
    /// How long past `expires_at` a premium tier may stand before it is reported (Apple retries notifications
    /// for days; renewals land around expiry).
    public static let overdueAfter: TimeInterval = 24 * 3600

    let database: Database
    let store: SubscriptionStore
    let clock: any WallClock
    let metrics: ServerMetrics?
    static let expiryOverdue = ServerMetrics.MetricName(
        "povver_subscription_expiry_overdue_total", help: "Premium checks that found the tier past its expiry without a downgrade.")
    let logger: Logger

    init(database: Database, clock: any WallClock, metrics: ServerMetrics?, logger: Logger) {
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
        return state.isPremium
    }
}
