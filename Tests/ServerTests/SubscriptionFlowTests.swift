import Contracts
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import SQLKit
import Subscription
import SubscriptionTool
import TestSupport
import Testing

/// A server started with a test root configured accepts and rejects signed notifications as Apple's verifier
/// would, and keeps the subscription state clients read.
@Suite struct SubscriptionFlowTests {
    /// A server with the App Store settings of `pki`: its root in a PEM file (removed afterwards), the test
    /// bundle id, Sandbox.
    static func withServer(
        _ engine: SQLEngine, trusting pki: AppStoreTestPKI, clock: any WallClock = SystemClock(),
        _ body: @escaping @Sendable (PovverServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("appstore-root-\(UUID().uuidString).pem")
        try Data(pki.rootPEM.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = [
            "POVVER_APPSTORE_ROOT_CERTS": file.path, "POVVER_APPSTORE_BUNDLE_ID": AppStoreTestPKI.bundleID,
            "POVVER_APPSTORE_ENVIRONMENT": "Sandbox",
        ]
        try await TestServer.with(engine, environment: environment, clock: clock, body)
    }

    static func notification(
        _ pki: AppStoreTestPKI, _ type: String, token: String?, otid: String = "2000000000000001", at offset: TimeInterval = 0,
        offerType: Int? = nil, uuid: String = UUID().uuidString
    ) -> String {
        let signedDate = Date().addingTimeInterval(offset)
        return pki.notification(
            type: type, uuid: uuid, signedDate: signedDate,
            transaction: AppStoreTestPKI.transaction(
                originalTransactionId: otid, appAccountToken: token, expires: Date().addingTimeInterval(7 * 86_400), signedDate: signedDate,
                offerType: offerType),
            renewal: AppStoreTestPKI.renewal(originalTransactionId: otid, autoRenew: true, signedDate: signedDate))
    }

    /// Apple's notification as Apple posts it: its JWS under `signedPayload` (the document's legacy name).
    static func webhook(_ signed: String) -> Operations.AppStoreWebhook.Input.Body {
        .json(.init(legacySignedPayload: signed))
    }

    @Test(arguments: TestDatabases.engines)
    func purchaseWebhookStatusAndSync(engine: SQLEngine) async throws {
        let pki = try AppStoreTestPKI()
        try await Self.withServer(engine, trusting: pki) { server, client in
            let apple = client.api()
            let signUp = try await client.signUp(email: "payer@example.com", password: "password-1")
            let token = signUp.tokens.accessToken
            let api = client.api(token)
            let userId = signUp.user.id

            let initial = try await api.getSubscriptionStatus().ok.body.json.data
            #expect(initial.tier == .free && initial.status == .free)
            #expect(initial.isPremium == false)
            #expect(initial.appAccountToken == AppAccountToken.forUser(userId))
            #expect(initial.expiresAt == nil)
            // `expires_at` is answered as null, not left out: the wire's members are what this checks.
            let wire = try await client.send("getSubscriptionStatus", [:], token: token)
            #expect(wire.data["expires_at"] == .null, "\(wire.body)")
            // GET is no operation of the document (it declares POST); the server answers it too.
            let viaGet = try await client.get("/getSubscriptionStatus", token: token)
            #expect(viaGet.status == .ok)

            // Apple posts the purchase (trial): no credentials, the signature is the credential.
            let appAccountToken = AppAccountToken.forUser(userId)
            let subscribed = Self.notification(pki, "SUBSCRIBED", token: appAccountToken.uppercased(), at: -30, offerType: 1)
            let accepted = try await apple.appStoreWebhook(body: Self.webhook(subscribed)).ok.body.json
            #expect(accepted.success == true)
            let trial = try await api.getSubscriptionStatus().ok.body.json.data
            #expect(trial.status == .trial && trial.tier == .premium && trial.isPremium == true)
            #expect(trial.productId == "povver.premium.monthly" && trial.autoRenewEnabled == true)
            #expect(trial.expiresAt != nil)

            // Apple retries: 200, nothing changes.
            _ = try await apple.appStoreWebhook(body: Self.webhook(subscribed)).ok
            #expect(try await server.subscription.service.events(userId: userId).count == 1)

            // Anything unverifiable is 400 and changes nothing.
            let parts = subscribed.split(separator: ".").map(String.init)
            let forgedPayload = Self.notification(pki, "EXPIRED", token: appAccountToken, at: -10).split(separator: ".").map(String.init)[1]
            let spliced = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
            let refusal = try #require(await refused { try await apple.appStoreWebhook(body: Self.webhook(spliced)) })
            #expect(refusal.status == 400)
            #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["reason"] == "invalid_signature")
            let stranger = try AppStoreTestPKI()
            let strangers = Self.notification(stranger, "EXPIRED", token: appAccountToken)
            let foreign = try #require(await refused { try await apple.appStoreWebhook(body: Self.webhook(strangers)) })
            #expect(foreign.status == 400 && foreign.details["reason"] == "untrusted_chain")
            // A field the document does not declare, which the client cannot write.
            #expect(try await client.send("appStoreWebhook", ["payload": "x"]).status == .badRequest)
            let twoPayloads = try #require(
                await refused {
                    try await apple.appStoreWebhook(body: .json(.init(legacySignedPayload: subscribed, signedPayload: spliced)))
                })
            #expect(twoPayloads.status == 400 && twoPayloads.details["field"] == "signedPayload")
            let twoTransactions = try #require(
                await refused {
                    try await api.syncSubscription(body: .json(.init(legacySignedTransaction: "d.e.f", signedTransaction: "a.b.c")))
                }
            )
            #expect(twoTransactions.status == 400 && twoTransactions.details["field"] == "signed_transaction")
            #expect(try await api.getSubscriptionStatus().ok.body.json.data.status == .trial)

            // The client syncs its StoreKit 2 transaction after the trial converts.
            let converted = pki.sign(
                payload: AppStoreTestPKI.transaction(
                    originalTransactionId: "2000000000000001", appAccountToken: appAccountToken,
                    expires: Date().addingTimeInterval(30 * 86_400),
                    signedDate: Date().addingTimeInterval(-5)))
            let synced = try await api.syncSubscription(body: .json(.init(signedTransaction: converted))).ok.body.json.data
            #expect(synced.status == .active && synced.isPremium == true)

            // Someone else's purchase is not yours; an unsigned one is no purchase.
            let other = client.api(try await client.signUp(email: "other@example.com", password: "password-2").tokens.accessToken)
            let stolen = try #require(
                await refused { try await other.syncSubscription(body: .json(.init(legacySignedTransaction: converted))) })
            #expect(stolen.status == 403 && stolen.code == "PERMISSION_DENIED")
            let garbage = try #require(
                await refused { try await other.syncSubscription(body: .json(.init(signedTransaction: "e30.e30.e30"))) })
            #expect(garbage.status == 400 && garbage.details["field"] == "signed_transaction")
            #expect(try await other.getSubscriptionStatus().ok.body.json.data.isPremium == false)

