import Contracts
import Fakes
import Foundation
import Platform
import Subscription
import TestSupport
import Testing

struct PremiumFixture: Sendable {
    /// Makes the user premium the way the provider does it.
    var grant: @Sendable (_ userId: String) async throws -> Void
    /// Takes premium away again.
    var revoke: @Sendable (_ userId: String) async throws -> Void
}

/// The `PremiumGate` contract: unknown users are free; premium exactly while granted; `requirePremium` throws
/// `PREMIUM_REQUIRED` for a free user.
func premiumGateConformance(_ gate: some PremiumGate, fixture: PremiumFixture) async throws {
    #expect(try await gate.isPremium(userId: "never-seen") == false)
    await #expect(throws: ServiceError(.premiumRequired)) { try await gate.requirePremium(userId: "never-seen") }
    try await fixture.grant("payer")
    #expect(try await gate.isPremium(userId: "payer"))
    try await gate.requirePremium(userId: "payer")
    #expect(try await gate.isPremium(userId: "bystander") == false)
    try await fixture.revoke("payer")
    #expect(try await gate.isPremium(userId: "payer") == false)
    await #expect(throws: ServiceError(.premiumRequired)) { try await gate.requirePremium(userId: "payer") }
}

extension SubscriptionModule {
    /// The module with a verifier that trusts `pki` (Sandbox, the test bundle id).
    static func forTests(database: Database, pki: AppStoreTestPKI, clock: any WallClock = SystemClock()) -> SubscriptionModule {
        SubscriptionModule(
            database: database,
            verifier: AppStoreDataVerifier(
                roots: [pki.root],
                identity: AppStoreAppIdentity(bundleID: AppStoreTestPKI.bundleID, appAppleID: nil, environment: "Sandbox")),
            clock: clock, ids: RandomIDGenerator(), logger: TestDatabases.logger)
    }
}

@Suite struct PremiumGateConformanceTests {
    @Test func fake() async throws {
        let gate = FakePremiumGate()
        try await premiumGateConformance(
            gate, fixture: PremiumFixture(grant: { await gate.grant(userId: $0) }, revoke: { await gate.revoke(userId: $0) }))
    }

    /// Live, premium comes from the App Store: a verified SUBSCRIBED notification grants it, EXPIRED takes it away.
    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("subscription", SubscriptionModule.migrations)]) { db in
            let pki = try AppStoreTestPKI()
            let module = SubscriptionModule.forTests(database: db, pki: pki)
            @Sendable func notify(_ type: String, _ userId: String, offset: TimeInterval) async throws {
                let signedDate = Date().addingTimeInterval(offset)
                let transaction = AppStoreTestPKI.transaction(
                    originalTransactionId: "otid-\(userId)", appAccountToken: AppAccountToken.forUser(userId),
                    expires: Date().addingTimeInterval(type == "EXPIRED" ? -1 : 86_400), signedDate: signedDate)
                _ = try await module.service.receiveNotification(
                    signedPayload: pki.notification(type: type, signedDate: signedDate, transaction: transaction))
            }
            try await premiumGateConformance(
                module.premiumGate,
                fixture: PremiumFixture(
                    grant: { userId in
                        try await module.service.prepare(userId: userId)
                        try await notify("SUBSCRIBED", userId, offset: 0)
                    },
                    revoke: { userId in try await notify("EXPIRED", userId, offset: 1) }))
        }
    }
}
