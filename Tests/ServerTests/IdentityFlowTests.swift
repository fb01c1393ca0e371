import Crypto
import Fakes
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JWTKit
import NIOCore
import Platform
import PovverApp
import Synchronization
import TestSupport
import Testing

/// Google and Apple played by a local key set: an ES256 key per provider, published as a JWKS over HTTP.
final class FakeIdentityProviders: Sendable {
    struct Claims: JWTPayload {
        var iss: String
        var aud: String
        var exp: Int
        var iat: Int
        var sub: String
        var email: String?
        var email_verified: String?
        var nonce: String?
        var name: String?

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    let googleKey = P256.Signing.PrivateKey()
    let appleKey = P256.Signing.PrivateKey()
    /// The team key Povver signs Apple client secrets with (Apple's `.p8`).
    let appleTeamKey = P256.Signing.PrivateKey()
    /// What the fake Apple token endpoints saw: codes exchanged and refresh tokens revoked.
    let appleCalls = Mutex<(exchanged: [String], revoked: [String], badSecrets: Int)>(([], [], 0))
    /// A key nobody publishes: tokens signed with it must fail.
    let strangerKey = P256.Signing.PrivateKey()

    static func jwk(_ key: P256.Signing.PrivateKey, kid: String) -> [String: String] {
        let raw = key.publicKey.rawRepresentation
        return [
            "kty": "EC", "crv": "P-256", "alg": "ES256", "use": "sig", "kid": kid,
            "x": base64URL(raw.prefix(32)), "y": base64URL(raw.suffix(32)),
        ]
    }

