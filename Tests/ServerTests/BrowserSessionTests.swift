import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverClient
import TestSupport
import Testing

/// The web app's session: the refresh token only ever in an HttpOnly cookie scoped to `/refreshToken`, asked for
/// with `X-Povver-Session: cookie` from a page of this server; the apps' JSON flow unchanged.
@Suite struct BrowserSessionTests {
    static let mode = HTTPField.Name("X-Povver-Session")!
    /// What a page at http://localhost sends (the test client's authority is `localhost`).
    static let browser: HTTPFields = [mode: "cookie", .origin: "http://localhost"]

    static func cookie(_ headers: HTTPFields) -> String? {
        headers[values: .setCookie].first { $0.hasPrefix("povver_refresh=") }
    }

    static func token(inCookie header: String?) -> String? {
        guard let header, let pair = header.split(separator: ";").first else { return nil }
        let value = pair.dropFirst("povver_refresh=".count)
        return value.isEmpty ? nil : String(value)
    }

    /// The cookie a sign-up of `email` from a page with `headers` was answered with.
    static func signUp(_ client: any TestClientProtocol, _ email: String, headers: HTTPFields = BrowserSessionTests.browser) async throws
        -> (
            SignedUp, cookie: String?
        )
    {
        let answers = AnswerHeaders()
        let signUp = try await client.api(headers: headers, answers: answers).signUp(
            body: .json(.init(email: email, password: "password-1"))
        ).ok.body.json.data
        return (signUp, cookie(answers.last))
    }

