import Contracts
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime
import Platform
import PovverApp
import PovverClient
import SQLKit
import TestSupport
import Testing

@Suite struct AuthFlowTests {
    /// Per-address limits key on the socket's peer, unless it is a trusted proxy (`POVVER_TRUSTED_PROXIES`):
    /// then on the client its `X-Forwarded-For` names. Without the setting the header changes nothing, so a
    /// client cannot dodge a limit by writing one.
    @Test(arguments: [true, false])
    func addressLimitsFollowTrustedProxiesOnly(trusted: Bool) async throws {
        let environment = trusted ? ["POVVER_TRUSTED_PROXIES": "127.0.0.1/32, ::1"] : [:]
        try await TestServer.with(.sqlite, environment: environment, live: true) { _, client in
            func reset(_ index: Int, from address: String) async throws -> String {
                let api = client.api(headers: [.xForwardedFor: "\(address)"])
                return try await outcome { try await api.sendPasswordReset(body: .json(.init(email: "someone\(index)@example.com"))).ok }
            }
            // 20 an hour per address, whichever emails they name.
            for index in 0..<20 { #expect(try await reset(index, from: trusted ? "203.0.113.7" : "203.0.113.\(index)") == "OK") }
            #expect(try await reset(20, from: "203.0.113.7") == "RATE_LIMITED")
            let another = try await reset(21, from: "198.51.100.4, 203.0.113.8")
            #expect(
                (another == "OK") == trusted, "another client behind the proxy is not limited; a forged header is no other client")
            if trusted {
                #expect(try await reset(22, from: "198.51.100.4, 203.0.113.7") == "RATE_LIMITED", "what the client wrote is not believed")
            }
        }
    }

    /// The issue's "done when": sign up, sign in, refresh, a replayed refresh token is refused (and ends the
    /// session) once the grace of its use is over, and getUser answers with the access token.
    @Test(arguments: TestDatabases.engines)
    func signUpSignInRefreshReplayAndGetUser(engine: SQLEngine) async throws {
        let clock = FakeWallClock(Date())
        try await TestServer.with(engine, clock: clock) { _, client in
            let api = client.api()
            let signUp = try await client.signUp(email: "  Ada@Example.COM ", password: "correct horse", name: "Ada")
            #expect(signUp.user.email == "ada@example.com")
            #expect(signUp.user.originalProvider == .email)
            #expect(signUp.user.providers == [.password])
            #expect(signUp.tokens.tokenType == .bearer)
            #expect((900...3600).contains(signUp.tokens.expiresIn))

            let signIn = try await client.signIn(email: "ADA@example.com", password: "correct horse")
            let firstRefresh = try #require(signIn.tokens.refreshToken)

            let refreshed = try await api.refreshToken(body: .json(.init(refreshToken: firstRefresh))).ok.body.json.data.tokens
            let secondRefresh = try #require(refreshed.refreshToken)
            let secondAccess = refreshed.accessToken
            #expect(secondRefresh != firstRefresh)

            let profile = try await client.api(secondAccess).getUser().ok.body.json.data
            #expect(profile.email == "ada@example.com")
            #expect(profile.name == "Ada")
            #expect(profile.provider == .email)
            #expect(profile.weekStartsOnMonday == true)

            // Within the grace (30 s) the same token gets the same successor: an app that refreshed twice is not logged out.
            let again = try await api.refreshToken(body: .json(.init(refreshToken: firstRefresh))).ok.body.json.data.tokens
            #expect(again.refreshToken == secondRefresh)
            clock.advance(by: 31)
            let replay = try #require(await refused { try await api.refreshToken(body: .json(.init(refreshToken: firstRefresh))) })
            #expect(replay.status == 401)
            #expect(replay.code == "UNAUTHENTICATED")
            let afterReplay = try #require(await refused { try await api.refreshToken(body: .json(.init(refreshToken: secondRefresh))) })
            #expect(afterReplay.status == 401, "the replay revoked the whole family")
            let revokedAccess = try #require(await refused { try await client.api(secondAccess).getUser() })
            #expect(revokedAccess.status == 401, "access tokens of the revoked session stop working")

            _ = try await client.api(signUp.tokens.accessToken).getUser().ok  // other sessions are untouched
        }
    }

