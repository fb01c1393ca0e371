import Contracts
import Foundation
import Logging
import Platform
import SQLKit

/// Subscription state per user, kept by App Store Server Notifications V2 (authoritative, also for
/// downgrades) and by the client's StoreKit 2 sync (positive entitlements only), per the authority model (docs/product.md).
public struct SubscriptionService: Sendable {
    let database: Database
    let store: SubscriptionStore
    public let verifier: AppStoreDataVerifier
    let clock: any WallClock
    let ids: any IDGenerator
    let metrics: ServerMetrics?
    static let notifications = ServerMetrics.MetricName(
        "povver_subscription_notifications_total", help: "App Store server notifications by outcome.")
    let logger: Logger
    /// How long past `expires_at` a premium tier stands without a renewal before it lapses (`SubscriptionState.asOf`).
    let lapseGrace: TimeInterval
    /// The products that grant premium; nil: any product of the app.
    let productIDs: Set<String>?

    init(
        database: Database, verifier: AppStoreDataVerifier, clock: any WallClock, ids: any IDGenerator, metrics: ServerMetrics?,
        logger: Logger, lapseGrace: TimeInterval = SubscriptionSettings.defaultLapseGrace, productIDs: Set<String>? = nil
    ) {
        self.lapseGrace = lapseGrace
        self.productIDs = productIDs
        self.database = database
        self.store = SubscriptionStore(engine: database.engine)
        self.verifier = verifier
        self.clock = clock
        self.ids = ids
        self.metrics = metrics
        self.logger = logger
    }

    /// How the webhook treated a notification.
    public enum WebhookOutcome: String, Sendable {
        case applied, stale, orphaned, recorded, duplicate
    }

    // MARK: Reading

    /// The user's state; the first call creates the row (so the webhook can find the user by token) and claims
    /// notifications that arrived before it.
    public func status(userId: String) async throws -> SubscriptionState {
        if let state = try await store.state(userId: userId, sql: database.sql) { return state.asOf(clock.now(), lapseGrace: lapseGrace) }
        return try await database.transaction { tx in try await self.ensure(userId: userId, tx: tx) }
    }

    /// Whether a product may grant premium (any, without an allow-list).
    func grantsPremium(_ productId: String?) -> Bool {
        guard let productIDs else { return true }
        return productId.map(productIDs.contains) ?? false
    }

    /// The user's audit trail, newest first.
    public func events(userId: String, limit: Int = 100) async throws -> [SubscriptionEvent] {
        try await store.events(userId: userId, limit: limit, sql: database.sql)
    }

    /// Creates the user's row when missing (a new account) and applies orphans that name its token.
    public func prepare(userId: String) async throws {
        _ = try await database.transaction { tx in try await self.ensure(userId: userId, tx: tx) }
    }

    func ensure(userId: String, tx: Transaction) async throws -> SubscriptionState {
        let (state, created) = try await store.ensureState(userId: userId, at: clock.now(), sql: tx.sql)
        guard created else { return state }
        return try await claimOrphans(state: state, extraTransactions: [], tx: tx)
    }

    // MARK: Webhook