    @Test(arguments: TestDatabases.engines)
    func aBrowserSignInKeepsTheRefreshTokenInAnHttpOnlyCookieOnly(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let (signUp, setCookie) = try await Self.signUp(client, "web@example.com")
            #expect(!signUp.tokens.accessToken.isEmpty)
            #expect(signUp.tokens.refreshToken == nil, "the page's scripts never see the refresh token")
            let cookie = try #require(setCookie)
            #expect(cookie.contains("; Path=/refreshToken"))
            #expect(cookie.contains("; HttpOnly"))
            #expect(cookie.contains("; SameSite=Strict"))
            #expect(cookie.contains("; Max-Age=2592000"))
            #expect(!cookie.contains("Secure"), "a page served over plain HTTP could not send a Secure cookie back")
            let answers = AnswerHeaders()
            let signIn = try await client.api(headers: Self.browser, answers: answers).signIn(
                body: .json(.init(email: "web@example.com", password: "password-1"))
            ).ok.body.json.data
            #expect(signIn.tokens.refreshToken == nil && Self.cookie(answers.last) != nil)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theCookieRefreshesAndRotatesTheSession(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let first = try #require(Self.token(inCookie: try await Self.signUp(client, "rotate@example.com").cookie))
            var headers = Self.browser
            headers[.cookie] = "theme=dark; povver_refresh=\(first)"
            let answers = AnswerHeaders()
            let page = client.api(headers: headers, answers: answers)
            let refreshed = try await page.refreshToken(body: .json(.init())).ok.body.json.data
            #expect(refreshed.tokens.refreshToken == nil)
            let second = try #require(Self.token(inCookie: Self.cookie(answers.last)))
            #expect(second != first, "rotated")
            _ = try await client.api(refreshed.tokens.accessToken).getUser().ok
            // Within the grace window the same cookie gets the same successor (two tabs reloading at once).
            _ = try await page.refreshToken(body: .json(.init())).ok
            #expect(Self.token(inCookie: Self.cookie(answers.last)) == second)
            headers[.cookie] = "povver_refresh=\(second)"
            _ = try await client.api(headers: headers).refreshToken(body: .json(.init())).ok
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aRequestFromAnotherSiteIsRefusedAndChangesNothing(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try #require(Self.token(inCookie: try await Self.signUp(client, "csrf@example.com").cookie))
            for origin in ["https://evil.example", "http://localhost.evil.example", "http://localhost:8443", "null"] {
                var headers: HTTPFields = [Self.mode: "cookie", .origin: origin, .cookie: "povver_refresh=\(token)"]
                let site = client.api(headers: headers)
                let refusal = try #require(await refused { try await site.refreshToken(body: .json(.init())) }, "\(origin)")
                #expect(refusal.code == "PERMISSION_DENIED", "\(origin)")
                #expect(Self.cookie(refusal.headers) == nil)
                headers[.cookie] = nil
                let signIn = client.api(headers: headers)
                #expect(
                    try await outcome { try await signIn.signIn(body: .json(.init(email: "csrf@example.com", password: "password-1"))).ok }
                        == "PERMISSION_DENIED", "\(origin)")
            }
            let noOrigin = client.api(headers: [Self.mode: "cookie", .cookie: "povver_refresh=\(token)"])
            #expect(try await outcome { try await noOrigin.refreshToken(body: .json(.init())).ok } == "PERMISSION_DENIED")
            // Without the header (a plain form post from anywhere) the cookie is not even read.
            let formPost = client.api(headers: [.cookie: "povver_refresh=\(token)"])
            #expect(try await outcome { try await formPost.refreshToken(body: .json(.init())).ok } == "UNAUTHENTICATED")
            // The token was not used by any of them: the page's own refresh still works, rotating it once.
            var own = Self.browser
            own[.cookie] = "povver_refresh=\(token)"
            _ = try await client.api(headers: own).refreshToken(body: .json(.init())).ok
            let unknownMode = client.api(headers: [Self.mode: "jar", .origin: "http://localhost"])
            #expect(try await outcome { try await unknownMode.refreshToken(body: .json(.init())).ok } == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aPageServedOverTLSGetsASecureCookie(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await Self.signUp(client, "tls@example.com", headers: [Self.mode: "cookie", .origin: "https://localhost"])
            #expect(signUp.cookie?.hasSuffix("; Secure") == true)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func signingOutRemovesTheCookieAndEndsTheSession(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let (signUp, cookie) = try await Self.signUp(client, "out@example.com")
            let token = try #require(Self.token(inCookie: cookie))
            let answers = AnswerHeaders()
            _ = try await client.api(signUp.tokens.accessToken, headers: Self.browser, answers: answers).signOut(body: .json(.init())).ok
            let cleared = try #require(Self.cookie(answers.last))
            #expect(cleared.hasPrefix("povver_refresh=;") && cleared.contains("Max-Age=0") && cleared.contains("Path=/refreshToken"))
            var headers = Self.browser
            headers[.cookie] = "povver_refresh=\(token)"
            let page = client.api(headers: headers)
            #expect(try await outcome { try await page.refreshToken(body: .json(.init())).ok } == "UNAUTHENTICATED")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aPasswordChangeMovesTheNewSessionIntoTheCookie(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let access = try await Self.signUp(client, "change@example.com").0.tokens.accessToken
            let answers = AnswerHeaders()
            let changed = try await client.api(access, headers: Self.browser, answers: answers).changePassword(
                body: .json(.init(currentPassword: "password-1", newPassword: "password-2"))
            ).ok.body.json.data
            #expect(changed.tokens.refreshToken == nil)
            let token = try #require(Self.token(inCookie: Self.cookie(answers.last)))
            var headers = Self.browser
            headers[.cookie] = "povver_refresh=\(token)"
            _ = try await client.api(headers: headers).refreshToken(body: .json(.init())).ok
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theAppsKeepTheirTokensInJSONWithoutACookie(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let (signUp, cookie) = try await Self.signUp(client, "app@example.com", headers: [:])
            let refresh = try #require(signUp.tokens.refreshToken)
            #expect(cookie == nil)
            let answers = AnswerHeaders()
            let api = client.api(answers: answers)
            let refreshed = try await api.refreshToken(body: .json(.init(refreshToken: refresh))).ok.body.json.data
            #expect(refreshed.tokens.refreshToken != nil && Self.cookie(answers.last) == nil)
            #expect(try await outcome { try await api.refreshToken(body: .json(.init())).ok } == "UNAUTHENTICATED", "nothing to refresh")
        }
    }
}