    @Test(arguments: TestDatabases.engines)
    func getUserViaGETAndJWKSVerifyTheToken(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.signUp(email: "g@example.com", password: "secret1").tokens.accessToken
            // GET is no operation of the document (it declares POST); the server answers it too.
            let response = try await client.get("/getUser", token: token)
            #expect(response.status == .ok)

            let keys = try await client.api().jwks_json().ok.body.json.keys
            #expect(keys.count == 1)
            let key = try #require(keys.first).value
            #expect(key["kty"] as? String == "EC")
            #expect(key["alg"] as? String == "ES256")
            let header = try #require(token.split(separator: ".").first)
            let padded = String(header).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                .padding(toLength: (header.count + 3) / 4 * 4, withPad: "=", startingAt: 0)
            let headerJSON = try JSONDecoder().decode([String: String].self, from: try #require(Data(base64Encoded: padded)))
            #expect(headerJSON["kid"] == key["kid"] as? String)
            #expect(headerJSON["alg"] == "ES256")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func wrongPasswordAndUnknownEmailLookTheSame(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api()
            _ = try await client.signUp(email: "known@example.com", password: "secret1")
            let wrong = try #require(
                await refused { try await api.signIn(body: .json(.init(email: "known@example.com", password: "nope-nope"))) })
            let unknown = try #require(
                await refused { try await api.signIn(body: .json(.init(email: "unknown@example.com", password: "nope-nope"))) })
            #expect(wrong.status == 401)
            #expect(wrong.status == unknown.status)
            #expect(wrong.code == "INVALID_CREDENTIAL")
            #expect(wrong.code == unknown.code)
            #expect(wrong.message == unknown.message)
            #expect(wrong.message == "The sign-in credentials are invalid. Please try again.")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func duplicateEmailIsRefusedAfterNormalising(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            _ = try await client.signUp(email: "dup@example.com", password: "secret1")
            let again = try #require(
                await refused { try await client.api().signUp(body: .json(.init(email: " DUP@Example.com", password: "secret2"))) })
            #expect(again.status == 409)
            #expect(again.code == "EMAIL_ALREADY_IN_USE")
            #expect(again.message == "This email is already in use by another account.")
            #expect(try await count(server, "auth_users") == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func weakPasswordUsesTheSeedsMessage(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let reply = try #require(
                await refused { try await client.api().signUp(body: .json(.init(email: "weak@example.com", password: "12345"))) })
            #expect(reply.status == 400)
            #expect(reply.code == "WEAK_PASSWORD")
            #expect(reply.message == "Password must be at least 6 characters.")
            #expect(try await count(server, "auth_users") == 0)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func signOutEndsTheSession(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let first = try await client.signUp(email: "out@example.com", password: "secret1").tokens
            let second = try await client.signIn(email: "out@example.com", password: "secret1").tokens
            let firstRefresh = try #require(first.refreshToken)

            _ = try await client.api(first.accessToken).signOut().ok
            #expect(try #require(await refused { try await client.api(first.accessToken).getUser() }).status == 401)
            #expect(
                try #require(await refused { try await client.api().refreshToken(body: .json(.init(refreshToken: firstRefresh))) }).status
                    == 401)
            _ = try await client.api(second.accessToken).getUser().ok

            _ = try await client.api(second.accessToken).signOut(body: .json(.init(allSessions: true))).ok
            #expect(try #require(await refused { try await client.api(second.accessToken).getUser() }).status == 401)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func updateUserWritesOnlyAllowedFields(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.signUp(email: "upd@example.com", password: "secret1").tokens.accessToken
            let api = client.api(token)
            // `userId` is a legacy name the document declares and the server ignores: the token names the user.
            let updated = try await api.updateUser(
                body: .json(
                    .init(
                        name: "Grace", timeZone: .europeBerlin, legacyUserId: try .init(unvalidatedValue: "someone-else"),
                        weekStartsOnMonday: false, weightFormat: .pounds))
            ).ok.body.json.data
            #expect(updated.name == "Grace")
            #expect(updated.weekStartsOnMonday == false)
            #expect(updated.timeZone == "Europe/Berlin")
            #expect(updated.weightFormat == .pounds)

            // Bodies outside the document, which the client cannot write: an undeclared field, a zone that is no
            // zone, a string for a boolean.
            let provider = try await client.send("updateUser", ["provider": "google.com", "name": "Mallory"], token: token)
            #expect(provider.status == .badRequest)
            #expect(provider.code == "INVALID_ARGUMENT")
            #expect(provider.body["error"]?["details"]?["field"] == "provider")

            let badZone = try await client.send("updateUser", ["time_zone": "Mars/Olympus"], token: token)
            #expect(badZone.body["error"]?["details"]?["field"] == "time_zone")
            let badType = try await client.send("updateUser", ["week_starts_on_monday": "yes"], token: token)
            #expect(badType.body["error"]?["details"]?["field"] == "week_starts_on_monday")

            let after = try await api.getUser().ok.body.json.data
            #expect(after.name == "Grace", "refused updates changed nothing")
            #expect(after.provider == .email)
            #expect(after.timeZone == "Europe/Berlin")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func accountAndDevices(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.signUpVerified(email: "acc@example.com", password: "secret1", server: server).tokens.accessToken
            let api = client.api(token)
            let account = try await api.getAccount().ok.body.json.data
            #expect(account.email == "acc@example.com")
            #expect(account.originalProvider == "email")
            #expect(account.providers.first?.providerId == "password")

            var device = Operations.RegisterDevice.Input.Body.JsonPayload(
                appVersion: "1.2.3", deviceId: "iphone-1", platform: .ios, pushToken: "apns-1")
            _ = try await api.registerDevice(body: .json(device)).ok
            device.pushToken = "apns-2"
            _ = try await api.registerDevice(body: .json(device)).ok
            #expect(try await count(server, "auth_devices") == 1)
            // A platform the document does not list, which the client cannot write.
            let badPlatform = try await client.send("registerDevice", ["device_id": "x", "platform": "palm"], token: token)
            #expect(badPlatform.body["error"]?["details"]?["field"] == "platform")
            // 128 characters, but 5,248 code points (10 KB): too long for the device's key on either engine.
            let stacked = try #require(
                await refused {
                    try await api.registerDevice(body: .json(.init(deviceId: StackedMarks.text(letters: 128), platform: .ios)))
                })
            #expect(stacked.code == "INVALID_ARGUMENT" && stacked.details["field"] == "device_id", "\(stacked)")
            #expect(try await count(server, "auth_devices") == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func serviceLaneActsForAnExistingUser(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let userId = try await client.signUp(email: "agent@example.com", password: "secret1").user.id
            let key = HTTPField.Name("X-API-Key")!
            let user = HTTPField.Name("X-User-Id")!
            let ok = try await client.api(headers: [key: "test-service-key", user: userId]).getUser().ok.body.json.data
            #expect(ok.email == "agent@example.com")
            let wrong = try #require(await refused { try await client.api(headers: [key: "not-the-key", user: userId]).getUser() })
            #expect(wrong.status == 401)
        }
    }

    /// The service lane (an agent acting for the user) cannot add a way in, take the account over or lock the
    /// user out: the account's sign-in methods, email, password, sessions and deletion answer PERMISSION_DENIED
    /// to it, and nothing changes.
    @Test(arguments: TestDatabases.engines)
    func serviceLaneCannotManageTheAccount(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let userId = try await client.signUp(email: "owner@example.com", password: "secret1").user.id
            let lane = client.api(headers: serviceLane(userId))
            let calls: [(String, @Sendable () async throws -> Refusal?)] = [
                ("setPassword", { try await refused { try await lane.setPassword(body: .json(.init(password: "attacker-pw1"))) } }),
                (
                    "changePassword",
                    {
                        try await refused {
                            try await lane.changePassword(body: .json(.init(currentPassword: "secret1", newPassword: "attacker-pw1")))
                        }
                    }
                ),
                (
                    "linkProvider",
                    { try await refused { try await lane.linkProvider(body: .json(.init(idToken: "x", provider: .google_com))) } }
                ),
                ("unlinkProvider", { try await refused { try await lane.unlinkProvider(body: .json(.init(provider: .password))) } }),
                ("changeEmail", { try await refused { try await lane.changeEmail(body: .json(.init(newEmail: "attacker@example.com"))) } }),
                (
                    "reauthenticate",
                    { try await refused { try await lane.reauthenticate(body: .json(.init(password: "secret1", provider: .password))) } }
                ),
                ("deleteAccount", { try await refused { try await lane.deleteAccount(body: .json(.init())) } }),
                ("signOut", { try await refused { try await lane.signOut(body: .json(.init(allSessions: true))) } }),
                ("confirmAccountCreation", { try await refused { try await lane.confirmAccountCreation(body: .json(.init())) } }),
                ("cancelAccountCreation", { try await refused { try await lane.cancelAccountCreation(body: .json(.init())) } }),
            ]
            let sessionsBefore = try await count(server, "auth_sessions")
            let codesBefore = try await count(server, "auth_codes")  // the sign-up's email verification
            for (name, call) in calls {
                let refusal = try #require(try await call(), "\(name)")
                #expect(refusal.status == 403, "\(name): \(refusal)")
                #expect(refusal.code == "PERMISSION_DENIED", "\(name)")
            }
            #expect(try await count(server, "auth_sessions") == sessionsBefore)
            #expect(try await count(server, "auth_codes") == codesBefore)
            #expect(try await lane.getAccount().ok.body.json.data.email == "owner@example.com")
            _ = try await client.signIn(email: "owner@example.com", password: "secret1")  // the password is still the user's
            let paths = try await OperationsTests.document(client)["paths"]
            for (name, _) in calls {
                let security = try #require(paths?["/\(name)"]?["post"]?["security"]?.arrayValue, "\(name)")
                #expect(security.map { OperationsTests.members($0).keys.sorted() } == [["bearer"]], "\(name)")
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func signUpPublishesAccountCreatedThroughTheOutbox(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let userId = try await client.signUp(email: "evt@example.com", password: "secret1").user.id
            let row = try await server.database.sql.raw(
                "SELECT type, payload FROM platform_outbox WHERE id = \(bind: "account-created:\(userId)")"
            ).first()
            #expect(try row?.decode(column: "type", as: String.self) == AccountCreated.eventType)
        }
    }
}

