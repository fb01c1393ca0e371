import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import Subscription
import TestSupport
import Testing

/// A Subscription module on a private database whose verifier trusts a test PKI, with helpers to sign what
/// Apple would send for one user.
struct SubscriptionHarness: Sendable {
    let module: SubscriptionModule
    let pki: AppStoreTestPKI
    let database: Database
    let clock: FakeWallClock
    let metrics: ServerMetrics

    static func with(
        _ engine: SQLEngine, productIDs: Set<String>? = nil, _ body: @escaping @Sendable (SubscriptionHarness) async throws -> Void
    ) async throws {
        try await TestDatabases.with(engine, migrate: [("subscription", SubscriptionModule.migrations)]) { db in
            let pki = try AppStoreTestPKI()
            let clock = FakeWallClock(Date())
            let metrics = ServerMetrics()
            let module = SubscriptionModule(
                database: db,
                verifier: AppStoreDataVerifier(
                    roots: [pki.root],
                    identity: AppStoreAppIdentity(bundleID: AppStoreTestPKI.bundleID, appAppleID: nil, environment: "Sandbox")),
                clock: clock, ids: RandomIDGenerator(), metrics: metrics, logger: TestDatabases.logger, productIDs: productIDs)
            try await body(SubscriptionHarness(module: module, pki: pki, database: db, clock: clock, metrics: metrics))
        }
    }

    var service: SubscriptionService { module.service }

    /// A notification about `userId`'s subscription `otid`, signed `at` seconds from the harness clock's now (fixed, so
    /// offsets keep their order however slowly the test runs).
    func notification(
        _ type: String, subtype: String? = nil, userId: String?, otid: String = "otid-1", at offset: TimeInterval = 0,
        offerType: Int? = nil,
        expiresIn: TimeInterval = 30 * 86_400, autoRenew: Bool? = true, graceEndsIn: TimeInterval? = nil, uuid: String = UUID().uuidString
    ) -> String {
        let signedDate = clock.now().addingTimeInterval(offset)
        let transaction = AppStoreTestPKI.transaction(
            originalTransactionId: otid, appAccountToken: userId.map(AppAccountToken.forUser),
            expires: clock.now().addingTimeInterval(expiresIn),
            signedDate: signedDate, offerType: offerType)
        let renewal = autoRenew.map {
            AppStoreTestPKI.renewal(
                originalTransactionId: otid, autoRenew: $0, signedDate: signedDate,
                gracePeriodExpires: graceEndsIn.map { clock.now().addingTimeInterval($0) })
        }
        return pki.notification(
            type: type, subtype: subtype, uuid: uuid, signedDate: signedDate, transaction: transaction, renewal: renewal)
    }

    /// A StoreKit 2 transaction as the client would post it.
    func transaction(
        userId: String, otid: String = "otid-1", at offset: TimeInterval = 0, expiresIn: TimeInterval = 30 * 86_400, offerType: Int? = nil,
        revoked: Bool = false
    ) -> String {
        pki.sign(
            payload: AppStoreTestPKI.transaction(
                originalTransactionId: otid, appAccountToken: AppAccountToken.forUser(userId),
                expires: clock.now().addingTimeInterval(expiresIn),
                signedDate: clock.now().addingTimeInterval(offset), offerType: offerType, revoked: revoked ? clock.now() : nil))
    }

    @discardableResult
    func receive(_ signed: String) async throws -> SubscriptionService.WebhookOutcome {
        try await service.receiveNotification(signedPayload: signed)
    }

    func eventCount(_ userId: String?) async throws -> Int {
        let condition: SQLQueryString = userId.map { "user_id = \(bind: $0)" } ?? "user_id IS NULL"
        return try await database.sql.raw("SELECT COUNT(*) AS n FROM subscription_events WHERE \(condition)").first(
            decodingColumn: "n", as: Int.self) ?? 0
    }
}

