import Auth
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import SQLKit
import Synchronization
import TestSupport
import Testing

/// Someone signs up with another person's address (which they cannot confirm) and tries to leave a way in behind
/// — their own Google or Apple sign-in, a device receiving the account's notifications — for when the owner
/// takes the account back with a password reset.
@Suite struct PreRegisteredEmailTests {
    let providers = FakeIdentityProviders()

    /// While the address is unconfirmed, `linkProvider` and `registerDevice` are refused and change nothing; the
    /// owner's reset mail says what a reset removes.
    @Test(arguments: TestDatabases.engines)
    func anUnverifiedAccountCannotLinkOrRegisterADevice(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.call("signUp", ["email": "victim@example.com", "password": "attacker-pw"])
            let token = try #require(signUp.accessToken)
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)

            let google = try await providers.token("google.com", sub: "g-attacker", email: "attacker@example.com", now: clock.now())
            let linked = try await client.call("linkProvider", ["provider": "google.com", "id_token": google], token: token)
            #expect(linked.errorCode == "FAILED_PRECONDITION" && linked.status.code == 412, "\(linked.json)")
            #expect(linked.errorMessage == "Please verify your email address first: enter the code we emailed you, or ask for a new one.")
            #expect(linked.errorDetails?["reason"] as? String == "email_not_verified")
            let (apple, raw) = try await Self.attackersAppleToken(providers, clock)
            let linkedApple = try await client.call(
                "linkProvider", ["provider": "apple.com", "id_token": apple, "raw_nonce": raw, "authorization_code": "code-attacker"],
                token: token)
            #expect(linkedApple.errorCode == "FAILED_PRECONDITION", "\(linkedApple.json)")
            let device = try await client.call(
                "registerDevice", ["device_id": "attacker-phone", "platform": "ios", "push_token": "apns-attacker"], token: token)
            #expect(device.errorCode == "FAILED_PRECONDITION" && device.status.code == 412, "\(device.json)")
            #expect(device.errorDetails?["reason"] as? String == "email_not_verified")
            let lane: HTTPFields = [HTTPField.Name("X-API-Key")!: "test-service-key", HTTPField.Name("X-User-Id")!: userId]
            let viaAgent = try await client.call(
                "registerDevice", ["device_id": "agent-phone", "platform": "ios", "push_token": "apns-agent"], headers: lane)
            #expect(viaAgent.errorCode == "FAILED_PRECONDITION", "nor through the service lane: \(viaAgent.json)")

            let providerIds = (try await client.call("getAccount", token: token).data["providers"] as? [[String: Any]])?.compactMap {
                $0["provider_id"] as? String
            }
            #expect(providerIds == ["password"])
            #expect(try await count(server, "auth_devices") == 0)
            #expect(try await count(server, "auth_apple_tokens") == 0)
            #expect(providers.appleCalls.withLock { $0.exchanged }.isEmpty, "no Apple code was exchanged")
            let viaGoogle = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": google])
            #expect((viaGoogle.data["user"] as? [String: Any])?["id"] as? String != userId, "Google does not open the account")