extension AuthFlowTests {
    /// Brute force stops after ten failures per account; an unknown email is limited the same way, so the
    /// limit reveals nothing; the window passes and the right password works again.
    @Test(arguments: TestDatabases.engines)
    func signInAttemptsAreRateLimitedPerAccount(engine: SQLEngine) async throws {
        let clock = FakeWallClock(Date())
        try await TestServer.with(engine, clock: clock) { _, client in
            let api = client.api()
            func signIn(_ email: String, _ password: String) async throws -> Refusal? {
                try await refused { try await api.signIn(body: .json(.init(email: email, password: password))) }
            }
            _ = try await client.signUp(email: "target@example.com", password: "right-password")
            for email in ["target@example.com", "nobody@example.com"] {
                for _ in 0..<10 {
                    #expect(try await signIn(email, "wrong-password")?.code == "INVALID_CREDENTIAL")
                }
                let limited = try #require(try await signIn(email, "right-password"))
                #expect(limited.status == 429)
                #expect(limited.code == "RATE_LIMITED")
                #expect(limited.details["retry_after_seconds"] != nil)
            }
            #expect(
                try await signIn("TARGET@example.com ", "right-password")?.code == "RATE_LIMITED", "the limit follows the normalised email")
            clock.advance(by: 15 * 60)
            _ = try await client.signIn(email: "target@example.com", password: "right-password")
        }
    }
}