    /// Verifies and applies one V2 notification. A verification failure is `INVALID_ARGUMENT` (400) and changes
    /// nothing; a repeated `notificationUUID` changes nothing; an unknown user is recorded as an orphan.
    public func receiveNotification(signedPayload: String) async throws -> WebhookOutcome {
        let notification: VerifiedNotification
        do {
            notification = try await verifier.verifyNotification(signedPayload)
        } catch {
            metrics?.increment(Self.notifications, labels: [("outcome", "rejected")])
            logger.warning(
                "app store notification rejected", metadata: ["event": "subscription_notification_rejected", "reason": "\(error.reason)"])
            if error == .notConfigured {
                throw ServiceError(.failedPrecondition, "App Store notifications are not accepted: POVVER_APPSTORE_BUNDLE_ID is not set.")
            }
            throw ServiceError.invalidArgument(
                field: "signedPayload", reason: error.reason, message: "The notification could not be verified: \(error.description).")
        }
        let payload = notification.payload
        logger.info(
            "app store notification received",
            metadata: [
                "event": "subscription_event_received", "notification_type": "\(payload.notificationType)",
                "subtype": "\(payload.subtype ?? "")", "notification_uuid": "\(payload.notificationUUID)",
            ])
        let document = try JSONCoding.store(notification)
        let outcome = try await database.transaction { tx -> WebhookOutcome in
            let eventId = self.ids.makeID()
            let row = EventRow(
                id: eventId, userId: nil, source: "webhook", notificationUUID: payload.notificationUUID,
                notificationType: payload.notificationType,
                subtype: payload.subtype, originalTransactionId: notification.originalTransactionId,
                appAccountToken: notification.appAccountToken,
                signedDate: payload.signedDate, outcome: .orphaned, statusAfter: nil, tierAfter: nil, document: document,
                receivedAt: self.clock.now())
            guard try await self.store.insertEvent(row, sql: tx.sql) else { return .duplicate }
            // A notification naming no subscription (e.g. `TEST`) can never be claimed by anyone: recorded only.
            guard notification.originalTransactionId != nil || notification.appAccountToken != nil else {
                try await self.store.updateEvent(id: eventId, userId: nil, outcome: .recorded, state: nil, sql: tx.sql)
                return .recorded
            }
            guard
                let userId = try await self.store.userId(
                    appAccountToken: notification.appAccountToken, originalTransactionId: notification.originalTransactionId, sql: tx.sql)
            else { return .orphaned }
            let (state, _) = try await self.store.ensureState(userId: userId, at: self.clock.now(), sql: tx.sql)
            let (outcome, after) = try await self.apply(notification, to: state, tx: tx)
            try await self.store.updateEvent(id: eventId, userId: userId, outcome: outcome, state: after, sql: tx.sql)
            return WebhookOutcome(rawValue: outcome.rawValue) ?? .recorded
        }
        metrics?.increment(Self.notifications, labels: [("outcome", outcome.rawValue)])
        if outcome == .orphaned {
            logger.warning(
                "app store notification for an unknown user kept as an orphan",
                metadata: ["event": "subscription_notification_orphaned", "notification_uuid": "\(payload.notificationUUID)"])
        }
        return outcome
    }

    /// Applies a verified notification to a user's (locked) state: the seeds' mapping table, unless a notification
    /// signed later was already applied for the same original transaction.
    func apply(_ notification: VerifiedNotification, to state: SubscriptionState, tx: Transaction) async throws -> (
        SubscriptionEventOutcome, SubscriptionState
    ) {
        let payload = notification.payload
        let effect = NotificationEffect.of(
            type: payload.notificationType, subtype: payload.subtype, offerType: notification.transaction?.offerType)
        guard effect != .none else { return (.recorded, state) }
        // A product not on the allow-list never grants premium: the notification is kept in the trail, not applied.
        if case .setStatus(let status) = effect, status.tier == .premium, !grantsPremium(notification.transaction?.productId) {
            logger.warning(
                "a notification about a product not on the allow-list was not applied",
                metadata: ["event": "subscription_unknown_product", "product_id": "\(notification.transaction?.productId ?? "")"])
            return (.recorded, state)
        }
        if let originalTransactionId = notification.originalTransactionId {
            if let last = try await store.lastSignedDate(originalTransactionId: originalTransactionId, sql: tx.sql),
                payload.signedDate < last
            {
                return (.stale, state)
            }
            try await store.recordApplied(
                originalTransactionId: originalTransactionId, userId: state.userId, signedDate: payload.signedDate, sql: tx.sql)
        }
        var next = state
        switch effect {
        case .setStatus(let status):
            next.status = status
            next.tier = status.tier
            if let transaction = notification.transaction {
                next.expiresAt = transaction.expiresDate.map(Date.init(millisecondsSince1970:))
                next.productId = transaction.productId ?? next.productId
                next.originalTransactionId = transaction.originalTransactionId ?? next.originalTransactionId
            }
            if status == .gracePeriod, let graceEnd = notification.renewal?.gracePeriodExpiresDate {
                next.expiresAt = Date(millisecondsSince1970: graceEnd)
            }
            // Premium always has an end. A notification that grants it without saying until when (no `expiresDate`,
            // no grace end) is taken as ending when it was signed: it stands for the lapse grace from then, as any
            // premium past its expiry does, unless a renewal or a client's sync brings a real expiry.
            if status.tier == .premium, next.expiresAt == nil {
                next.expiresAt = Date(millisecondsSince1970: payload.signedDate)
                logger.warning(
                    "a notification granted premium without an expiry: it lapses after the grace from its signed date",
                    metadata: [
                        "event": "subscription_no_expiry", "user_id": "\(state.userId)", "notification_type": "\(payload.notificationType)",
                        "signed_date": "\(Date(millisecondsSince1970: payload.signedDate).rfc3339)",
                    ])
            }
            if let renewal = notification.renewal?.autoRenewStatus { next.autoRenewEnabled = renewal == 1 }
        case .autoRenewOnly:
            if let renewal = notification.renewal?.autoRenewStatus {
                next.autoRenewEnabled = renewal == 1
            } else if payload.subtype == "AUTO_RENEW_ENABLED" || payload.subtype == "AUTO_RENEW_DISABLED" {
                next.autoRenewEnabled = payload.subtype == "AUTO_RENEW_ENABLED"
            }
        case .none:
            break
        }
        next.updatedAt = clock.now()
        try await store.save(next, sql: tx.sql)
        try await changed(from: state, to: next, source: "webhook", tx: tx)
        return (.applied, next)
    }

