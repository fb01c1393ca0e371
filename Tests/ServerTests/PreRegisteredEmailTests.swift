import Auth
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import SQLKit
import Synchronization
import TestSupport
import Testing

/// Someone signs up with another person's address (which they cannot confirm) and tries to leave a way in behind
/// — their own Google or Apple sign-in, a device receiving the account's notifications — for when the owner
/// takes the account back with a password reset.
@Suite struct PreRegisteredEmailTests {
    let providers = FakeIdentityProviders()

    /// The providers the account lists, in order.
    static func providerIds(_ api: Client) async throws -> [String] {
        try await api.getAccount().ok.body.json.data.providers.map(\.providerId)
    }

    /// While the address is unconfirmed, `linkProvider` and `registerDevice` are refused and change nothing; the
    /// owner's reset mail says what a reset removes.
    @Test(arguments: TestDatabases.engines)
    func anUnverifiedAccountCannotLinkOrRegisterADevice(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.signUp(email: "victim@example.com", password: "attacker-pw")
            let api = client.api(signUp.tokens.accessToken)
            let userId = signUp.user.id

            let google = try await providers.token("google.com", sub: "g-attacker", email: "attacker@example.com", now: clock.now())
            let linked = try #require(
                await refused { try await api.linkProvider(body: .json(.init(idToken: google, provider: .google_com))) })
            #expect(linked.code == "FAILED_PRECONDITION" && linked.status == 412, "\(linked)")
            #expect(linked.message == "Please verify your email address first: enter the code we emailed you, or ask for a new one.")
            #expect(linked.details["reason"] == "email_not_verified")
            let (apple, raw) = try await Self.attackersAppleToken(providers, clock)
            let linkedApple = try #require(
                await refused {
                    try await api.linkProvider(
                        body: .json(.init(authorizationCode: "code-attacker", idToken: apple, provider: .apple_com, rawNonce: raw)))
                })
            #expect(linkedApple.code == "FAILED_PRECONDITION", "\(linkedApple)")
            let device = try #require(
                await refused {
                    try await api.registerDevice(body: .json(.init(deviceId: "attacker-phone", platform: .ios, pushToken: "apns-attacker")))
                })
            #expect(device.code == "FAILED_PRECONDITION" && device.status == 412, "\(device)")
            #expect(device.details["reason"] == "email_not_verified")
            let lane = client.api(headers: serviceLane(userId))
            let viaAgent = try #require(
                await refused {
                    try await lane.registerDevice(body: .json(.init(deviceId: "agent-phone", platform: .ios, pushToken: "apns-agent")))
                })
            #expect(viaAgent.code == "FAILED_PRECONDITION", "nor through the service lane: \(viaAgent)")

            #expect(try await Self.providerIds(api) == ["password"])
            #expect(try await count(server, "auth_devices") == 0)
            #expect(try await count(server, "auth_apple_tokens") == 0)
            #expect(providers.appleCalls.withLock { $0.exchanged }.isEmpty, "no Apple code was exchanged")
            let viaGoogle = try await client.api().signInWithIdp(body: .json(.init(idToken: google, provider: .google_com))).ok
            #expect(try viaGoogle.body.json.data.user.id != userId, "Google does not open the account")

            // The owner takes the address back; the reset mail says what that removes.
            _ = try await client.api().sendPasswordReset(body: .json(.init(email: "victim@example.com"))).ok
            let resetMail = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
            #expect(
                Self.text(resetMail.body).contains("remove every Google or Apple sign-in linked to it and every registered device"),
                "\(resetMail.body)")
            let code = try await AccountFlowTests.code(to: "victim@example.com", kind: "password_reset", in: server)
            _ = try await client.api().resetPassword(body: .json(.init(code: code, newPassword: "owner-pw-1"))).ok
            let refreshToken = try #require(signUp.tokens.refreshToken)
            #expect(
                try await outcome { try await client.api().refreshToken(body: .json(.init(refreshToken: refreshToken))).ok }
                    == "UNAUTHENTICATED")
            let owner = try await client.signIn(email: "victim@example.com", password: "owner-pw-1").tokens.accessToken
            #expect(try await client.api(owner).getAccount().ok.body.json.data.emailVerified == true)
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
            let api = client.api()
            let signUp = try await client.signUp(email: "victim@example.com", password: "attacker-pw")
            let userId = signUp.user.id
            let (google, apple) = try await Self.leaveWaysIn(
                userId: userId, token: signUp.tokens.accessToken, server, client, providers, clock)
            let otherSession = try await client.signIn(email: "victim@example.com", password: "attacker-pw")

            _ = try await api.sendPasswordReset(body: .json(.init(email: "victim@example.com"))).ok
            let resetMail = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
            #expect(
                Self.text(resetMail.body).contains("remove every Google or Apple sign-in linked to it and every registered device"),
                "\(resetMail.body)")
            let code = try await AccountFlowTests.code(to: "victim@example.com", kind: "password_reset", in: server)
            _ = try await api.resetPassword(body: .json(.init(code: code, newPassword: "owner-pw-1"))).ok

            let owner = client.api(try await client.signIn(email: "victim@example.com", password: "owner-pw-1").tokens.accessToken)
            let account = try await owner.getAccount().ok.body.json.data
            #expect(account.providers.map(\.providerId) == ["password"])
            #expect(account.emailVerified == true)
            #expect(try await Self.rows(server, "auth_devices", userId) == 0)
            #expect(try await Self.rows(server, "auth_apple_tokens", userId) == 0)
            #expect(providers.appleCalls.withLock { $0.revoked } == ["apple-rt-code-attacker"], "revoked at Apple")
            for refreshToken in [otherSession.tokens.refreshToken, signUp.tokens.refreshToken] {
                let token = try #require(refreshToken)
                #expect(try await outcome { try await api.refreshToken(body: .json(.init(refreshToken: token))).ok } == "UNAUTHENTICATED")
            }
            let bodies: [(String, Operations.SignInWithIdp.Input.Body.JsonPayload)] = [
                ("google.com", .init(idToken: google, provider: .google_com)), ("apple.com", apple),
            ]
            for (provider, body) in bodies {
                let signIn = try await api.signInWithIdp(body: .json(body)).ok.body.json.data
                #expect(signIn.user.id != userId, "\(provider) no longer opens the account: \(signIn)")
            }

            let notice = try #require(try await server.auth.outbox.list().first { $0.kind == "sign_in_methods_removed" })
            #expect(notice.recipient == "victim@example.com")
            #expect(notice.subject == "We removed other ways into your Povver account")
            for line in ["Sign in with Google", "Sign in with Apple", "1 registered device", "signed out"] {
                #expect(Self.text(notice.body).contains(line), "\(line): \(notice.body)")
            }

            // Now verified, the owner may link their own Google account.
            let mine = try await providers.token("google.com", sub: "g-owner", email: "victim@example.com", now: clock.now())
            _ = try await owner.linkProvider(body: .json(.init(idToken: mine, provider: .google_com))).ok
        }
    }

    /// The same account taken back by an email change (the address proved is the new one): the other ways in
    /// and every session go, and the new address is told.
    @Test(arguments: TestDatabases.engines)
    func anEmailChangeThatVerifiesTheAccountRemovesEveryOtherWayIn(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.signUp(email: "unproven@example.com", password: "password-1")
            let userId = signUp.user.id
            let token = signUp.tokens.accessToken
            let api = client.api(token)
            _ = try await Self.leaveWaysIn(userId: userId, token: token, server, client, providers, clock)

            _ = try await api.changeEmail(body: .json(.init(newEmail: "proven@example.com"))).ok
            let code = try await AccountFlowTests.code(to: "proven@example.com", kind: "verify_new_email", in: server)
            _ = try await client.api().applyEmailChange(body: .json(.init(code: code))).ok

            #expect(try await outcome { try await api.getAccount().ok } == "UNAUTHENTICATED", "every session ended")
            let again = try await client.signIn(email: "proven@example.com", password: "password-1").tokens.accessToken
            let account = try await client.api(again).getAccount().ok.body.json.data
            #expect(account.providers.map(\.providerId) == ["password"])
            #expect(account.emailVerified == true)
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
            let signUp = try await client.signUpVerified(email: "kept@example.com", password: "password-1", server: server)
            let api = client.api(signUp.tokens.accessToken)
            let userId = signUp.user.id
            let google = try await providers.token("google.com", sub: "g-kept", email: "kept.g@example.com", now: clock.now())
            _ = try await api.linkProvider(body: .json(.init(idToken: google, provider: .google_com))).ok
            _ = try await api.registerDevice(body: .json(.init(deviceId: "phone", platform: .ios, pushToken: "apns"))).ok

            _ = try await client.api().sendPasswordReset(body: .json(.init(email: "kept@example.com"))).ok
            let resetMail = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
            #expect(!resetMail.body.contains("Google"), "\(resetMail.body)")
            let code = try await AccountFlowTests.code(to: "kept@example.com", kind: "password_reset", in: server)
            _ = try await client.api().resetPassword(body: .json(.init(code: code, newPassword: "password-2"))).ok

            let again = try await client.signIn(email: "kept@example.com", password: "password-2").tokens.accessToken
            #expect(Set(try await Self.providerIds(client.api(again))) == ["password", "google.com"])
            #expect(try await Self.rows(server, "auth_devices", userId) == 1)
            let signIn = try await client.api().signInWithIdp(body: .json(.init(idToken: google, provider: .google_com))).ok
            #expect(try signIn.body.json.data.result == .existingUser)
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
    ) async throws -> (google: String, apple: Operations.SignInWithIdp.Input.Body.JsonPayload) {
        let api = client.api(token)
        try await server.database.sql.raw("UPDATE auth_users SET email_verified = 1 WHERE id = \(bind: userId)").run()
        let google = try await providers.token("google.com", sub: "g-attacker", email: "attacker@example.com", now: clock.now())
        _ = try await api.linkProvider(body: .json(.init(idToken: google, provider: .google_com))).ok
        let (apple, raw) = try await Self.attackersAppleToken(providers, clock)
        _ = try await api.linkProvider(
            body: .json(.init(authorizationCode: "code-attacker", idToken: apple, provider: .apple_com, rawNonce: raw))
        ).ok
        _ = try await api.registerDevice(body: .json(.init(deviceId: "attacker-phone", platform: .ios, pushToken: "apns-attacker"))).ok
        try await server.database.sql.raw("UPDATE auth_users SET email_verified = 0 WHERE id = \(bind: userId)").run()
        #expect(try await rows(server, "auth_apple_tokens", userId) == 1)
        #expect(try await rows(server, "auth_devices", userId) == 1)
        let again = "nonce-attacker-2"
        let appleAgain = try await providers.token(
            "apple.com", sub: "a-attacker", email: "relay@privaterelay.appleid.com", now: clock.now(),
            nonce: FakeIdentityProviders.nonceHash(again))
        return (google, .init(idToken: appleAgain, provider: .apple_com, rawNonce: again))
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