extension AuthFlowTests {
    /// How a sign-in of the owner's account from `address` (the trusted proxy's `X-Forwarded-For`) was answered: "OK" or
    /// the refusal's code.
    static func signIn(_ client: any TestClientProtocol, _ password: String, from address: String) async throws -> String {
        let api = client.api(headers: [.xForwardedFor: address])
        return try await outcome { try await api.signIn(body: .json(.init(email: "owner@example.com", password: password))).ok }
    }

    /// A guesser's failures lock out no one but the guesser: after eleven wrong passwords from one address, the
    /// guesser's address is refused even with the right password; while the account is over its failure limit, a
    /// fresh address gets one try per 5-second back-off (the injected clock's), which a second guesser can take from
    /// the owner for those 5 seconds only; then the owner signs in from their own address.
    @Test(arguments: TestDatabases.engines)
    func aGuesserCannotLockTheOwnerOut(engine: SQLEngine) async throws {
        let clock = FakeWallClock(Date())
        let environment = ["POVVER_TRUSTED_PROXIES": "127.0.0.1/32, ::1"]
        try await TestServer.with(engine, environment: environment, clock: clock, live: true) { _, client in
            _ = try await client.signUp(email: "owner@example.com", password: "right-password")
            for attempt in 0..<11 {
                let guess = try await Self.signIn(client, "guess-\(attempt)", from: "203.0.113.7")
                #expect(guess == (attempt < 10 ? "INVALID_CREDENTIAL" : "RATE_LIMITED"), "attempt \(attempt)")
            }
            #expect(try await Self.signIn(client, "right-password", from: "203.0.113.7") == "RATE_LIMITED", "the guesser's address")
            #expect(try await Self.signIn(client, "guess-11", from: "192.0.2.9") == "INVALID_CREDENTIAL", "a second guesser's one try")
            #expect(try await Self.signIn(client, "right-password", from: "198.51.100.4") == "RATE_LIMITED", "the back-off")
            clock.advance(by: 5)
            #expect(try await Self.signIn(client, "right-password", from: "198.51.100.4") == "OK")
        }
    }
}