    /// Applies, in `signedDate` order, orphaned notifications naming the user's token or transactions.
    func claimOrphans(state: SubscriptionState, extraTransactions: [String], tx: Transaction) async throws -> SubscriptionState {
        let known = try await store.originalTransactionIds(userId: state.userId, sql: tx.sql)
        let transactions = Array(Set(known + extraTransactions + [state.originalTransactionId].compactMap { $0 }))
        var state = state
        for orphan in try await store.orphans(appAccountToken: state.appAccountToken, originalTransactionIds: transactions, sql: tx.sql) {
            let notification = try JSONCoding.load(VerifiedNotification.self, from: orphan.document)
            // An orphan naming another user's token only matched by transaction id: it is not this user's.
            if let token = notification.appAccountToken, token != state.appAccountToken { continue }
            let (outcome, after) = try await apply(notification, to: state, tx: tx)
            state = after
            try await store.updateEvent(id: orphan.id, userId: state.userId, outcome: outcome, state: after, sql: tx.sql)
        }
        return state
    }

    // MARK: Client sync

    /// Applies the client's StoreKit 2 signed transaction when it grants a positive entitlement (trial or active,
    /// not expired, not revoked) newer than what is applied; never a downgrade, which is the webhook's to make.
    public func sync(userId: String, signedTransaction: String) async throws -> SubscriptionState {
        let transaction: TransactionInfo
        do {
            transaction = try await verifier.verifyTransaction(signedTransaction)
        } catch {
            if error == .notConfigured {
                throw ServiceError(
                    .failedPrecondition, "Purchases cannot be verified right now: the App Store app identity is not configured.")
            }
            throw ServiceError.invalidArgument(
                field: "signed_transaction", reason: error.reason, message: "The purchase could not be verified: \(error.description).")
        }
        let token = AppAccountToken.forUser(userId)
        guard transaction.appAccountToken?.lowercased() == token else {
            throw ServiceError(
                .permissionDenied, "This purchase belongs to a different Povver account.", details: ["reason": "app_account_token_mismatch"]
            )
        }
        guard let originalTransactionId = transaction.originalTransactionId else {
            throw ServiceError.invalidArgument(field: "signed_transaction", reason: "no originalTransactionId")
        }
        guard grantsPremium(transaction.productId) else {
            throw ServiceError.invalidArgument(
                field: "signed_transaction", reason: "unknown product", message: "This purchase is not for a Povver subscription.")
        }
        let now = clock.now()
        let entitlement = Self.entitlement(of: transaction, at: now)
        let document = try JSONCoding.store(transaction)
        return try await database.transaction { tx in
            var state = try await self.ensure(userId: userId, tx: tx)
            let before = state
            var outcome = SubscriptionEventOutcome.recorded
            if let status = entitlement, let expires = transaction.expiresDate {
                let last = try await self.store.lastSignedDate(originalTransactionId: originalTransactionId, sql: tx.sql)
                let newer = last.map { transaction.signedDate > $0 } ?? true
                let shortens = state.tier == .premium && (state.expiresAt.map { $0.millisecondsSince1970 > expires } ?? false)
                if !newer {
                    outcome = .stale
                } else if !shortens {
                    try await self.store.recordApplied(
                        originalTransactionId: originalTransactionId, userId: userId, signedDate: transaction.signedDate, sql: tx.sql)
                    state.status = status
                    state.tier = status.tier
                    state.expiresAt = Date(millisecondsSince1970: expires)
                    state.productId = transaction.productId ?? state.productId
                    state.originalTransactionId = originalTransactionId
                    state.updatedAt = now
                    try await self.store.save(state, sql: tx.sql)
                    try await self.changed(from: before, to: state, source: "sync", tx: tx)
                    outcome = .applied
                }
            }
            _ = try await self.store.insertEvent(
                EventRow(
                    id: self.ids.makeID(), userId: userId, source: "sync", notificationUUID: nil, notificationType: nil, subtype: nil,
                    originalTransactionId: originalTransactionId, appAccountToken: token, signedDate: transaction.signedDate,
                    outcome: outcome,
                    statusAfter: state.status.rawValue, tierAfter: state.tier.rawValue, document: document, receivedAt: now),
                sql: tx.sql)
            return try await self.claimOrphans(state: state, extraTransactions: [originalTransactionId], tx: tx)
        }
    }