            // Apple's downgrade is authoritative.
            let expiredNotification = Self.notification(pki, "EXPIRED", token: appAccountToken, at: -1)
            _ = try await apple.appStoreWebhook(body: Self.webhook(expiredNotification)).ok
            let after = try await api.getSubscriptionStatus().ok.body.json.data
            #expect(after.status == .expired && after.isPremium == false)
            #expect(try await server.subscription.premiumGate.isPremium(userId: userId) == false)

            // Status and sync need a user; the webhook needs none.
            #expect(try #require(await refused { try await apple.getSubscriptionStatus() }).status == 401)
            #expect(
                try #require(await refused { try await apple.syncSubscription(body: .json(.init(signedTransaction: converted))) }).status
                    == 401)

            let metrics = server.metrics.exposition()
            #expect(metrics.contains(#"povver_subscription_notifications_total{outcome="applied"} 2"#))
            #expect(metrics.contains(#"povver_subscription_notifications_total{outcome="duplicate"} 1"#))
            #expect(metrics.contains(#"povver_subscription_notifications_total{outcome="rejected"} 2"#))
        }
    }

    /// A new account gets its row from the `AccountCreated` handler, so Apple's first notification finds it by
    /// token; an account older than its row (created before this module had tables) gets the notification kept as
    /// an orphan — Apple has its 200 and does not retry — and applied when the row appears.
    @Test(arguments: TestDatabases.engines)
    func notificationsFindNewAndOlderAccounts(engine: SQLEngine) async throws {
        let pki = try AppStoreTestPKI()
        let clock = FakeWallClock(Date())
        try await Self.withServer(engine, trusting: pki, clock: clock) { server, client in
            let apple = client.api()
            func count(_ condition: SQLQueryString) async throws -> Int {
                try await server.database.sql.raw("SELECT COUNT(*) AS n FROM \(condition)").first(decodingColumn: "n", as: Int.self) ?? 0
            }
            let freshId = try await client.signUp(email: "fresh@example.com", password: "password-1").user.id
            try await AccountFlowTests.settle(server, clock: clock)
            #expect(try await count("subscription_state WHERE user_id = \(bind: freshId)") == 1, "the handler made the row")
            let freshNotification = Self.notification(pki, "SUBSCRIBED", token: AppAccountToken.forUser(freshId))
            _ = try await apple.appStoreWebhook(body: Self.webhook(freshNotification)).ok
            #expect(try await server.subscription.premiumGate.isPremium(userId: freshId))

            let older = try await client.signUp(email: "older@example.com", password: "password-1")
            let olderId = older.user.id
            try await AccountFlowTests.settle(server, clock: clock)
            try await server.database.sql.raw("DELETE FROM subscription_state WHERE user_id = \(bind: olderId)").run()
            let signed = Self.notification(pki, "SUBSCRIBED", token: AppAccountToken.forUser(olderId), otid: "2000000000000002")
            _ = try await apple.appStoreWebhook(body: Self.webhook(signed)).ok
            #expect(try await count("subscription_events WHERE user_id IS NULL") == 1)
            #expect(try await server.subscription.premiumGate.isPremium(userId: olderId) == false)
            let status = try await client.api(older.tokens.accessToken).getSubscriptionStatus().ok.body.json.data
            #expect(status.status == .active && status.isPremium == true)
            #expect(try await count("subscription_events WHERE user_id IS NULL") == 0)
        }
    }

    /// With no roots configured the server trusts only Apple Root CA - G3; without a bundle id it accepts nothing.
    @Test func defaultsTrustOnlyAppleAndNeedAnAppIdentity() async throws {
        let pki = try AppStoreTestPKI()
        let signed = Self.notification(pki, "SUBSCRIBED", token: AppAccountToken.forUser("u"))
        try await TestServer.with(
            .sqlite, environment: ["POVVER_APPSTORE_BUNDLE_ID": AppStoreTestPKI.bundleID, "POVVER_APPSTORE_ENVIRONMENT": "Sandbox"]
        ) { _, client in
            let refusal = try #require(await refused { try await client.api().appStoreWebhook(body: Self.webhook(signed)) })
            #expect(refusal.status == 400 && refusal.details["reason"] == "untrusted_chain")
        }
        try await TestServer.with(.sqlite) { _, client in
            let apple = client.api()
            let unconfigured = try await outcome { try await apple.appStoreWebhook(body: Self.webhook(signed)).ok }
            #expect(unconfigured == "FAILED_PRECONDITION")
        }
        // Misconfiguration stops the server at start, naming the variable.
        for environment in [
            ["POVVER_APPSTORE_ROOT_CERTS": "/no/such/root.pem"],
            ["POVVER_APPSTORE_BUNDLE_ID": "com.povver.app"],
            ["POVVER_APPSTORE_BUNDLE_ID": "com.povver.app", "POVVER_APPSTORE_APP_APPLE_ID": "not-a-number"],
        ] {
            await #expect(throws: ServiceError.self) { try await TestServer.with(.sqlite, environment: environment) { _, _ in } }
        }
    }

    /// `povver-subscription` on the server's composition.
    @Test(arguments: TestDatabases.engines)
    func subscriptionTool(engine: SQLEngine) async throws {
        let pki = try AppStoreTestPKI()
        try await Self.withServer(engine, trusting: pki) { server, client in
            let tool = try SubscriptionTool(composition: server.composition)
            let signUp = try await client.signUp(email: "beta@example.com", password: "password-1")
            let userId = signUp.user.id
            let api = client.api(signUp.tokens.accessToken)

            #expect(try await tool.setOverride(userId: userId, premium: true).contains("is_premium: true"))
            #expect(try await api.getSubscriptionStatus().ok.body.json.data.override == "premium")
            #expect(try await api.getSubscriptionStatus().ok.body.json.data.isPremium == true)
            let status = try await tool.status(userId: userId)
            #expect(status.contains("override:                premium") && status.contains("tier:                    free"))
            await #expect(throws: ServiceError.self) { _ = try await tool.setOverride(userId: "no-such-user", premium: true) }
            _ = try await tool.setOverride(userId: userId, premium: false)
            #expect(try await api.getSubscriptionStatus().ok.body.json.data.isPremium == false)

            let signed = Self.notification(pki, "DID_RENEW", token: AppAccountToken.forUser(userId))
            _ = try await client.api().appStoreWebhook(body: Self.webhook(signed))
            let events = try await tool.events(userId: userId, limit: 10)
            #expect(events.contains("DID_RENEW") && events.contains("override") && events.contains("applied"))

            // verify: the whole webhook body or the bare JWS; nested data decoded.
            let body = String(decoding: try JSONEncoder().encode(["signedPayload": signed]), as: UTF8.self)
            let shown = try await tool.verify(body)
            #expect(shown.hasPrefix("verified: App Store Server Notification V2"))
            #expect(shown.contains("\"originalTransactionId\" : \"2000000000000001\"") && shown.contains("\"autoRenewStatus\" : 1"))
            #expect(shown.contains("Povver Test Root CA"))
            #expect(
                try await tool.verify(
                    pki.sign(payload: AppStoreTestPKI.transaction(originalTransactionId: "9", appAccountToken: nil, expires: Date()))
                ).hasPrefix("verified: signed transaction"))
            do {
                _ = try await tool.verify(Self.notification(try AppStoreTestPKI(), "DID_RENEW", token: nil))
                Issue.record("a foreign chain verified")
            } catch let error as ServiceError {
                #expect(error.message.contains("does not lead to a trusted root"))
            }
        }
    }
}
