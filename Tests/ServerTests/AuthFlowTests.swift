import Contracts
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
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
            func reset(_ index: Int, from address: String) async throws -> Reply {
                try await client.call(
                    "sendPasswordReset", ["email": "someone\(index)@example.com"], headers: [.xForwardedFor: "\(address)"])
            }
            // 20 an hour per address, whichever emails they name.
            for index in 0..<20 { #expect(try await reset(index, from: trusted ? "203.0.113.7" : "203.0.113.\(index)").status == .ok) }
            #expect(try await reset(20, from: "203.0.113.7").errorCode == "RATE_LIMITED")
            let another = try await reset(21, from: "198.51.100.4, 203.0.113.8")
            #expect(
                (another.status == .ok) == trusted, "another client behind the proxy is not limited; a forged header is no other client")
            if trusted {
                #expect(
                    try await reset(22, from: "198.51.100.4, 203.0.113.7").errorCode == "RATE_LIMITED",
                    "what the client wrote is not believed")
            }
        }
    }

    /// The issue's "done when": sign up, sign in, refresh, a replayed refresh token is refused (and ends the
    /// session) once the grace of its use is over, and getUser answers with the access token.
    @Test(arguments: TestDatabases.engines)
    func signUpSignInRefreshReplayAndGetUser(engine: SQLEngine) async throws {
        let clock = FakeWallClock(Date())
        try await TestServer.with(engine, clock: clock) { _, client in
            let signUp = try await client.call("signUp", ["email": "  Ada@Example.COM ", "password": "correct horse", "name": "Ada"])
            #expect(signUp.status == .ok)
            let user = try #require(signUp.data["user"] as? [String: Any])
            #expect(user["email"] as? String == "ada@example.com")
            #expect(user["original_provider"] as? String == "email")
            #expect(user["providers"] as? [String] == ["password"])
            let tokens = try #require(signUp.data["tokens"] as? [String: Any])
            #expect(tokens["token_type"] as? String == "Bearer")
            #expect((900...3600).contains(tokens["expires_in"] as? Int ?? 0))

            let signIn = try await client.call("signIn", ["email": "ADA@example.com", "password": "correct horse"])
            #expect(signIn.status == .ok)
            let firstRefresh = try #require(signIn.refreshToken)

            let refreshed = try await client.call("refreshToken", ["refresh_token": firstRefresh])
            #expect(refreshed.status == .ok)
            let secondRefresh = try #require(refreshed.refreshToken)
            let secondAccess = try #require(refreshed.accessToken)
            #expect(secondRefresh != firstRefresh)

            let profile = try await client.call("getUser", token: secondAccess)
            #expect(profile.status == .ok)
            #expect(profile.data["email"] as? String == "ada@example.com")
            #expect(profile.data["name"] as? String == "Ada")
            #expect(profile.data["provider"] as? String == "email")
            #expect(profile.data["week_starts_on_monday"] as? Bool == true)

            // Within the grace (30 s) the same token gets the same successor: an app that refreshed twice is not logged out.
            let again = try await client.call("refreshToken", ["refresh_token": firstRefresh])
            #expect(again.status == .ok && again.refreshToken == secondRefresh)
            clock.advance(by: 31)
            let replay = try await client.call("refreshToken", ["refresh_token": firstRefresh])
            #expect(replay.status == .unauthorized)
            #expect(replay.errorCode == "UNAUTHENTICATED")
            let afterReplay = try await client.call("refreshToken", ["refresh_token": secondRefresh])
            #expect(afterReplay.status == .unauthorized, "the replay revoked the whole family")
            let revokedAccess = try await client.call("getUser", token: secondAccess)
            #expect(revokedAccess.status == .unauthorized, "access tokens of the revoked session stop working")

            let signUpToken = try #require(signUp.accessToken)
            let signUpSession = try await client.call("getUser", token: signUpToken)
            #expect(signUpSession.status == .ok, "other sessions are untouched")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func getUserViaGETAndJWKSVerifyTheToken(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call("signUp", ["email": "g@example.com", "password": "secret1"])
            let token = try #require(signUp.accessToken)
            let response = try await client.get("/getUser", token: token)
            #expect(response.status == .ok)

            let jwks = try await client.get("/.well-known/jwks.json")
            let keys = try #require(
                (try JSONSerialization.jsonObject(with: Data(jwks.body.readableBytesView)) as? [String: Any])?["keys"] as? [[String: Any]])
            #expect(keys.count == 1)
            #expect(keys[0]["kty"] as? String == "EC")
            #expect(keys[0]["alg"] as? String == "ES256")
            let header = try #require(token.split(separator: ".").first)
            let padded = String(header).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                .padding(toLength: (header.count + 3) / 4 * 4, withPad: "=", startingAt: 0)
            let headerJSON = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: padded))) as? [String: Any]
            #expect(headerJSON?["kid"] as? String == keys[0]["kid"] as? String)
            #expect(headerJSON?["alg"] as? String == "ES256")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func wrongPasswordAndUnknownEmailLookTheSame(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            _ = try await client.call("signUp", ["email": "known@example.com", "password": "secret1"])
            let wrong = try await client.call("signIn", ["email": "known@example.com", "password": "nope-nope"])
            let unknown = try await client.call("signIn", ["email": "unknown@example.com", "password": "nope-nope"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.status == unknown.status)
            #expect(wrong.errorCode == "INVALID_CREDENTIAL")
            #expect(wrong.errorCode == unknown.errorCode)
            #expect(wrong.errorMessage == unknown.errorMessage)
            #expect(wrong.errorMessage == "The sign-in credentials are invalid. Please try again.")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func duplicateEmailIsRefusedAfterNormalising(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            _ = try await client.call("signUp", ["email": "dup@example.com", "password": "secret1"])
            let again = try await client.call("signUp", ["email": " DUP@Example.com", "password": "secret2"])
            #expect(again.status == .conflict)
            #expect(again.errorCode == "EMAIL_ALREADY_IN_USE")
            #expect(again.errorMessage == "This email is already in use by another account.")
            #expect(try await count(server, "auth_users") == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func weakPasswordUsesTheSeedsMessage(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let reply = try await client.call("signUp", ["email": "weak@example.com", "password": "12345"])
            #expect(reply.status == .badRequest)
            #expect(reply.errorCode == "WEAK_PASSWORD")
            #expect(reply.errorMessage == "Password must be at least 6 characters.")
            #expect(try await count(server, "auth_users") == 0)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func signOutEndsTheSession(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let first = try await client.call("signUp", ["email": "out@example.com", "password": "secret1"])
            let second = try await client.call("signIn", ["email": "out@example.com", "password": "secret1"])
            let firstAccess = try #require(first.accessToken)
            let secondAccess = try #require(second.accessToken)

            #expect(try await client.call("signOut", token: firstAccess).status == .ok)
            #expect(try await client.call("getUser", token: firstAccess).status == .unauthorized)
            #expect(try await client.call("refreshToken", ["refresh_token": try #require(first.refreshToken)]).status == .unauthorized)
            #expect(try await client.call("getUser", token: secondAccess).status == .ok)

            #expect(try await client.call("signOut", ["all_sessions": true], token: secondAccess).status == .ok)
            #expect(try await client.call("getUser", token: secondAccess).status == .unauthorized)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func updateUserWritesOnlyAllowedFields(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try #require(try await client.call("signUp", ["email": "upd@example.com", "password": "secret1"]).accessToken)
            let updated = try await client.call(
                "updateUser",
                [
                    "name": "Grace", "week_starts_on_monday": false, "time_zone": "Europe/Berlin", "weight_format": "pounds",
                    "userId": "someone-else",
                ],
                token: token)
            #expect(updated.status == .ok)
            #expect(updated.data["name"] as? String == "Grace")
            #expect(updated.data["week_starts_on_monday"] as? Bool == false)
            #expect(updated.data["time_zone"] as? String == "Europe/Berlin")
            #expect(updated.data["weight_format"] as? String == "pounds")

            let provider = try await client.call("updateUser", ["provider": "google.com", "name": "Mallory"], token: token)
            #expect(provider.status == .badRequest)
            #expect(provider.errorCode == "INVALID_ARGUMENT")
            #expect(provider.errorDetails?["field"] as? String == "provider")

            let badZone = try await client.call("updateUser", ["time_zone": "Mars/Olympus"], token: token)
            #expect(badZone.errorDetails?["field"] as? String == "time_zone")
            let badType = try await client.call("updateUser", ["week_starts_on_monday": "yes"], token: token)
            #expect(badType.errorDetails?["field"] as? String == "week_starts_on_monday")

            let after = try await client.call("getUser", token: token)
            #expect(after.data["name"] as? String == "Grace", "refused updates changed nothing")
            #expect(after.data["provider"] as? String == "email")
            #expect(after.data["time_zone"] as? String == "Europe/Berlin")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func accountAndDevices(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try #require(
                try await client.signUpVerified(["email": "acc@example.com", "password": "secret1"], server: server).accessToken)
            let account = try await client.call("getAccount", token: token)
            #expect(account.data["email"] as? String == "acc@example.com")
            #expect(account.data["original_provider"] as? String == "email")
            let providers = account.data["providers"] as? [[String: Any]]
            #expect(providers?.first?["provider_id"] as? String == "password")

            let device = ["device_id": "iphone-1", "platform": "ios", "push_token": "apns-1", "app_version": "1.2.3"]
            #expect(try await client.call("registerDevice", device, token: token).status == .ok)
            #expect(
                try await client.call("registerDevice", device.merging(["push_token": "apns-2"]) { _, new in new }, token: token).status
                    == .ok)
            #expect(try await count(server, "auth_devices") == 1)
            let badPlatform = try await client.call("registerDevice", ["device_id": "x", "platform": "palm"], token: token)
            #expect(badPlatform.errorDetails?["field"] as? String == "platform")
            // 128 characters, but 5,248 code points (10 KB): too long for the device's key on either engine.
            let stacked = try await client.call(
                "registerDevice", ["device_id": StackedMarks.text(letters: 128), "platform": "ios"], token: token)
            #expect(stacked.errorCode == "INVALID_ARGUMENT" && stacked.errorDetails?["field"] as? String == "device_id", "\(stacked.json)")
            #expect(try await count(server, "auth_devices") == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func serviceLaneActsForAnExistingUser(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call("signUp", ["email": "agent@example.com", "password": "secret1"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let key = HTTPField.Name("X-API-Key")!
            let user = HTTPField.Name("X-User-Id")!
            let ok = try await client.call("getUser", headers: [key: "test-service-key", user: userId])
            #expect(ok.status == .ok)
            #expect(ok.data["email"] as? String == "agent@example.com")
            let wrong = try await client.call("getUser", headers: [key: "not-the-key", user: userId])
            #expect(wrong.status == .unauthorized)
        }
    }

    /// The service lane (an agent acting for the user) cannot add a way in, take the account over or lock the
    /// user out: the account's sign-in methods, email, password, sessions and deletion answer PERMISSION_DENIED
    /// to it, and nothing changes.
    @Test(arguments: TestDatabases.engines)
    func serviceLaneCannotManageTheAccount(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let signUp = try await client.call("signUp", ["email": "owner@example.com", "password": "secret1"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let lane: HTTPFields = [HTTPField.Name("X-API-Key")!: "test-service-key", HTTPField.Name("X-User-Id")!: userId]
            let calls: [(String, [String: Any])] = [
                ("setPassword", ["password": "attacker-pw1"]),
                ("changePassword", ["current_password": "secret1", "new_password": "attacker-pw1"]),
                ("linkProvider", ["provider": "google.com", "id_token": "x"]),
                ("unlinkProvider", ["provider": "password"]),
                ("changeEmail", ["new_email": "attacker@example.com"]),
                ("reauthenticate", ["provider": "password", "password": "secret1"]),
                ("deleteAccount", [:]),
                ("signOut", ["all_sessions": true]),
                ("confirmAccountCreation", [:]),
                ("cancelAccountCreation", [:]),
            ]
            let sessionsBefore = try await count(server, "auth_sessions")
            let codesBefore = try await count(server, "auth_codes")  // the sign-up's email verification
            for (name, body) in calls {
                let reply = try await client.call(name, body, headers: lane)
                #expect(reply.status == .forbidden, "\(name): \(reply.json)")
                #expect(reply.errorCode == "PERMISSION_DENIED", "\(name)")
            }
            #expect(try await count(server, "auth_sessions") == sessionsBefore)
            #expect(try await count(server, "auth_codes") == codesBefore)
            let account = try await client.call("getAccount", headers: lane)
            #expect(account.data["email"] as? String == "owner@example.com")
            let signIn = try await client.call("signIn", ["email": "owner@example.com", "password": "secret1"])
            #expect(signIn.status == .ok, "the password is still the user's")
            let document = try await client.get("/openapi.json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(document.body.readableBytesView)) as? [String: Any])
            let paths = try #require(json["paths"] as? [String: Any])
            for (name, _) in calls {
                let operation = try #require((paths["/\(name)"] as? [String: Any])?["post"] as? [String: Any], "\(name)")
                let security = try #require(operation["security"] as? [[String: Any]], "\(name)")
                #expect(security.map { Array($0.keys) } == [["bearer"]], "\(name)")
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func signUpPublishesAccountCreatedThroughTheOutbox(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let signUp = try await client.call("signUp", ["email": "evt@example.com", "password": "secret1"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
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
            _ = try await client.call("signUp", ["email": "target@example.com", "password": "right-password"])
            for email in ["target@example.com", "nobody@example.com"] {
                for _ in 0..<10 {
                    let wrong = try await client.call("signIn", ["email": email, "password": "wrong-password"])
                    #expect(wrong.errorCode == "INVALID_CREDENTIAL")
                }
                let limited = try await client.call("signIn", ["email": email, "password": "right-password"])
                #expect(limited.status == .tooManyRequests)
                #expect(limited.errorCode == "RATE_LIMITED")
                #expect(limited.errorDetails?["retry_after_seconds"] != nil)
            }
            let other = try await client.call("signIn", ["email": "TARGET@example.com ", "password": "right-password"])
            #expect(other.errorCode == "RATE_LIMITED", "the limit follows the normalised email")
            clock.advance(by: 15 * 60)
            let later = try await client.call("signIn", ["email": "target@example.com", "password": "right-password"])
            #expect(later.status == .ok)
        }
    }
}

extension AuthFlowTests {
    /// A guesser's failures lock out no one but the guesser: after eleven wrong passwords from one address, the
    /// guesser's address is refused even with the right password; while the account is over its failure limit, a
    /// fresh address gets one try per 5-second back-off (the injected clock's), which a second guesser can take from
    /// the owner for those 5 seconds only; then the owner signs in from their own address.
    @Test(arguments: TestDatabases.engines)
    func aGuesserCannotLockTheOwnerOut(engine: SQLEngine) async throws {
        let clock = FakeWallClock(Date())
        let environment = ["POVVER_TRUSTED_PROXIES": "127.0.0.1/32, ::1"]
        try await TestServer.with(engine, environment: environment, clock: clock, live: true) { _, client in
            _ = try await client.call("signUp", ["email": "owner@example.com", "password": "right-password"])
            func signIn(_ password: String, from address: String) async throws -> Reply {
                try await client.call(
                    "signIn", ["email": "owner@example.com", "password": password], headers: [.xForwardedFor: address])
            }
            for attempt in 0..<11 {
                let guess = try await signIn("guess-\(attempt)", from: "203.0.113.7")
                #expect(guess.errorCode == (attempt < 10 ? "INVALID_CREDENTIAL" : "RATE_LIMITED"), "attempt \(attempt)")
            }
            #expect(try await signIn("right-password", from: "203.0.113.7").errorCode == "RATE_LIMITED", "the guesser's address")
            #expect(try await signIn("guess-11", from: "192.0.2.9").errorCode == "INVALID_CREDENTIAL", "a second guesser's one try")
            #expect(try await signIn("right-password", from: "198.51.100.4").errorCode == "RATE_LIMITED", "the back-off")
            clock.advance(by: 5)
            #expect(try await signIn("right-password", from: "198.51.100.4").status == .ok)
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
            _ = try await client.call("signUp", ["email": "owner@example.com", "password": "right-password"])
            func signIn(_ password: String, from address: String) async throws -> Reply {
                try await client.call(
                    "signIn", ["email": "owner@example.com", "password": password], headers: [.xForwardedFor: address])
            }
            for attempt in 0..<11 { _ = try await signIn("guess-\(attempt)", from: "203.0.113.7") }
            #expect(try await signIn("right-password", from: "198.51.100.4").status == .ok, "the owner's phone")
            let tablet = try await signIn("right-password", from: "198.51.100.5")
            #expect(tablet.status == .ok, "the owner's tablet, a second later: \(tablet.errorCode ?? "")")
            for attempt in 0..<11 {
                let guess = try await signIn("guess-again-\(attempt)", from: "203.0.113.7")
                #expect(guess.errorCode == (attempt < 10 ? "INVALID_CREDENTIAL" : "RATE_LIMITED"), "attempt \(attempt)")
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