@Suite struct NotificationProcessingTests {
    /// The notifications table of docs/product.md "Subscription", row by row, from an active subscription with
    /// auto-renew on.
    @Test(arguments: TestDatabases.engines)
    func everyMappingRow(engine: SQLEngine) async throws {
        typealias Row = (type: String, subtype: String?, offerType: Int?, status: SubscriptionStatus, tier: SubscriptionTier)
        let rows: [Row] = [
            ("SUBSCRIBED", "INITIAL_BUY", 1, .trial, .premium),
            ("SUBSCRIBED", "INITIAL_BUY", nil, .active, .premium),
            ("SUBSCRIBED", "RESUBSCRIBE", 2, .active, .premium),
            ("DID_RENEW", nil, nil, .active, .premium),
            ("DID_RENEW", "BILLING_RECOVERY", nil, .active, .premium),
            ("DID_FAIL_TO_RENEW", "GRACE_PERIOD", nil, .gracePeriod, .premium),
            ("DID_FAIL_TO_RENEW", nil, nil, .expired, .free),
            ("EXPIRED", "VOLUNTARY", nil, .expired, .free),
            ("EXPIRED", "BILLING_RETRY", nil, .expired, .free),
            ("EXPIRED", "PRICE_INCREASE", nil, .expired, .free),
            ("GRACE_PERIOD_EXPIRED", nil, nil, .expired, .free),
            ("REFUND", nil, nil, .expired, .free),
            ("REVOKE", nil, nil, .expired, .free),
        ]
        try await SubscriptionHarness.with(engine) { harness in
            for (index, row) in rows.enumerated() {
                let user = "mapping-\(index)"
                try await harness.service.prepare(userId: user)
                try await harness.receive(harness.notification("DID_RENEW", userId: user, otid: "o-\(index)", at: -10))
                let outcome = try await harness.receive(
                    harness.notification(
                        row.type, subtype: row.subtype, userId: user, otid: "o-\(index)", offerType: row.offerType, graceEndsIn: 3 * 86_400)
                )
                #expect(outcome == .applied)
                let state = try await harness.service.status(userId: user)
                #expect(state.status == row.status, "\(row.type)/\(row.subtype ?? "-")")
                #expect(state.tier == row.tier, "\(row.type)/\(row.subtype ?? "-")")
                #expect(state.isPremium == (row.tier == .premium))
                #expect(state.productId == "povver.premium.monthly")
                if row.status == .gracePeriod {
                    let graceEnd = try #require(state.expiresAt)
                    #expect(abs(graceEnd.timeIntervalSinceNow - 3 * 86_400) < 60, "grace period runs to Apple's gracePeriodExpiresDate")
                }
            }

            // DID_CHANGE_RENEWAL_STATUS touches only auto_renew_enabled.
            try await harness.service.prepare(userId: "renewal")
            try await harness.receive(harness.notification("SUBSCRIBED", userId: "renewal", otid: "o-r", at: -10, offerType: 1))
            let before = try await harness.service.status(userId: "renewal")
            #expect(before.autoRenewEnabled == true)
            try await harness.receive(
                harness.notification(
                    "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", userId: "renewal", otid: "o-r", at: -5, expiresIn: 1,
                    autoRenew: false))
            let after = try await harness.service.status(userId: "renewal")
            #expect(after.autoRenewEnabled == false)
            #expect(
                after.status == .trial && after.tier == .premium && after.expiresAt == before.expiresAt, "status, tier and expiry unchanged"
            )

            // Types outside the table are recorded and change nothing.
            for type in ["PRICE_INCREASE", "RENEWAL_EXTENDED", "OFFER_REDEEMED", "DID_CHANGE_RENEWAL_PREF", "CONSUMPTION_REQUEST", "TEST"] {
                #expect(
                    try await harness.receive(
                        harness.notification(type, userId: "renewal", otid: "o-r", expiresIn: -86_400, autoRenew: true)) == .recorded)
            }
            let untouched = try await harness.service.status(userId: "renewal")
            #expect(untouched.status == .trial && untouched.autoRenewEnabled == false)
            #expect(try await harness.service.events(userId: "renewal").count == 8, "every notification is in the audit trail")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func duplicateNotificationChangesNothing(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            try await harness.service.prepare(userId: "u")
            let subscribed = harness.notification("SUBSCRIBED", userId: "u", at: -20)
            #expect(try await harness.receive(subscribed) == .applied)
            #expect(try await harness.receive(harness.notification("EXPIRED", userId: "u", at: -10, expiresIn: -1)) == .applied)
            // Apple retries the first one: nothing moves, nothing more is recorded.
            #expect(try await harness.receive(subscribed) == .duplicate)
            let state = try await harness.service.status(userId: "u")
            #expect(state.status == .expired && state.tier == .free)
            #expect(try await harness.eventCount("u") == 2)
        }
    }

    /// Many deliveries of one notification at once (replicas, Apple's retries): applied exactly once.
    @Test(arguments: TestDatabases.engines)
    func concurrentDuplicatesApplyOnce(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            try await harness.service.prepare(userId: "u")
            let signed = harness.notification("SUBSCRIBED", userId: "u")
            let outcomes = try await withThrowingTaskGroup(of: SubscriptionService.WebhookOutcome.self) { group in
                for _ in 0..<12 { group.addTask { try await harness.receive(signed) } }
                return try await group.reduce(into: [SubscriptionService.WebhookOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .applied }.count == 1)
            #expect(outcomes.filter { $0 == .duplicate }.count == 11)
            #expect(try await harness.eventCount("u") == 1)
        }
    }

    /// Out-of-order pairs: whichever arrives first, the state is the one signed last; the older is recorded as stale.
    @Test(arguments: TestDatabases.engines)
    func olderNotificationNeverOverwritesNewerState(engine: SQLEngine) async throws {
        let pairs: [(older: String, newer: String, final: SubscriptionStatus)] = [
            ("SUBSCRIBED", "EXPIRED", .expired),
            ("EXPIRED", "DID_RENEW", .active),
            ("DID_FAIL_TO_RENEW", "DID_RENEW", .active),
            ("DID_RENEW", "REFUND", .expired),
        ]
        try await SubscriptionHarness.with(engine) { harness in
            for (index, pair) in pairs.enumerated() {
                for newerFirst in [true, false] {
                    let user = "order-\(index)-\(newerFirst)"
                    let otid = "o-\(index)-\(newerFirst)"
                    try await harness.service.prepare(userId: user)
                    let older = harness.notification(
                        pair.older, subtype: pair.older == "DID_FAIL_TO_RENEW" ? "GRACE_PERIOD" : nil, userId: user, otid: otid, at: -60)
                    let newer = harness.notification(pair.newer, userId: user, otid: otid, at: -30)
                    if newerFirst {
                        #expect(try await harness.receive(newer) == .applied)
                        #expect(try await harness.receive(older) == .stale, "\(pair.older) signed earlier must not overwrite \(pair.newer)")
                    } else {
                        #expect(try await harness.receive(older) == .applied)
                        #expect(try await harness.receive(newer) == .applied)
                    }
                    #expect(try await harness.service.status(userId: user).status == pair.final, "\(pair), newer first: \(newerFirst)")
                    let outcomes = try await harness.service.events(userId: user).map(\.outcome)
                    #expect(outcomes.count == 2, "both are recorded")
                }
            }
            // An older renewal-status change does not flip the flag back either.
            try await harness.service.prepare(userId: "flag")
            try await harness.receive(
                harness.notification(
                    "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", userId: "flag", otid: "o-f", at: -10, autoRenew: false))
            #expect(
                try await harness.receive(
                    harness.notification(
                        "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_ENABLED", userId: "flag", otid: "o-f", at: -20, autoRenew: true))
                    == .stale)
            #expect(try await harness.service.status(userId: "flag").autoRenewEnabled == false)
        }
    }

    /// A notification for a user the server does not know yet is kept (Apple gets 200) and applied when the
    /// user's row appears; one without a token is applied when the client syncs its transaction.
    @Test(arguments: TestDatabases.engines)
    func orphansApplyWhenTheUserArrives(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            #expect(try await harness.receive(harness.notification("SUBSCRIBED", userId: "late", otid: "o-late", at: -30)) == .orphaned)
            #expect(
                try await harness.receive(
                    harness.notification("DID_CHANGE_RENEWAL_STATUS", userId: "late", otid: "o-late", at: -20, autoRenew: false))
                    == .orphaned)
            #expect(try await harness.eventCount(nil) == 2)
            // Apple's TEST notification names no subscription: recorded, never an orphan waiting for a user.
            #expect(try await harness.receive(harness.pki.notification(type: "TEST", transaction: nil)) == .recorded)
            let state = try await harness.service.status(userId: "late")
            #expect(
                state.status == .active && state.isPremium && state.autoRenewEnabled == false, "both orphans applied in signedDate order")
            #expect(try await harness.eventCount(nil) == 1, "only the TEST notification stays unattributed")
            #expect(try await harness.service.events(userId: "late").map(\.outcome) == [.applied, .applied])

            // No appAccountToken: found by original transaction id once the client syncs it.
            try await harness.service.prepare(userId: "tokenless")
            #expect(try await harness.receive(harness.notification("DID_RENEW", userId: nil, otid: "o-tokenless", at: -20)) == .orphaned)
            let synced = try await harness.service.sync(
                userId: "tokenless", signedTransaction: harness.transaction(userId: "tokenless", otid: "o-tokenless", at: -40))
            #expect(synced.status == .active)
            #expect(try await harness.service.events(userId: "tokenless").count == 2)
            // From now on the transaction id finds the user directly.
            #expect(
                try await harness.receive(harness.notification("EXPIRED", userId: nil, otid: "o-tokenless", at: -10, expiresIn: -1))
                    == .applied)
            #expect(try await harness.service.status(userId: "tokenless").status == .expired)
            // An empty token is no token (it names nobody): the transaction id still finds the user.
            let blankToken = AppStoreTestPKI.transaction(
                originalTransactionId: "o-tokenless", appAccountToken: "", expires: Date().addingTimeInterval(86_400),
                signedDate: Date().addingTimeInterval(-5))
            #expect(
                try await harness.receive(
                    harness.pki.notification(type: "DID_RENEW", signedDate: Date().addingTimeInterval(-5), transaction: blankToken))
                    == .applied)
            #expect(try await harness.service.status(userId: "tokenless").status == .active)
        }
    }

    /// A notification whose token names a user the server has no row for yet waits for that user, even when its
    /// original transaction id (the same for every account on one Apple ID) was applied to another user before.
    @Test(arguments: TestDatabases.engines)
    func aTokenIsNeverOverruledByTheTransactionsEarlierOwner(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            try await harness.service.prepare(userId: "first")
            #expect(
                try await harness.receive(harness.notification("SUBSCRIBED", userId: "first", otid: "o-shared", at: -30, expiresIn: -1))
                    == .applied)
            #expect(
                try await harness.receive(harness.notification("EXPIRED", userId: "first", otid: "o-shared", at: -20, expiresIn: -1))
                    == .applied)
            let before = try await harness.service.status(userId: "first")
            #expect(before.status == .expired)

            #expect(try await harness.receive(harness.notification("SUBSCRIBED", userId: "second", otid: "o-shared", at: -10)) == .orphaned)
            #expect(try await harness.service.status(userId: "first") == before, "the first user gained nothing")
            #expect(try await harness.service.events(userId: "first").count == 2)
            let second = try await harness.service.status(userId: "second")
            #expect(second.status == .active && second.isPremium, "applied once the user it names arrived")
        }
    }

    /// The client's StoreKit 2 sync grants positive entitlements only; the webhook owns downgrades.
    @Test(arguments: TestDatabases.engines)
    func syncAppliesOnlyPositiveEntitlements(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            let trial = try await harness.service.sync(
                userId: "buyer", signedTransaction: harness.transaction(userId: "buyer", offerType: 1))
            #expect(trial.status == .trial && trial.tier == .premium && trial.originalTransactionId == "otid-1")
            let active = try await harness.service.sync(
                userId: "buyer", signedTransaction: harness.transaction(userId: "buyer", at: 5, expiresIn: 60 * 86_400))
            #expect(active.status == .active)

            // An expired or refunded transaction from a stale device never downgrades.
            let expired = try await harness.service.sync(
                userId: "buyer", signedTransaction: harness.transaction(userId: "buyer", at: 10, expiresIn: -60))
            #expect(expired.status == .active && expired.isPremium)
            let revoked = try await harness.service.sync(
                userId: "buyer", signedTransaction: harness.transaction(userId: "buyer", at: 11, revoked: true))
            #expect(revoked.status == .active)
            // Nor does an older copy or one that would shorten the entitlement.
            let shorter = try await harness.service.sync(
                userId: "buyer", signedTransaction: harness.transaction(userId: "buyer", at: 12, expiresIn: 86_400))
            #expect(shorter.expiresAt == active.expiresAt)
            let older = try await harness.service.sync(
                userId: "buyer", signedTransaction: harness.transaction(userId: "buyer", at: -100, expiresIn: 90 * 86_400))
            #expect(older.expiresAt == active.expiresAt)
            #expect(try await harness.service.events(userId: "buyer").map(\.outcome).filter { $0 == .applied }.count == 2)

            // The webhook's downgrade stands against a later positive-looking but older-signed sync.
            try await harness.receive(harness.notification("REFUND", userId: "buyer", at: 20, expiresIn: 60 * 86_400))
            let afterRefund = try await harness.service.sync(
                userId: "buyer", signedTransaction: harness.transaction(userId: "buyer", at: 15, expiresIn: 60 * 86_400))
            #expect(afterRefund.status == .expired && !afterRefund.isPremium)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func syncRefusesAnotherUsersOrUnverifiedPurchase(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            await #expect(throws: ServiceError.self) {
                try await harness.service.sync(userId: "thief", signedTransaction: harness.transaction(userId: "owner"))
            }
            do {
                _ = try await harness.service.sync(userId: "thief", signedTransaction: harness.transaction(userId: "owner"))
            } catch let error as ServiceError {
                #expect(error.code == .permissionDenied)
            }
            let stranger = try AppStoreTestPKI()
            let forged = stranger.sign(
                payload: AppStoreTestPKI.transaction(
                    originalTransactionId: "o", appAccountToken: AppAccountToken.forUser("thief"),
                    expires: Date().addingTimeInterval(86_400)))
            do {
                _ = try await harness.service.sync(userId: "thief", signedTransaction: forged)
                Issue.record("a transaction under another root was accepted")
            } catch let error as ServiceError {
                #expect(error.code == .invalidArgument)
                #expect(error.details["field"] == "signed_transaction")
                #expect(error.details["reason"] == "untrusted_chain")
            }
            #expect(try await harness.service.status(userId: "thief").tier == .free)
            #expect(try await harness.eventCount("thief") == 0, "nothing is recorded for a refused sync")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func overrideGrantsPremiumWhateverTheAppStoreSays(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            let granted = try await harness.service.setOverride(userId: "beta", override: "premium")
            #expect(granted.isPremium && granted.tier == .free && granted.override == "premium")
            #expect(try await harness.module.premiumGate.isPremium(userId: "beta"))
            // The webhook does not touch the override.
            try await harness.receive(harness.notification("EXPIRED", userId: "beta", expiresIn: -1))
            #expect(try await harness.module.premiumGate.isPremium(userId: "beta"))
            let cleared = try await harness.service.setOverride(userId: "beta", override: nil)
            #expect(!cleared.isPremium && cleared.override == nil)
            await #expect(throws: ServiceError.self) { try await harness.service.setOverride(userId: "beta", override: "gold") }
            #expect(try await harness.service.events(userId: "beta").map(\.source).sorted() == ["override", "override", "webhook"])
            // Each change of premium access or status is announced to other modules through the outbox.
            let published = try await harness.database.sql.raw(
                "SELECT payload FROM platform_outbox WHERE type = 'subscription.changed' AND user_id = 'beta' ORDER BY occurred_at, id"
            ).all(decodingColumn: "payload", as: String.self)
            let changes = try published.map { try JSONCoding.decode(SubscriptionChanged.self, from: $0) }
            #expect(Set(changes.map(\.source)) == ["override", "webhook"])
            #expect(changes.count == 3)
            #expect(Set(changes.filter { $0.source == "override" }.map(\.isPremium)) == [true, false])
            #expect(changes.first { $0.source == "webhook" }?.status == "expired")
            // It says what the status was, so product analytics tells a purchase from a recovered renewal.
            #expect(changes.first { $0.source == "webhook" }?.previousStatus == "free")
        }
    }

    /// A premium tier past its expiry with no downgrade received is reported after a day, and lapses once the grace
    /// (72 h by default) is over: the gate refuses and the status says expired, until a renewal arrives. The override
    /// still wins.
    @Test(arguments: TestDatabases.engines)
    func overduePremiumIsReportedThenLapsesUnlessRenewed(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            try await harness.service.prepare(userId: "u")
            try await harness.receive(harness.notification("DID_RENEW", userId: "u", expiresIn: 86_400))
            #expect(try await harness.module.premiumGate.isPremium(userId: "u"))
            #expect(!harness.metrics.exposition().contains("povver_subscription_expiry_overdue_total 1"))
            harness.clock.advance(by: 3 * 86_400)
            #expect(try await harness.module.premiumGate.isPremium(userId: "u"), "two days past expiry: within the grace")
            #expect(harness.metrics.exposition().contains("povver_subscription_expiry_overdue_total 1"))
            harness.clock.advance(by: 2 * 86_400)
            #expect(try await !harness.module.premiumGate.isPremium(userId: "u"), "four days past expiry: lapsed")
            let lapsed = try await harness.service.status(userId: "u")
            #expect(lapsed.tier == .free && lapsed.status == .expired && !lapsed.isPremium)
            try await harness.receive(harness.notification("DID_RENEW", userId: "u", expiresIn: 30 * 86_400))
            #expect(try await harness.module.premiumGate.isPremium(userId: "u"), "a renewal restores it at once")
            #expect(try await harness.service.status(userId: "u").status == .active)
            harness.clock.advance(by: 40 * 86_400)
            #expect(try await !harness.module.premiumGate.isPremium(userId: "u"))
            _ = try await harness.service.setOverride(userId: "u", override: "premium")
            #expect(try await harness.module.premiumGate.isPremium(userId: "u"), "the override wins")
            #expect(try await harness.service.status(userId: "u").isPremium)
        }
    }

    /// With an allow-list, a product not on it never grants premium: its notification stays in the trail unapplied, and
    /// a client's sync of it is refused.
    @Test(arguments: TestDatabases.engines)
    func aProductNotOnTheAllowListNeverGrantsPremium(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine, productIDs: ["povver.premium.yearly"]) { harness in
            try await harness.service.prepare(userId: "u")
            try await harness.receive(harness.notification("SUBSCRIBED", subtype: "INITIAL_BUY", userId: "u"))
            #expect(try await !harness.module.premiumGate.isPremium(userId: "u"))
            #expect(try await harness.eventCount("u") == 1, "kept in the trail")
            await #expect(throws: ServiceError.self) {
                _ = try await harness.service.sync(userId: "u", signedTransaction: harness.transaction(userId: "u", at: 1))
            }
            #expect(try await !harness.module.premiumGate.isPremium(userId: "u"))
        }
        try await SubscriptionHarness.with(engine, productIDs: ["povver.premium.monthly"]) { harness in
            try await harness.service.prepare(userId: "u")
            try await harness.receive(harness.notification("SUBSCRIBED", subtype: "INITIAL_BUY", userId: "u"))
            #expect(try await harness.module.premiumGate.isPremium(userId: "u"), "a listed product does")
        }
    }

    /// Anything that fails verification changes nothing and records nothing.
    @Test(arguments: TestDatabases.engines)
    func rejectedNotificationChangesNothing(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            try await harness.service.prepare(userId: "u")
            let stranger = try AppStoreTestPKI()
            let forged = stranger.notification(
                type: "SUBSCRIBED",
                transaction: AppStoreTestPKI.transaction(
                    originalTransactionId: "o", appAccountToken: AppAccountToken.forUser("u"), expires: Date().addingTimeInterval(86_400)))
            do {
                try await harness.receive(forged)
                Issue.record("a notification under another root was accepted")
            } catch let error as ServiceError {
                #expect(error.code == .invalidArgument && error.details["reason"] == "untrusted_chain")
            }
            #expect(try await harness.service.status(userId: "u").tier == .free)
            #expect(try await harness.eventCount("u") == 0)
            #expect(try await harness.eventCount(nil) == 0)
            #expect(harness.metrics.exposition().contains(#"povver_subscription_notifications_total{outcome="rejected"} 1"#))
        }
    }
}