            // The owner takes the address back; the reset mail says what that removes.
            #expect(try await client.call("sendPasswordReset", ["email": "victim@example.com"]).status == .ok)
            let resetMail = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
            #expect(
                Self.text(resetMail.body).contains("remove every Google or Apple sign-in linked to it and every registered device"),
                "\(resetMail.body)")
            let code = try await AccountFlowTests.code(to: "victim@example.com", kind: "password_reset", in: server)
            #expect(try await client.call("resetPassword", ["code": code, "new_password": "owner-pw-1"]).status == .ok)
            #expect(
                try await client.call("refreshToken", ["refresh_token": try #require(signUp.refreshToken)]).errorCode == "UNAUTHENTICATED")
            let owner = try #require(
                try await client.call("signIn", ["email": "victim@example.com", "password": "owner-pw-1"]).accessToken)
            #expect(try await client.call("getAccount", token: owner).data["email_verified"] as? Bool == true)
        }
    }

    /// An account whose address was never confirmed, with a Google and an Apple sign-in, a device and a second
    /// session added meanwhile (as before this rule, or by any path that still allowed it): the owner's password
    /// reset removes them all (Apple's token revoked at Apple), and a mail tells the owner what went.
    @Test(arguments: TestDatabases.engines)
    func resettingAnUnverifiedAccountRemovesEveryOtherWayIn(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.call("signUp", ["email": "victim@example.com", "password": "attacker-pw"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let (google, apple) = try await Self.leaveWaysIn(
                userId: userId, token: try #require(signUp.accessToken), server, client, providers, clock)
            let otherSession = try await client.call("signIn", ["email": "victim@example.com", "password": "attacker-pw"])

            #expect(try await client.call("sendPasswordReset", ["email": "victim@example.com"]).status == .ok)
            let resetMail = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
            #expect(
                Self.text(resetMail.body).contains("remove every Google or Apple sign-in linked to it and every registered device"),
                "\(resetMail.body)")
            let code = try await AccountFlowTests.code(to: "victim@example.com", kind: "password_reset", in: server)
            #expect(try await client.call("resetPassword", ["code": code, "new_password": "owner-pw-1"]).status == .ok)

            let owner = try #require(
                try await client.call("signIn", ["email": "victim@example.com", "password": "owner-pw-1"]).accessToken)
            let account = try await client.call("getAccount", token: owner)
            #expect((account.data["providers"] as? [[String: Any]])?.compactMap { $0["provider_id"] as? String } == ["password"])
            #expect(account.data["email_verified"] as? Bool == true)
            #expect(try await Self.rows(server, "auth_devices", userId) == 0)
            #expect(try await Self.rows(server, "auth_apple_tokens", userId) == 0)
            #expect(providers.appleCalls.withLock { $0.revoked } == ["apple-rt-code-attacker"], "revoked at Apple")
            #expect(
                try await client.call("refreshToken", ["refresh_token": try #require(otherSession.refreshToken)]).errorCode
                    == "UNAUTHENTICATED")
            #expect(
                try await client.call("refreshToken", ["refresh_token": try #require(signUp.refreshToken)]).errorCode == "UNAUTHENTICATED")
            for (provider, body) in [("google.com", ["provider": "google.com", "id_token": google]), ("apple.com", apple)] {
                let signIn = try await client.call("signInWithIdp", body)
                #expect(
                    (signIn.data["user"] as? [String: Any])?["id"] as? String != userId,
                    "\(provider) no longer opens the account: \(signIn.json)")
            }

            let notice = try #require(try await server.auth.outbox.list().first { $0.kind == "sign_in_methods_removed" })
            #expect(notice.recipient == "victim@example.com")
            #expect(notice.subject == "We removed other ways into your Povver account")
            for line in ["Sign in with Google", "Sign in with Apple", "1 registered device", "signed out"] {
                #expect(Self.text(notice.body).contains(line), "\(line): \(notice.body)")
            }

            // Now verified, the owner may link their own Google account.
            let mine = try await providers.token("google.com", sub: "g-owner", email: "victim@example.com", now: clock.now())
            #expect(try await client.call("linkProvider", ["provider": "google.com", "id_token": mine], token: owner).status == .ok)
        }
    }

    /// The same account taken back by an email change (the address proved is the new one): the other ways in
    /// and every session go, and the new address is told.
    @Test(arguments: TestDatabases.engines)
    func anEmailChangeThatVerifiesTheAccountRemovesEveryOtherWayIn(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.call("signUp", ["email": "unproven@example.com", "password": "password-1"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let token = try #require(signUp.accessToken)
            _ = try await Self.leaveWaysIn(userId: userId, token: token, server, client, providers, clock)

            #expect(try await client.call("changeEmail", ["new_email": "proven@example.com"], token: token).status == .ok)
            let code = try await AccountFlowTests.code(to: "proven@example.com", kind: "verify_new_email", in: server)
            #expect(try await client.call("applyEmailChange", ["code": code]).status == .ok)

            #expect(try await client.call("getAccount", token: token).errorCode == "UNAUTHENTICATED", "every session ended")
            let again = try #require(
                try await client.call("signIn", ["email": "proven@example.com", "password": "password-1"]).accessToken)
            let account = try await client.call("getAccount", token: again)
            #expect((account.data["providers"] as? [[String: Any]])?.compactMap { $0["provider_id"] as? String } == ["password"])
            #expect(account.data["email_verified"] as? Bool == true)
            #expect(try await Self.rows(server, "auth_devices", userId) == 0)
            #expect(try await Self.rows(server, "auth_apple_tokens", userId) == 0)
            let notice = try #require(try await server.auth.outbox.list().first { $0.kind == "sign_in_methods_removed" })
            #expect(notice.recipient == "proven@example.com")
            #expect(notice.body.contains("Sign in with Google") && notice.body.contains("1 registered device"), "\(notice.body)")
        }
    }

    /// An account whose address was already confirmed keeps its sign-in methods and devices on a password reset
    /// (the sessions end, as ever), and no such mail is sent.
    @Test(arguments: TestDatabases.engines)
    func aVerifiedAccountKeepsItsMethodsOnReset(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.signUpVerified(["email": "kept@example.com", "password": "password-1"], server: server)
            let token = try #require(signUp.accessToken)
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let google = try await providers.token("google.com", sub: "g-kept", email: "kept.g@example.com", now: clock.now())
            #expect(try await client.call("linkProvider", ["provider": "google.com", "id_token": google], token: token).status == .ok)
            #expect(
                try await client.call("registerDevice", ["device_id": "phone", "platform": "ios", "push_token": "apns"], token: token)
                    .status == .ok)

            #expect(try await client.call("sendPasswordReset", ["email": "kept@example.com"]).status == .ok)
            let resetMail = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
            #expect(!resetMail.body.contains("Google"), "\(resetMail.body)")
            let code = try await AccountFlowTests.code(to: "kept@example.com", kind: "password_reset", in: server)
            #expect(try await client.call("resetPassword", ["code": code, "new_password": "password-2"]).status == .ok)

            let again = try #require(try await client.call("signIn", ["email": "kept@example.com", "password": "password-2"]).accessToken)
            let account = try await client.call("getAccount", token: again)
            #expect(
                Set((account.data["providers"] as? [[String: Any]])?.compactMap { $0["provider_id"] as? String } ?? []) == [
                    "password", "google.com",
                ])
            #expect(try await Self.rows(server, "auth_devices", userId) == 1)
            #expect(
                try await client.call("signInWithIdp", ["provider": "google.com", "id_token": google]).data["result"] as? String
                    == "existing_user")
            #expect(try await server.auth.outbox.list().contains { $0.kind == "sign_in_methods_removed" } == false)
        }
    }

    /// The attacker's Apple ID token and the raw nonce it was issued for.
    static func attackersAppleToken(_ providers: FakeIdentityProviders, _ clock: FakeWallClock) async throws -> (token: String, raw: String)
    {
        let raw = "nonce-attacker"
        let token = try await providers.token(
            "apple.com", sub: "a-attacker", email: "relay@privaterelay.appleid.com", now: clock.now(),
            nonce: FakeIdentityProviders.nonceHash(raw))
        return (token, raw)
    }

    /// Gives an unverified account a Google and an Apple sign-in (Apple's token kept) and a device, the way an
    /// account made before this rule could have them: the address counts as confirmed just while they are added.
    /// Answers the Google token and a body that signs in with the Apple account.
    static func leaveWaysIn(
        userId: String, token: String, _ server: PovverServer, _ client: any TestClientProtocol, _ providers: FakeIdentityProviders,
        _ clock: FakeWallClock
    ) async throws -> (google: String, apple: [String: Any]) {
        try await server.database.sql.raw("UPDATE auth_users SET email_verified = 1 WHERE id = \(bind: userId)").run()
        let google = try await providers.token("google.com", sub: "g-attacker", email: "attacker@example.com", now: clock.now())
        #expect(try await client.call("linkProvider", ["provider": "google.com", "id_token": google], token: token).status == .ok)
        let (apple, raw) = try await Self.attackersAppleToken(providers, clock)
        let linked = try await client.call(
            "linkProvider", ["provider": "apple.com", "id_token": apple, "raw_nonce": raw, "authorization_code": "code-attacker"],
            token: token)
        #expect(linked.status == .ok, "\(linked.json)")
        #expect(
            try await client.call(
                "registerDevice", ["device_id": "attacker-phone", "platform": "ios", "push_token": "apns-attacker"], token: token
            ).status == .ok)
        try await server.database.sql.raw("UPDATE auth_users SET email_verified = 0 WHERE id = \(bind: userId)").run()
        #expect(try await rows(server, "auth_apple_tokens", userId) == 1)
        #expect(try await rows(server, "auth_devices", userId) == 1)
        let again = "nonce-attacker-2"
        let appleAgain = try await providers.token(
            "apple.com", sub: "a-attacker", email: "relay@privaterelay.appleid.com", now: clock.now(),
            nonce: FakeIdentityProviders.nonceHash(again))
        return (google, ["provider": "apple.com", "id_token": appleAgain, "raw_nonce": again])
    }

    /// A mail's text with its lines joined, as a reader takes it in.
    static func text(_ body: String) -> String {
        body.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func rows(_ server: PovverServer, _ table: String, _ userId: String) async throws -> Int {
        try await server.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: userId)")
            .first(decodingColumn: "n", as: Int.self) ?? -1
    }
}