    static func base64URL(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    var router: Router<BasicRequestContext> {
        let router = Router()
        let google = try! JSONSerialization.data(withJSONObject: ["keys": [Self.jwk(googleKey, kid: "g1")]])
        let apple = try! JSONSerialization.data(withJSONObject: ["keys": [Self.jwk(appleKey, kid: "a1")]])
        router.get("google/jwks") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: google)))
        }
        router.get("apple/jwks") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: apple)))
        }
        // Apple's /auth/token and /auth/revoke: the client secret must be an ES256 JWT of the team key.
        router.post("apple/auth/token") { request, _ in
            let form = try await Self.form(request)
            guard try await self.validSecret(form), form["grant_type"] == "authorization_code", let code = form["code"],
                code.hasPrefix("code-")
            else { return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: #"{"error":"invalid_grant"}"#))) }
            self.appleCalls.withLock { $0.exchanged.append(code) }
            let body = #"{"access_token":"at","token_type":"Bearer","expires_in":3600,"refresh_token":"apple-rt-\#(code)","id_token":"x"}"#
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        router.post("apple/auth/revoke") { request, _ in
            let form = try await Self.form(request)
            guard try await self.validSecret(form), let token = form["token"] else { return Response(status: .badRequest) }
            self.appleCalls.withLock { $0.revoked.append(token) }
            return Response(status: .ok)
        }
        return router
    }

    func token(
        _ provider: String, sub: String, email: String?, now: Date, nonce: String? = nil, name: String? = nil,
        iss: String? = nil, aud: String? = nil, lifetime: TimeInterval = 3600, key: P256.Signing.PrivateKey? = nil, kid: String? = nil,
        emailVerified: String = "true"
    ) async throws -> String {
        let isGoogle = provider == "google.com"
        let claims = Claims(
            iss: iss ?? (isGoogle ? "https://accounts.google.com" : "https://appleid.apple.com"),
            aud: aud ?? (isGoogle ? "google-client" : "apple-client"),
            exp: Int(now.timeIntervalSince1970 + lifetime), iat: Int(now.timeIntervalSince1970 - 5), sub: sub, email: email,
            email_verified: emailVerified,
            nonce: nonce, name: name)
        let keys = JWTKeyCollection()
        let signingKey = key ?? (isGoogle ? googleKey : appleKey)
        let keyID = kid ?? (isGoogle ? "g1" : "a1")
        await keys.add(ecdsa: try ES256PrivateKey(backing: signingKey), kid: JWKIdentifier(string: keyID))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }

    /// A token with a chosen header, signed (or not) by hand: `alg: none`, or HS256 keyed with the public key.
    func forged(alg: String, claims: Claims, kid: String) throws -> String {
        let header = Self.base64URL(try JSONSerialization.data(withJSONObject: ["alg": alg, "kid": kid, "typ": "JWT"]))
        let payload = Self.base64URL(try JSONEncoder().encode(claims))
        let input = "\(header).\(payload)"
        switch alg {
        case "none": return input + "."
        default:
            let secret = SymmetricKey(data: Data(googleKey.publicKey.pemRepresentation.utf8))
            return input + "." + Self.base64URL(Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)))
        }
    }

    static func form(_ request: Request) async throws -> [String: String] {
        let text = String(buffer: try await request.body.collect(upTo: 65536))
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    struct SecretClaims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var iat: Int
        var exp: Int

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    func validSecret(_ form: [String: String]) async throws -> Bool {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PublicKey(backing: appleTeamKey.publicKey), kid: JWKIdentifier(string: "KEY123"))
        guard let secret = form["client_secret"], let claims = try? await keys.verify(secret, as: SecretClaims.self),
            claims.iss == "TEAM123", claims.sub == form["client_id"], form["client_id"] == "apple-client",
            claims.aud == "https://appleid.apple.com", claims.exp > claims.iat, claims.exp - claims.iat <= 15_777_000
        else {
            appleCalls.withLock { $0.badSecrets += 1 }
            return false
        }
        return true
    }

    static func nonceHash(_ raw: String) -> String {
        SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// The server, its identity settings pointing at the fake providers served on a live local port.
    func withServer(
        _ engine: SQLEngine, clock: FakeWallClock,
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        try await withFullServer(engine, clock: clock) { _, client in try await body(client) }
    }

    /// The same, with the server (its worker, outbox and database) at hand, and Apple's client secret set up.
    func withFullServer(
        _ engine: SQLEngine, clock: FakeWallClock, environment extra: [String: String] = [:],
        _ body: @escaping @Sendable (PovverServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("apple-\(UUID().uuidString).p8").path
        try appleTeamKey.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { live in
            let base = "http://127.0.0.1:\(live.port!)"
            try await TestServer.with(
                engine,
                environment: [
                    "POVVER_GOOGLE_CLIENT_IDS": "google-client,other-google-client", "POVVER_GOOGLE_JWKS_URL": "\(base)/google/jwks",
                    "POVVER_APPLE_CLIENT_IDS": "apple-client", "POVVER_APPLE_JWKS_URL": "\(base)/apple/jwks",
                    "POVVER_RECENT_LOGIN_SECONDS": "300", "POVVER_APPLE_AUTH_BASE_URL": "\(base)/apple", "POVVER_APPLE_TEAM_ID": "TEAM123",
                    "POVVER_APPLE_KEY_ID": "KEY123", "POVVER_APPLE_PRIVATE_KEY_FILE": keyFile,
                ].merging(extra) { _, new in new }, clock: clock
            ) { server, client in try await body(server, client) }
        }
    }
}

@Suite struct IdentityFlowTests {
    let providers = FakeIdentityProviders()

    /// The checklist's phase 3 (docs/product.md): new Google user → confirmation → profile with provider google.com; signing in again
    /// goes straight in; before confirming, nothing but confirm/cancel/sign-out works.
    @Test(arguments: TestDatabases.engines)
    func googleNewUserConfirmsThenSignsInDirectly(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            let idToken = try await providers.token("google.com", sub: "g-123", email: "Ann@Example.com", now: clock.now(), name: "Ann")
            let first = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": idToken])
            #expect(first.status == .ok)
            #expect(first.data["result"] as? String == "new_user")
            #expect((first.data["pending"] as? [String: Any])?["email"] as? String == "ann@example.com")
            let pendingToken = try #require(first.accessToken)

            let blocked = try await client.call("getUser", token: pendingToken)
            #expect(blocked.errorCode == "ACCOUNT_NOT_CONFIRMED")
            #expect(blocked.errorMessage == "Please confirm your account creation to continue.")

            // The confirmation screen may stay open past the access token's life: a pending session refreshes (and
            // its new token is still only good for confirming, cancelling or signing out).
            clock.advance(by: 3600)
            #expect(try await client.call("confirmAccountCreation", token: pendingToken).errorCode == "UNAUTHENTICATED")
            let refreshed = try await client.call("refreshToken", ["refresh_token": try #require(first.refreshToken)])
            #expect(refreshed.status == .ok)
            let renewedToken = try #require(refreshed.accessToken)
            #expect(try await client.call("getUser", token: renewedToken).errorCode == "ACCOUNT_NOT_CONFIRMED")

            let confirmed = try await client.call("confirmAccountCreation", token: renewedToken)
            #expect(confirmed.status == .ok)
            #expect((confirmed.data["user"] as? [String: Any])?["original_provider"] as? String == "google.com")
            let profile = try await client.call("getUser", token: renewedToken)
            #expect(profile.data["provider"] as? String == "google.com")
            #expect(profile.data["name"] as? String == "Ann")

            let again = try await client.call(
                "signInWithIdp",
                [
                    "provider": "google.com",
                    "id_token": try await providers.token("google.com", sub: "g-123", email: "ann@example.com", now: clock.now()),
                ])
            #expect(again.data["result"] as? String == "existing_user")
            #expect(again.data["pending"] == nil)
        }
    }

    /// First sign-ins of one identity at the same moment (a double tap, a retry of a slow request) all sign in
    /// to one new account. On PostgreSQL the later ones found the address taken by the account being created and
    /// were refused as a different credential.
    @Test(arguments: TestDatabases.engines)
    func simultaneousFirstSignInsShareOneAccount(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            for round in 0..<5 {
                let idToken = try await providers.token(
                    "google.com", sub: "g-twice-\(round)", email: "twice\(round)@example.com", now: clock.now())
                let replies = try await withThrowingTaskGroup(of: (Int, String?, String).self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let reply = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": idToken])
                            let user = (reply.data["user"] as? [String: Any])?["id"] as? String
                            return (
                                Int(reply.status.code), user,
                                String(decoding: try JSONSerialization.data(withJSONObject: reply.json), as: UTF8.self)
                            )
                        }
                    }
                    var replies: [(Int, String?, String)] = []
                    for try await reply in group { replies.append(reply) }
                    return replies
                }
                #expect(replies.allSatisfy { $0.0 == 200 }, "round \(round): \(replies.map(\.2))")
                #expect(Set(replies.map(\.1)).count == 1 && replies[0].1 != nil, "round \(round): one account, \(replies.map(\.2))")
            }
        }
    }

    /// Cancelling removes the identity: its token stops working and the next sign-in is new again.
    @Test func cancelRemovesTheUnconfirmedIdentity() async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(.sqlite, clock: clock) { client in
            let idToken = try await providers.token("google.com", sub: "g-9", email: "cancel@example.com", now: clock.now())
            let first = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": idToken])
            let token = try #require(first.accessToken)
            #expect(try await client.call("cancelAccountCreation", token: token).status == .ok)
            #expect(try await client.call("getAccount", token: token).errorCode == "UNAUTHENTICATED")
            let second = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": idToken])
            #expect(second.data["result"] as? String == "new_user")
            #expect(
                second.data["user"].flatMap { ($0 as? [String: Any])?["id"] as? String }
                    != first.data["user"].flatMap { ($0 as? [String: Any])?["id"] as? String })
        }
    }

    /// No automatic linking (docs/product.md): an email user signing in with Google on the same address gets the friendly
    /// collision message, and nothing is created or linked.
    @Test(arguments: TestDatabases.engines)
    func collisionIsRefusedWithTheSeedsMessage(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            let signUp = try await client.call("signUp", ["email": "bob@example.com", "password": "password-1"])
            let token = try #require(signUp.accessToken)
            let idToken = try await providers.token("google.com", sub: "g-bob", email: "BOB@example.com", now: clock.now())
            let collision = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": idToken])
            #expect(collision.status.code == 409)
            #expect(collision.errorCode == "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL")
            #expect(
                collision.errorMessage
                    == "An account with this email already exists. Please sign in with your original method, then link this provider in Settings."
            )
            let account = try await client.call("getAccount", token: token)
            #expect((account.data["providers"] as? [[String: Any]])?.compactMap { $0["provider_id"] as? String } == ["password"])
        }
    }

    /// An email address the provider has not verified claims nothing: the sign-in is refused and no account
    /// holds the address, so its owner can still sign up with it.
    @Test(arguments: TestDatabases.engines)
    func anUnverifiedProviderEmailCreatesNoAccount(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let unverified = try await providers.token(
                "google.com", sub: "g-impostor", email: "victim@example.com", now: clock.now(), emailVerified: "false")
            let refused = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": unverified])
            #expect(refused.errorCode == "INVALID_CREDENTIAL", "\(refused.json)")
            #expect(refused.errorDetails?["reason"] as? String == "the provider has not verified the email address")
            let owner = try await client.signUpVerified(["email": "victim@example.com", "password": "password-1"], server: server)
            #expect(owner.status == .ok, "\(owner.json)")
            // Linked by its owner to a signed-in account, the same Google account is fine: it claims no address.
            let token = try #require(owner.accessToken)
            let linked = try await client.call("linkProvider", ["provider": "google.com", "id_token": unverified], token: token)
            #expect(Set(linked.data["providers"] as? [String] ?? []) == ["password", "google.com"], "\(linked.json)")
        }
    }

    /// Linking, the provider owned by someone else, linking twice, unlinking (never the last), the recent-login
    /// window and re-authentication.
    @Test(arguments: TestDatabases.engines)
    func linkUnlinkAndRecentLogin(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let carol = try #require(
                try await client.signUpVerified(["email": "carol@example.com", "password": "password-1"], server: server).accessToken)
            let dave = try #require(
                try await client.signUpVerified(["email": "dave@example.com", "password": "password-2"], server: server).accessToken)
            let google = { try await providers.token("google.com", sub: "g-carol", email: "carol.g@example.com", now: clock.now()) }
            clock.advance(by: 1)

            let linked = try await client.call("linkProvider", ["provider": "google.com", "id_token": try await google()], token: carol)
            #expect(linked.data["providers"] as? [String] == ["password", "google.com"])
            let taken = try await client.call("linkProvider", ["provider": "google.com", "id_token": try await google()], token: dave)
            #expect(taken.errorCode == "CREDENTIAL_ALREADY_IN_USE")
            #expect(taken.errorMessage == "This Google account is already linked to a different Povver account.")
            #expect(
                try await client.call("linkProvider", ["provider": "google.com", "id_token": try await google()], token: carol).errorCode
                    == "PROVIDER_ALREADY_LINKED")
            // Carol can now sign in with Google directly.
            let viaGoogle = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": try await google()])
            #expect(viaGoogle.data["result"] as? String == "existing_user")

            #expect(try await client.call("unlinkProvider", ["provider": "apple.com"], token: carol).errorCode == "NO_SUCH_PROVIDER")
            let unlinked = try await client.call("unlinkProvider", ["provider": "google.com"], token: carol)
            #expect(unlinked.data["providers"] as? [String] == ["password"])
            let last = try await client.call("unlinkProvider", ["provider": "password"], token: carol)
            #expect(last.errorCode == "LAST_SIGN_IN_METHOD")

            clock.advance(by: 301)
            let stale = try await client.call(
                "changePassword", ["current_password": "password-1", "new_password": "password-9"], token: carol)
            #expect(stale.errorCode == "REQUIRES_RECENT_LOGIN")
            // Adding a way in needs a recent login too: a stolen token cannot leave a lasting credential behind.
            let staleLink = try await client.call("linkProvider", ["provider": "google.com", "id_token": try await google()], token: carol)
            #expect(staleLink.errorCode == "REQUIRES_RECENT_LOGIN")
            #expect(stale.errorMessage == "For your security, please sign in again to continue.")
            let wrong = try await client.call("reauthenticate", ["provider": "password", "password": "nope-nope"], token: carol)
            #expect(wrong.errorCode == "WRONG_PASSWORD")
            #expect(wrong.errorMessage == "Incorrect password. Please try again.")
            let fresh = try #require(
                try await client.call("reauthenticate", ["provider": "password", "password": "password-1"], token: carol).accessToken)
            #expect(try await client.call("getAccount", token: carol).errorCode == "UNAUTHENTICATED")  // the old session ended
            let changed = try await client.call(
                "changePassword", ["current_password": "password-1", "new_password": "password-9"], token: fresh)
            #expect(changed.status == .ok)
            #expect(try await client.call("signIn", ["email": "carol@example.com", "password": "password-9"]).status == .ok)
            #expect(
                try await client.call("signIn", ["email": "carol@example.com", "password": "password-1"]).errorCode == "INVALID_CREDENTIAL")
        }
    }

    /// Two devices unlinking the account's two sign-in methods at the same moment: one wins, the other is
    /// `LAST_SIGN_IN_METHOD`, and the account always keeps a way in.
    @Test(arguments: TestDatabases.engines)
    func concurrentUnlinksNeverRemoveTheLastMethod(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let token = try #require(
                try await client.signUpVerified(["email": "gus@example.com", "password": "password-1"], server: server).accessToken)
            let google = try await providers.token("google.com", sub: "g-gus", email: "gus.g@example.com", now: clock.now())
            for round in 0..<8 {
                let account = try await client.call("getAccount", token: token)
                let linked = Set(((account.data["providers"] as? [[String: Any]]) ?? []).compactMap { $0["provider_id"] as? String })
                if !linked.contains("google.com") {
                    let relinked = try await client.call("linkProvider", ["provider": "google.com", "id_token": google], token: token)
                    #expect(relinked.status == .ok, "round \(round): \(relinked.json)")
                }
                if !linked.contains("password") {
                    let set = try await client.call("setPassword", ["password": "password-\(round + 2)"], token: token)
                    #expect(set.status == .ok, "round \(round): \(set.json)")
                }
                async let first = client.call("unlinkProvider", ["provider": "password"], token: token)
                async let second = client.call("unlinkProvider", ["provider": "google.com"], token: token)
                let codes = [try await first, try await second].map { $0.status == .ok ? "OK" : ($0.errorCode ?? "?") }.sorted()
                #expect(codes == ["LAST_SIGN_IN_METHOD", "OK"], "round \(round)")
                let after = try await client.call("getAccount", token: token)
                let left = (after.data["providers"] as? [[String: Any]]) ?? []
                #expect(left.count == 1, "round \(round): \(after.json)")
            }
        }
    }

    /// A Google-only user adds a password and can then sign in with it; re-authenticating with Google works.
    @Test func setPasswordAndReauthenticateWithGoogle() async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(.sqlite, clock: clock) { client in
            let google = { try await providers.token("google.com", sub: "g-erin", email: "erin@example.com", now: clock.now()) }
            let token = try #require(
                try await client.call("signInWithIdp", ["provider": "google.com", "id_token": try await google()]).accessToken)
            _ = try await client.call("confirmAccountCreation", token: token)
            clock.advance(by: 1)
            let withPassword = try await client.call("setPassword", ["password": "password-3"], token: token)
            #expect(withPassword.data["providers"] as? [String] == ["google.com", "password"])
            #expect(try await client.call("setPassword", ["password": "password-4"], token: token).errorCode == "PROVIDER_ALREADY_LINKED")
            #expect(try await client.call("signIn", ["email": "erin@example.com", "password": "password-3"]).status == .ok)
            clock.advance(by: 600)
            #expect(try await client.call("unlinkProvider", ["provider": "password"], token: token).errorCode == "REQUIRES_RECENT_LOGIN")
            #expect(try await client.call("setPassword", ["password": "password-5"], token: token).errorCode == "REQUIRES_RECENT_LOGIN")
            let fresh = try await client.call("reauthenticate", ["provider": "google.com", "id_token": try await google()], token: token)
            #expect(fresh.accessToken != nil)
            // Someone else's Google account does not re-authenticate this one.
            let other = try await providers.token("google.com", sub: "g-other", email: "other@example.com", now: clock.now())
            let freshToken = try #require(fresh.accessToken)
            #expect(
                try await client.call("reauthenticate", ["provider": "google.com", "id_token": other], token: freshToken).errorCode
                    == "INVALID_CREDENTIAL")
        }
    }

    /// Apple: the nonce must be the SHA-256 of the raw nonce and is spent once; the name given on the first
    /// sign-in is kept for the profile.
    @Test(arguments: TestDatabases.engines)
    func appleNonceAndFirstTimeName(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            let raw = "raw-nonce-1"
            let idToken = try await providers.token(
                "apple.com", sub: "a-fay", email: "relay123@privaterelay.appleid.com", now: clock.now(),
                nonce: FakeIdentityProviders.nonceHash(raw))
            #expect(try await client.call("signInWithIdp", ["provider": "apple.com", "id_token": idToken]).errorCode == "INVALID_ARGUMENT")
            #expect(
                try await client.call("signInWithIdp", ["provider": "apple.com", "id_token": idToken, "raw_nonce": "other"]).errorCode
                    == "INVALID_CREDENTIAL")
            let first = try await client.call(
                "signInWithIdp", ["provider": "apple.com", "id_token": idToken, "raw_nonce": raw, "name": "Fay"])
            #expect(first.data["result"] as? String == "new_user")
            let replay = try await client.call("signInWithIdp", ["provider": "apple.com", "id_token": idToken, "raw_nonce": raw])
            #expect(replay.errorCode == "INVALID_CREDENTIAL")
            let token = try #require(first.accessToken)
            _ = try await client.call("confirmAccountCreation", token: token)
            let profile = try await client.call("getUser", token: token)
            #expect(profile.data["name"] as? String == "Fay")
            #expect(profile.data["email"] as? String == "relay123@privaterelay.appleid.com")
            #expect(profile.data["provider"] as? String == "apple.com")
            // Later Apple sign-ins carry no name: the profile keeps it.
            let later = try await providers.token(
                "apple.com", sub: "a-fay", email: nil, now: clock.now(), nonce: FakeIdentityProviders.nonceHash("raw-2"))
            let again = try await client.call("signInWithIdp", ["provider": "apple.com", "id_token": later, "raw_nonce": "raw-2"])
            #expect(again.data["result"] as? String == "existing_user")
            #expect((again.data["user"] as? [String: Any])?["name"] as? String == "Fay")
        }
    }

    /// Expired, wrong audience, wrong issuer, unsigned, HMAC keyed with the public key, unknown key and a
    /// stranger's signature: every one INVALID_CREDENTIAL, and no account appears.
    @Test(arguments: TestDatabases.engines)
    func forgedAndInvalidTokensAreRejected(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            let now = clock.now()
            var bad: [(String, String)] = [
                (
                    "expired",
                    try await providers.token("google.com", sub: "g-x", email: "x@example.com", now: now.addingTimeInterval(-7200))
                ),
                (
                    "wrong audience",
                    try await providers.token("google.com", sub: "g-x", email: "x@example.com", now: now, aud: "someone-else")
                ),
                (
                    "wrong issuer",
                    try await providers.token("google.com", sub: "g-x", email: "x@example.com", now: now, iss: "https://evil.example.com")
                ),
                (
                    "apple token as google",
                    try await providers.token("google.com", sub: "g-x", email: "x@example.com", now: now, iss: "https://appleid.apple.com")
                ),
                (
                    "stranger's key",
                    try await providers.token("google.com", sub: "g-x", email: "x@example.com", now: now, key: providers.strangerKey)
                ),
                (
                    "unknown kid",
                    try await providers.token(
                        "google.com", sub: "g-x", email: "x@example.com", now: now, key: providers.strangerKey, kid: "zz")
                ),
                (
                    "apple key for google",
                    try await providers.token(
                        "google.com", sub: "g-x", email: "x@example.com", now: now, key: providers.appleKey, kid: "g1")
                ),
                ("garbage", "not.a.token"),
            ]
            let claims = FakeIdentityProviders.Claims(
                iss: "https://accounts.google.com", aud: "google-client", exp: Int(now.timeIntervalSince1970 + 3600),
                iat: Int(now.timeIntervalSince1970), sub: "g-x", email: "x@example.com", email_verified: "true", nonce: nil, name: nil)
            bad.append(("alg none", try providers.forged(alg: "none", claims: claims, kid: "g1")))
            bad.append(("HS256 with the public key", try providers.forged(alg: "HS256", claims: claims, kid: "g1")))
            for (what, token) in bad {
                let reply = try await client.call("signInWithIdp", ["provider": "google.com", "id_token": token])
                #expect(reply.errorCode == "INVALID_CREDENTIAL", "\(what)")
                #expect(reply.errorMessage == "The sign-in credentials are invalid. Please try again.", "\(what)")
            }
            // None of them created anything: the genuine token is still a new user.
            let genuine = try await providers.token("google.com", sub: "g-x", email: "x@example.com", now: now)
            #expect(
                try await client.call("signInWithIdp", ["provider": "google.com", "id_token": genuine]).data["result"] as? String
                    == "new_user")
        }
    }
}
