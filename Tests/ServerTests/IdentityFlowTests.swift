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
import PovverClient
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
        let google = (try? JSONEncoder().encode(["keys": [Self.jwk(googleKey, kid: "g1")]])) ?? Data()
        let apple = (try? JSONEncoder().encode(["keys": [Self.jwk(appleKey, kid: "a1")]])) ?? Data()
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
        let header = Self.base64URL(try JSONEncoder().encode(["alg": alg, "kid": kid, "typ": "JWT"]))
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

    /// A sign-in with a Google ID token, as the app sends it.
    static func google(_ idToken: String) -> Operations.SignInWithIdp.Input.Body {
        .json(.init(idToken: idToken, provider: .google_com))
    }

    /// A sign-in with an Apple ID token, its raw nonce and the name Apple gives on the first sign-in.
    static func apple(_ idToken: String, nonce: String? = nil, name: String? = nil) -> Operations.SignInWithIdp.Input.Body {
        .json(.init(idToken: idToken, name: name, provider: .apple_com, rawNonce: nonce))
    }

    /// Links a Google account.
    static func linkGoogle(_ idToken: String) -> Operations.LinkProvider.Input.Body {
        .json(.init(idToken: idToken, provider: .google_com))
    }

    /// The checklist's phase 3 (docs/product.md): new Google user → confirmation → profile with provider google.com; signing in again
    /// goes straight in; before confirming, nothing but confirm/cancel/sign-out works.
    @Test(arguments: TestDatabases.engines)
    func googleNewUserConfirmsThenSignsInDirectly(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            let api = client.api()
            let idToken = try await providers.token("google.com", sub: "g-123", email: "Ann@Example.com", now: clock.now(), name: "Ann")
            let first = try await api.signInWithIdp(body: Self.google(idToken)).ok.body.json.data
            #expect(first.result == .newUser)
            #expect(first.pending?.email == "ann@example.com")
            let pending = client.api(first.tokens.accessToken)

            let blocked = try #require(await refused { try await pending.getUser() })
            #expect(blocked.code == "ACCOUNT_NOT_CONFIRMED")
            #expect(blocked.message == "Please confirm your account creation to continue.")

            // The confirmation screen may stay open past the access token's life: a pending session refreshes (and
            // its new token is still only good for confirming, cancelling or signing out).
            clock.advance(by: 3600)
            #expect(try await outcome { try await pending.confirmAccountCreation().ok } == "UNAUTHENTICATED")
            let refreshToken = try #require(first.tokens.refreshToken)
            let refreshed = try await api.refreshToken(body: .json(.init(refreshToken: refreshToken))).ok.body.json.data
            let renewed = client.api(refreshed.tokens.accessToken)
            #expect(try await outcome { try await renewed.getUser().ok } == "ACCOUNT_NOT_CONFIRMED")

            let confirmed = try await renewed.confirmAccountCreation().ok.body.json.data
            #expect(confirmed.user.originalProvider == .google_com)
            let profile = try await renewed.getUser().ok.body.json.data
            #expect(profile.provider == .google_com)
            #expect(profile.name == "Ann")

            let again = try await api.signInWithIdp(
                body: Self.google(try await providers.token("google.com", sub: "g-123", email: "ann@example.com", now: clock.now()))
            ).ok.body.json.data
            #expect(again.result == .existingUser)
            #expect(again.pending == nil)
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
            let api = client.api()
            for round in 0..<5 {
                let idToken = try await providers.token(
                    "google.com", sub: "g-twice-\(round)", email: "twice\(round)@example.com", now: clock.now())
                let replies = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                    for _ in 0..<4 {
                        group.addTask {
                            let box = RefusalRecorder.Box()
                            let reply = try await RefusalRecorder.$current.withValue(box) {
                                try await api.signInWithIdp(body: Self.google(idToken))
                            }
                            guard case .ok(let answer) = reply else { return (box.refusal.map { "\($0)" } ?? "\(reply)", nil) }
                            return ("OK", try answer.body.json.data.user.id)
                        }
                    }
                    var replies: [(String, String?)] = []
                    for try await reply in group { replies.append(reply) }
                    return replies
                }
                #expect(replies.allSatisfy { $0.0 == "OK" }, "round \(round): \(replies.map(\.0))")
                #expect(Set(replies.map(\.1)).count == 1 && replies[0].1 != nil, "round \(round): one account, \(replies.map(\.0))")
            }
        }
    }

    /// Cancelling removes the identity: its token stops working and the next sign-in is new again.
    @Test func cancelRemovesTheUnconfirmedIdentity() async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(.sqlite, clock: clock) { client in
            let api = client.api()
            let idToken = try await providers.token("google.com", sub: "g-9", email: "cancel@example.com", now: clock.now())
            let first = try await api.signInWithIdp(body: Self.google(idToken)).ok.body.json.data
            let pending = client.api(first.tokens.accessToken)
            _ = try await pending.cancelAccountCreation().ok
            #expect(try await outcome { try await pending.getAccount().ok } == "UNAUTHENTICATED")
            let second = try await api.signInWithIdp(body: Self.google(idToken)).ok.body.json.data
            #expect(second.result == .newUser)
            #expect(second.user.id != first.user.id)
        }
    }

    /// No automatic linking (docs/product.md): an email user signing in with Google on the same address gets the friendly
    /// collision message, and nothing is created or linked.
    @Test(arguments: TestDatabases.engines)
    func collisionIsRefusedWithTheSeedsMessage(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            let token = try await client.signUp(email: "bob@example.com", password: "password-1").tokens.accessToken
            let idToken = try await providers.token("google.com", sub: "g-bob", email: "BOB@example.com", now: clock.now())
            let collision = try #require(await refused { try await client.api().signInWithIdp(body: Self.google(idToken)) })
            #expect(collision.status == 409)
            #expect(collision.code == "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL")
            #expect(
                collision.message
                    == "An account with this email already exists. Please sign in with your original method, then link this provider in Settings."
            )
            #expect(try await PreRegisteredEmailTests.providerIds(client.api(token)) == ["password"])
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
            let refusal = try #require(await refused { try await client.api().signInWithIdp(body: Self.google(unverified)) })
            #expect(refusal.code == "INVALID_CREDENTIAL", "\(refusal)")
            #expect(refusal.details["reason"] == "the provider has not verified the email address")
            let owner = try await client.signUpVerified(email: "victim@example.com", password: "password-1", server: server)
            // Linked by its owner to a signed-in account, the same Google account is fine: it claims no address.
            let linked = try await client.api(owner.tokens.accessToken).linkProvider(
                body: .json(.init(idToken: unverified, provider: .google_com))
            ).ok.body.json.data
            #expect(Set(linked.providers) == [.password, .google_com], "\(linked)")
        }
    }

    /// Linking, the provider owned by someone else, linking twice, unlinking (never the last), the recent-login
    /// window and re-authentication.
    @Test(arguments: TestDatabases.engines)
    func linkUnlinkAndRecentLogin(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let carol = client.api(
                try await client.signUpVerified(email: "carol@example.com", password: "password-1", server: server).tokens.accessToken)
            let dave = client.api(
                try await client.signUpVerified(email: "dave@example.com", password: "password-2", server: server).tokens.accessToken)
            let google = { try await providers.token("google.com", sub: "g-carol", email: "carol.g@example.com", now: clock.now()) }
            clock.advance(by: 1)

            let linked = try await carol.linkProvider(body: Self.linkGoogle(try await google())).ok.body.json.data
            #expect(linked.providers == [.password, .google_com])
            let daves = try await google()
            let taken = try #require(await refused { try await dave.linkProvider(body: Self.linkGoogle(daves)) })
            #expect(taken.code == "CREDENTIAL_ALREADY_IN_USE")
            #expect(taken.message == "This Google account is already linked to a different Povver account.")
            let twice = try await google()
            #expect(try await outcome { try await carol.linkProvider(body: Self.linkGoogle(twice)).ok } == "PROVIDER_ALREADY_LINKED")
            // Carol can now sign in with Google directly.
            let viaGoogle = try await client.api().signInWithIdp(body: Self.google(try await google())).ok.body.json.data
            #expect(viaGoogle.result == .existingUser)

            #expect(try await outcome { try await carol.unlinkProvider(body: .json(.init(provider: .apple_com))).ok } == "NO_SUCH_PROVIDER")
            let unlinked = try await carol.unlinkProvider(body: .json(.init(provider: .google_com))).ok.body.json.data
            #expect(unlinked.providers == [.password])
            #expect(
                try await outcome { try await carol.unlinkProvider(body: .json(.init(provider: .password))).ok } == "LAST_SIGN_IN_METHOD")

            clock.advance(by: 301)
            let stale = try #require(
                await refused {
                    try await carol.changePassword(body: .json(.init(currentPassword: "password-1", newPassword: "password-9")))
                })
            #expect(stale.code == "REQUIRES_RECENT_LOGIN")
            // Adding a way in needs a recent login too: a stolen token cannot leave a lasting credential behind.
            let late = try await google()
            #expect(try await outcome { try await carol.linkProvider(body: Self.linkGoogle(late)).ok } == "REQUIRES_RECENT_LOGIN")
            #expect(stale.message == "For your security, please sign in again to continue.")
            let wrong = try #require(
                await refused { try await carol.reauthenticate(body: .json(.init(password: "nope-nope", provider: .password))) })
            #expect(wrong.code == "WRONG_PASSWORD")
            #expect(wrong.message == "Incorrect password. Please try again.")
            let fresh = client.api(
                try await carol.reauthenticate(body: .json(.init(password: "password-1", provider: .password))).ok.body.json.data.tokens
                    .accessToken)
            #expect(try await outcome { try await carol.getAccount().ok } == "UNAUTHENTICATED")  // the old session ended
            _ = try await fresh.changePassword(body: .json(.init(currentPassword: "password-1", newPassword: "password-9"))).ok
            _ = try await client.signIn(email: "carol@example.com", password: "password-9")
            let api = client.api()
            #expect(
                try await outcome { try await api.signIn(body: .json(.init(email: "carol@example.com", password: "password-1"))).ok }
                    == "INVALID_CREDENTIAL")
        }
    }

    /// Two devices unlinking the account's two sign-in methods at the same moment: one wins, the other is
    /// `LAST_SIGN_IN_METHOD`, and the account always keeps a way in.
    @Test(arguments: TestDatabases.engines)
    func concurrentUnlinksNeverRemoveTheLastMethod(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let api = client.api(
                try await client.signUpVerified(email: "gus@example.com", password: "password-1", server: server).tokens.accessToken)
            let google = try await providers.token("google.com", sub: "g-gus", email: "gus.g@example.com", now: clock.now())
            for round in 0..<8 {
                let linked = Set(try await PreRegisteredEmailTests.providerIds(api))
                if !linked.contains("google.com") {
                    _ = try await api.linkProvider(body: .json(.init(idToken: google, provider: .google_com))).ok
                }
                if !linked.contains("password") {
                    _ = try await api.setPassword(body: .json(.init(password: "password-\(round + 2)"))).ok
                }
                async let first = outcome { try await api.unlinkProvider(body: .json(.init(provider: .password))).ok }
                async let second = outcome { try await api.unlinkProvider(body: .json(.init(provider: .google_com))).ok }
                let codes = [try await first, try await second].sorted()
                #expect(codes == ["LAST_SIGN_IN_METHOD", "OK"], "round \(round)")
                let left = try await PreRegisteredEmailTests.providerIds(api)
                #expect(left.count == 1, "round \(round): \(left)")
            }
        }
    }

    /// A Google-only user adds a password and can then sign in with it; re-authenticating with Google works.
    @Test func setPasswordAndReauthenticateWithGoogle() async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(.sqlite, clock: clock) { client in
            let google = { try await providers.token("google.com", sub: "g-erin", email: "erin@example.com", now: clock.now()) }
            let api = client.api(
                try await client.api().signInWithIdp(body: Self.google(try await google())).ok.body.json.data.tokens.accessToken)
            _ = try await api.confirmAccountCreation().ok
            clock.advance(by: 1)
            let withPassword = try await api.setPassword(body: .json(.init(password: "password-3"))).ok.body.json.data
            #expect(withPassword.providers == [.google_com, .password])
            #expect(
                try await outcome { try await api.setPassword(body: .json(.init(password: "password-4"))).ok } == "PROVIDER_ALREADY_LINKED")
            _ = try await client.signIn(email: "erin@example.com", password: "password-3")
            clock.advance(by: 600)
            #expect(
                try await outcome { try await api.unlinkProvider(body: .json(.init(provider: .password))).ok } == "REQUIRES_RECENT_LOGIN")
            #expect(
                try await outcome { try await api.setPassword(body: .json(.init(password: "password-5"))).ok } == "REQUIRES_RECENT_LOGIN")
            let fresh = try await api.reauthenticate(body: .json(.init(idToken: try await google(), provider: .google_com))).ok
            // Someone else's Google account does not re-authenticate this one.
            let other = try await providers.token("google.com", sub: "g-other", email: "other@example.com", now: clock.now())
            let freshAPI = client.api(try fresh.body.json.data.tokens.accessToken)
            #expect(
                try await outcome { try await freshAPI.reauthenticate(body: .json(.init(idToken: other, provider: .google_com))).ok }
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
            let api = client.api()
            let raw = "raw-nonce-1"
            let idToken = try await providers.token(
                "apple.com", sub: "a-fay", email: "relay123@privaterelay.appleid.com", now: clock.now(),
                nonce: FakeIdentityProviders.nonceHash(raw))
            #expect(try await outcome { try await api.signInWithIdp(body: Self.apple(idToken)).ok } == "INVALID_ARGUMENT")
            #expect(try await outcome { try await api.signInWithIdp(body: Self.apple(idToken, nonce: "other")).ok } == "INVALID_CREDENTIAL")
            let first = try await api.signInWithIdp(body: Self.apple(idToken, nonce: raw, name: "Fay")).ok.body.json.data
            #expect(first.result == .newUser)
            #expect(try await outcome { try await api.signInWithIdp(body: Self.apple(idToken, nonce: raw)).ok } == "INVALID_CREDENTIAL")
            let fay = client.api(first.tokens.accessToken)
            _ = try await fay.confirmAccountCreation().ok
            let profile = try await fay.getUser().ok.body.json.data
            #expect(profile.name == "Fay")
            #expect(profile.email == "relay123@privaterelay.appleid.com")
            #expect(profile.provider == .apple_com)
            // Later Apple sign-ins carry no name: the profile keeps it.
            let later = try await providers.token(
                "apple.com", sub: "a-fay", email: nil, now: clock.now(), nonce: FakeIdentityProviders.nonceHash("raw-2"))
            let again = try await api.signInWithIdp(body: Self.apple(later, nonce: "raw-2")).ok.body.json.data
            #expect(again.result == .existingUser)
            #expect(again.user.name == "Fay")
        }
    }

    /// Expired, wrong audience, wrong issuer, unsigned, HMAC keyed with the public key, unknown key and a
    /// stranger's signature: every one INVALID_CREDENTIAL, and no account appears.
    @Test(arguments: TestDatabases.engines)
    func forgedAndInvalidTokensAreRejected(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withServer(engine, clock: clock) { client in
            let api = client.api()
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
                let refusal = try #require(await refused { try await api.signInWithIdp(body: Self.google(token)) }, "\(what)")
                #expect(refusal.code == "INVALID_CREDENTIAL", "\(what)")
                #expect(refusal.message == "The sign-in credentials are invalid. Please try again.", "\(what)")
            }
            // None of them created anything: the genuine token is still a new user.
            let genuine = try await providers.token("google.com", sub: "g-x", email: "x@example.com", now: now)
            #expect(try await api.signInWithIdp(body: Self.google(genuine)).ok.body.json.data.result == .newUser)
        }
    }
}