    /// Trial (introductory offer) or active while unexpired and unrevoked; nil otherwise.
    static func entitlement(of transaction: TransactionInfo, at now: Date) -> SubscriptionStatus? {
        guard transaction.revocationDate == nil, let expires = transaction.expiresDate, expires > now.millisecondsSince1970 else {
            return nil
        }
        return transaction.offerType == 1 ? .trial : .active
    }

    // MARK: Override

    /// Sets (`premium`) or clears (nil) the operator's override, recorded in the audit trail.
    public func setOverride(userId: String, override: String?) async throws -> SubscriptionState {
        if let override, override != "premium" {
            throw ServiceError.invalidArgument(field: "override", reason: "must be premium or cleared")
        }
        return try await database.transaction { tx in
            var state = try await self.ensure(userId: userId, tx: tx)
            let before = state
            state.override = override
            state.updatedAt = self.clock.now()
            try await self.store.save(state, sql: tx.sql)
            _ = try await self.store.insertEvent(
                EventRow(
                    id: self.ids.makeID(), userId: userId, source: "override", notificationUUID: nil, notificationType: nil,
                    subtype: override == nil ? "cleared" : "premium", originalTransactionId: nil, appAccountToken: state.appAccountToken,
                    signedDate: nil,
                    outcome: .applied, statusAfter: state.status.rawValue, tierAfter: state.tier.rawValue, document: "{}",
                    receivedAt: state.updatedAt),
                sql: tx.sql)
            try await self.changed(from: before, to: state, source: "override", tx: tx)
            return state
        }
    }

    /// Logs the new state and, when tier, status or premium access moved, publishes `SubscriptionChanged` in the
    /// same transaction.
    private func changed(from before: SubscriptionState, to state: SubscriptionState, source: String, tx: Transaction) async throws {
        logUpdated(state, tx: tx)
        guard before.tier != state.tier || before.status != state.status || before.isPremium != state.isPremium else { return }
        try await tx.publish(
            SubscriptionChanged(
                userId: state.userId, tier: state.tier.rawValue, status: state.status.rawValue, isPremium: state.isPremium, source: source,
                occurredAt: state.updatedAt, previousStatus: before.status.rawValue, productId: state.productId),
            id: ids.makeID(), occurredAt: state.updatedAt)
    }

    private func logUpdated(_ state: SubscriptionState, tx: Transaction) {
        let logger = self.logger
        tx.afterCommit {
            logger.info(
                "subscription updated",
                metadata: [
                    "event": "subscription_updated", "user_id": "\(state.userId)", "status": "\(state.status.rawValue)",
                    "tier": "\(state.tier.rawValue)", "is_premium": "\(state.isPremium)",
                ])
        }
    }
}