extension AuthFlowTests {
    /// Signing in clears the account's failures: the owner, signed in after a guesser's eleven failures, signs in on
    /// a second device at once instead of being held to the locked account's 5-second back-off (it used to be
    /// answered 429). The guesser starts over from nothing, and is limited again after ten more failures.
    @Test(arguments: TestDatabases.engines)
    func aSuccessfulSignInClearsTheAccountsFailures(engine: SQLEngine) async throws {
        let clock = FakeWallClock(Date())
        let environment = ["POVVER_TRUSTED_PROXIES": "127.0.0.1/32, ::1"]
        try await TestServer.with(engine, environment: environment, clock: clock, live: true) { _, client in
            _ = try await client.signUp(email: "owner@example.com", password: "right-password")
            for attempt in 0..<11 { _ = try await Self.signIn(client, "guess-\(attempt)", from: "203.0.113.7") }
            #expect(try await Self.signIn(client, "right-password", from: "198.51.100.4") == "OK", "the owner's phone")
            let tablet = try await Self.signIn(client, "right-password", from: "198.51.100.5")
            #expect(tablet == "OK", "the owner's tablet, a second later: \(tablet)")
            for attempt in 0..<11 {
                let guess = try await Self.signIn(client, "guess-again-\(attempt)", from: "203.0.113.7")
                #expect(guess == (attempt < 10 ? "INVALID_CREDENTIAL" : "RATE_LIMITED"), "attempt \(attempt)")
            }
        }
    }
}

func count(_ server: PovverServer, _ table: String) async throws -> Int {
    try await server.database.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first(decodingColumn: "n", as: Int.self) ?? -1
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
