import Contracts
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
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

    @Test(arguments: TestDatabases.engines)
    func purchaseWebhookStatusAndSync(engine: SQLEngine) async throws {
        let pki = try AppStoreTestPKI()
        try await Self.withServer(engine, trusting: pki) { server, client in
            let signUp = try await client.call("signUp", ["email": "payer@example.com", "password": "password-1"])
            let token = try #require(signUp.accessToken)
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)

            let initial = try await client.call("getSubscriptionStatus", token: token)
            #expect(initial.status == .ok)
            #expect(initial.data["tier"] as? String == "free" && initial.data["status"] as? String == "free")
            #expect(initial.data["is_premium"] as? Bool == false)
            #expect(initial.data["app_account_token"] as? String == AppAccountToken.forUser(userId))
            #expect(initial.data.keys.contains("expires_at") && initial.data["expires_at"] is NSNull)
            let viaGet = try await client.get("/getSubscriptionStatus", token: token)
            #expect(viaGet.status == .ok)

            // Apple posts the purchase (trial): no credentials, the signature is the credential.
            let appAccountToken = AppAccountToken.forUser(userId)
            let subscribed = Self.notification(pki, "SUBSCRIBED", token: appAccountToken.uppercased(), at: -30, offerType: 1)
            let accepted = try await client.call("appStoreWebhook", ["signedPayload": subscribed])
            #expect(accepted.status == .ok)
            #expect(accepted.json["success"] as? Bool == true)
            let trial = try await client.call("getSubscriptionStatus", token: token)
            #expect(
                trial.data["status"] as? String == "trial" && trial.data["tier"] as? String == "premium"
                    && trial.data["is_premium"] as? Bool == true)
            #expect(trial.data["product_id"] as? String == "povver.premium.monthly" && trial.data["auto_renew_enabled"] as? Bool == true)
            #expect(trial.data["expires_at"] is String)

            // Apple retries: 200, nothing changes.
            #expect(try await client.call("appStoreWebhook", ["signedPayload": subscribed]).status == .ok)
            #expect(try await server.subscription.service.events(userId: userId).count == 1)

            // Anything unverifiable is 400 and changes nothing.
            let parts = subscribed.split(separator: ".").map(String.init)
            let forgedPayload = Self.notification(pki, "EXPIRED", token: appAccountToken, at: -10).split(separator: ".").map(String.init)[1]
            let spliced = [parts[0], forgedPayload, parts[2]].joined(separator: ".")
            let refused = try await client.call("appStoreWebhook", ["signedPayload": spliced])
            #expect(refused.status == .badRequest)
            #expect(refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["reason"] as? String == "invalid_signature")
            let stranger = try AppStoreTestPKI()
            let foreign = try await client.call(
                "appStoreWebhook", ["signedPayload": Self.notification(stranger, "EXPIRED", token: appAccountToken)])
            #expect(foreign.status == .badRequest && foreign.errorDetails?["reason"] as? String == "untrusted_chain")
            #expect(try await client.call("appStoreWebhook", ["payload": "x"]).status == .badRequest)
            let twoPayloads = try await client.call("appStoreWebhook", ["signedPayload": subscribed, "signed_payload": spliced])
            #expect(twoPayloads.status == .badRequest && twoPayloads.errorDetails?["field"] as? String == "signedPayload")
            let twoTransactions = try await client.call(
                "syncSubscription", ["signed_transaction": "a.b.c", "signedTransaction": "d.e.f"], token: token)
            #expect(twoTransactions.status == .badRequest && twoTransactions.errorDetails?["field"] as? String == "signed_transaction")
            #expect(try await client.call("getSubscriptionStatus", token: token).data["status"] as? String == "trial")

            // The client syncs its StoreKit 2 transaction after the trial converts.
            let converted = pki.sign(
                payload: AppStoreTestPKI.transaction(
                    originalTransactionId: "2000000000000001", appAccountToken: appAccountToken,
                    expires: Date().addingTimeInterval(30 * 86_400),
                    signedDate: Date().addingTimeInterval(-5)))
            let synced = try await client.call("syncSubscription", ["signed_transaction": converted], token: token)
            #expect(synced.status == .ok)
            #expect(synced.data["status"] as? String == "active" && synced.data["is_premium"] as? Bool == true)

            // Someone else's purchase is not yours; an unsigned one is no purchase.
            let other = try #require(try await client.call("signUp", ["email": "other@example.com", "password": "password-2"]).accessToken)
            let stolen = try await client.call("syncSubscription", ["signedTransaction": converted], token: other)
            #expect(stolen.status == .forbidden && stolen.errorCode == "PERMISSION_DENIED")
            let garbage = try await client.call("syncSubscription", ["signed_transaction": "e30.e30.e30"], token: other)
            #expect(garbage.status == .badRequest && garbage.errorDetails?["field"] as? String == "signed_transaction")
            #expect(try await client.call("getSubscriptionStatus", token: other).data["is_premium"] as? Bool == false)

            // Apple's downgrade is authoritative.
            let expired = try await client.call(
                "appStoreWebhook", ["signedPayload": Self.notification(pki, "EXPIRED", token: appAccountToken, at: -1)])
            #expect(expired.status == .ok)
            let after = try await client.call("getSubscriptionStatus", token: token)
            #expect(after.data["status"] as? String == "expired" && after.data["is_premium"] as? Bool == false)
            #expect(try await server.subscription.premiumGate.isPremium(userId: userId) == false)

            // Status and sync need a user; the webhook needs none.
            #expect(try await client.call("getSubscriptionStatus").status == .unauthorized)
            #expect(try await client.call("syncSubscription", ["signed_transaction": converted]).status == .unauthorized)

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
            func count(_ condition: SQLQueryString) async throws -> Int {
                try await server.database.sql.raw("SELECT COUNT(*) AS n FROM \(condition)").first(decodingColumn: "n", as: Int.self) ?? 0
            }
            let fresh = try await client.call("signUp", ["email": "fresh@example.com", "password": "password-1"])
            let freshId = try #require((fresh.data["user"] as? [String: Any])?["id"] as? String)
            try await AccountFlowTests.settle(server, clock: clock)
            #expect(try await count("subscription_state WHERE user_id = \(bind: freshId)") == 1, "the handler made the row")
            #expect(
                try await client.call(
                    "appStoreWebhook", ["signedPayload": Self.notification(pki, "SUBSCRIBED", token: AppAccountToken.forUser(freshId))]
                ).status == .ok)
            #expect(try await server.subscription.premiumGate.isPremium(userId: freshId))

            let older = try await client.call("signUp", ["email": "older@example.com", "password": "password-1"])
            let olderId = try #require((older.data["user"] as? [String: Any])?["id"] as? String)
            try await AccountFlowTests.settle(server, clock: clock)
            try await server.database.sql.raw("DELETE FROM subscription_state WHERE user_id = \(bind: olderId)").run()
            let signed = Self.notification(pki, "SUBSCRIBED", token: AppAccountToken.forUser(olderId), otid: "2000000000000002")
            #expect(try await client.call("appStoreWebhook", ["signedPayload": signed]).status == .ok)
            #expect(try await count("subscription_events WHERE user_id IS NULL") == 1)
            #expect(try await server.subscription.premiumGate.isPremium(userId: olderId) == false)
            let olderToken = try #require(older.accessToken)
            let status = try await client.call("getSubscriptionStatus", token: olderToken)
            #expect(status.data["status"] as? String == "active" && status.data["is_premium"] as? Bool == true)
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
            let refused = try await client.call("appStoreWebhook", ["signedPayload": signed])
            #expect(refused.status == .badRequest && refused.errorDetails?["reason"] as? String == "untrusted_chain")
        }
        try await TestServer.with(.sqlite) { _, client in
            let unconfigured = try await client.call("appStoreWebhook", ["signedPayload": signed])
            #expect(unconfigured.errorCode == "FAILED_PRECONDITION")
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
            let signUp = try await client.call("signUp", ["email": "beta@example.com", "password": "password-1"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let token = try #require(signUp.accessToken)

            #expect(try await tool.setOverride(userId: userId, premium: true).contains("is_premium: true"))
            #expect(try await client.call("getSubscriptionStatus", token: token).data["override"] as? String == "premium")
            #expect(try await client.call("getSubscriptionStatus", token: token).data["is_premium"] as? Bool == true)
            let status = try await tool.status(userId: userId)
            #expect(status.contains("override:                premium") && status.contains("tier:                    free"))
            await #expect(throws: ServiceError.self) { _ = try await tool.setOverride(userId: "no-such-user", premium: true) }
            _ = try await tool.setOverride(userId: userId, premium: false)
            #expect(try await client.call("getSubscriptionStatus", token: token).data["is_premium"] as? Bool == false)

            let signed = Self.notification(pki, "DID_RENEW", token: AppAccountToken.forUser(userId))
            _ = try await client.call("appStoreWebhook", ["signedPayload": signed])
            let events = try await tool.events(userId: userId, limit: 10)
            #expect(events.contains("DID_RENEW") && events.contains("override") && events.contains("applied"))

            // verify: the whole webhook body or the bare JWS; nested data decoded.
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["signedPayload": signed]), as: UTF8.self)
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
