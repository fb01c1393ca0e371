import Contracts
import Fakes
import Foundation
import Platform
import Subscription
import TestSupport
import Testing

/// Premium always ends: a grant that names no expiry lapses like any other (docs/subscription.md).
@Suite struct PremiumWithoutExpiryTests {
    /// A `SUBSCRIBED` notification whose transaction has no `expiresDate` grants premium until the lapse grace (72 h)
    /// from its signed date has passed with no renewal, then it lapses (it used to stand for good); a renewal with an
    /// expiry brings it back.
    @Test(arguments: TestDatabases.engines)
    func aGrantWithoutAnExpiryLapsesAfterTheGraceFromItsSignedDate(engine: SQLEngine) async throws {
        try await SubscriptionHarness.with(engine) { harness in
            try await harness.service.prepare(userId: "u")
            let signedAt = harness.clock.now()
            var transaction = AppStoreTestPKI.transaction(
                originalTransactionId: "otid-1", appAccountToken: AppAccountToken.forUser("u"), expires: signedAt, signedDate: signedAt)
            transaction["expiresDate"] = nil
            let notification = harness.pki.notification(
                type: "SUBSCRIBED", subtype: "INITIAL_BUY", signedDate: signedAt, transaction: transaction)
            #expect(try await harness.receive(notification) == .applied)
            let granted = try await harness.service.status(userId: "u")
            #expect(granted.isPremium && granted.status == .active)
            let expiresAt = try #require(granted.expiresAt, "premium is given an end")
            #expect(abs(expiresAt.timeIntervalSince(signedAt)) < 0.01, "its signed date")

            harness.clock.advance(by: 72 * 3600 - 60)
            #expect(try await harness.module.premiumGate.isPremium(userId: "u"), "within the grace")
            harness.clock.advance(by: 120)
            #expect(try await !harness.module.premiumGate.isPremium(userId: "u"), "past the grace: lapsed")
            let lapsed = try await harness.service.status(userId: "u")
            #expect(lapsed.tier == .free && lapsed.status == .expired && !lapsed.isPremium)

            try await harness.receive(harness.notification("DID_RENEW", userId: "u", expiresIn: 30 * 86_400))
            #expect(try await harness.module.premiumGate.isPremium(userId: "u"), "a renewal with an expiry restores it")
        }
    }

    /// A premium row stored without an expiry (before every grant had one) lapses the lapse grace after its last update.
    @Test func aStoredPremiumWithoutAnExpiryLapsesFromItsLastUpdate() {
        let updated = Date(timeIntervalSince1970: 1_767_225_600)
        var state = SubscriptionState.initial(userId: "u", at: updated)
        state.tier = .premium
        state.status = .active
        let grace: TimeInterval = 72 * 3600
        #expect(state.asOf(updated.addingTimeInterval(grace - 1), lapseGrace: grace).isPremium)
        let lapsed = state.asOf(updated.addingTimeInterval(grace + 1), lapseGrace: grace)
        #expect(!lapsed.isPremium && lapsed.status == .expired)
        state.override = "premium"
        #expect(state.asOf(updated.addingTimeInterval(grace + 1), lapseGrace: grace).isPremium, "the override still wins")
    }
}
