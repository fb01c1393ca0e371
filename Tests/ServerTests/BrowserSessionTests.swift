import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import TestSupport
import Testing

/// The web app's session: the refresh token only ever in an HttpOnly cookie scoped to `/refreshToken`, asked for
/// with `X-Povver-Session: cookie` from a page of this server; the apps' JSON flow unchanged.
@Suite struct BrowserSessionTests {
    static let mode = HTTPField.Name("X-Povver-Session")!
    /// What a page at http://localhost sends (the test client's authority is `localhost`).
    static let browser: HTTPFields = [mode: "cookie", .origin: "http://localhost"]

    static func cookie(_ reply: Reply) -> String? {
        reply.headers[values: .setCookie].first { $0.hasPrefix("povver_refresh=") }
    }

    static func token(inCookie header: String?) -> String? {
        guard let header, let pair = header.split(separator: ";").first else { return nil }
        let value = pair.dropFirst("povver_refresh=".count)
        return value.isEmpty ? nil : String(value)
    }

    @Test(arguments: TestDatabases.engines)
    func aBrowserSignInKeepsTheRefreshTokenInAnHttpOnlyCookieOnly(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call(
                "signUp", ["email": "web@example.com", "password": "password-1"], headers: Self.browser)
            #expect(signUp.status == .ok)
            #expect(signUp.accessToken != nil)
            #expect(signUp.refreshToken == nil, "the page's scripts never see the refresh token")
            let cookie = try #require(Self.cookie(signUp))
            #expect(cookie.contains("; Path=/refreshToken"))
            #expect(cookie.contains("; HttpOnly"))
            #expect(cookie.contains("; SameSite=Strict"))
            #expect(cookie.contains("; Max-Age=2592000"))
            #expect(!cookie.contains("Secure"), "a page served over plain HTTP could not send a Secure cookie back")
            let signIn = try await client.call("signIn", ["email": "web@example.com", "password": "password-1"], headers: Self.browser)
            #expect(signIn.refreshToken == nil && Self.cookie(signIn) != nil)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theCookieRefreshesAndRotatesTheSession(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call("signUp", ["email": "rotate@example.com", "password": "password-1"], headers: Self.browser)
            let first = try #require(Self.token(inCookie: Self.cookie(signUp)))
            var headers = Self.browser
            headers[.cookie] = "theme=dark; povver_refresh=\(first)"
            let refreshed = try await client.call("refreshToken", [:], headers: headers)
            #expect(refreshed.status == .ok)
            let access = try #require(refreshed.accessToken)
            #expect(refreshed.refreshToken == nil)
            let second = try #require(Self.token(inCookie: Self.cookie(refreshed)))
            #expect(second != first, "rotated")
            #expect(try await client.call("getUser", token: access).status == .ok)
            // Within the grace window the same cookie gets the same successor (two tabs reloading at once).
            let again = try await client.call("refreshToken", [:], headers: headers)
            #expect(Self.token(inCookie: Self.cookie(again)) == second)
            headers[.cookie] = "povver_refresh=\(second)"
            #expect(try await client.call("refreshToken", [:], headers: headers).status == .ok)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aRequestFromAnotherSiteIsRefusedAndChangesNothing(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call("signUp", ["email": "csrf@example.com", "password": "password-1"], headers: Self.browser)
            let token = try #require(Self.token(inCookie: Self.cookie(signUp)))
            for origin in ["https://evil.example", "http://localhost.evil.example", "http://localhost:8443", "null"] {
                var headers: HTTPFields = [Self.mode: "cookie", .origin: origin, .cookie: "povver_refresh=\(token)"]
                let refused = try await client.call("refreshToken", [:], headers: headers)
                #expect(refused.errorCode == "PERMISSION_DENIED", "\(origin)")
                #expect(Self.cookie(refused) == nil)
                headers[.cookie] = nil
                let signIn = try await client.call("signIn", ["email": "csrf@example.com", "password": "password-1"], headers: headers)
                #expect(signIn.errorCode == "PERMISSION_DENIED" && signIn.accessToken == nil, "\(origin)")
            }
            let noOrigin = try await client.call("refreshToken", [:], headers: [Self.mode: "cookie", .cookie: "povver_refresh=\(token)"])
            #expect(noOrigin.errorCode == "PERMISSION_DENIED")
            // Without the header (a plain form post from anywhere) the cookie is not even read.
            let formPost = try await client.call("refreshToken", [:], headers: [.cookie: "povver_refresh=\(token)"])
            #expect(formPost.errorCode == "UNAUTHENTICATED")
            // The token was not used by any of them: the page's own refresh still works, rotating it once.
            var own = Self.browser
            own[.cookie] = "povver_refresh=\(token)"
            #expect(try await client.call("refreshToken", [:], headers: own).status == .ok)
            let unknownMode = try await client.call("refreshToken", [:], headers: [Self.mode: "jar", .origin: "http://localhost"])
            #expect(unknownMode.errorCode == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aPageServedOverTLSGetsASecureCookie(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call(
                "signUp", ["email": "tls@example.com", "password": "password-1"],
                headers: [Self.mode: "cookie", .origin: "https://localhost"])
            #expect(Self.cookie(signUp)?.hasSuffix("; Secure") == true)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func signingOutRemovesTheCookieAndEndsTheSession(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call("signUp", ["email": "out@example.com", "password": "password-1"], headers: Self.browser)
            let token = try #require(Self.token(inCookie: Self.cookie(signUp)))
            let access = try #require(signUp.accessToken)
            let out = try await client.call("signOut", [:], token: access, headers: Self.browser)
            #expect(out.status == .ok)
            let cleared = try #require(Self.cookie(out))
            #expect(cleared.hasPrefix("povver_refresh=;") && cleared.contains("Max-Age=0") && cleared.contains("Path=/refreshToken"))
            var headers = Self.browser
            headers[.cookie] = "povver_refresh=\(token)"
            #expect(try await client.call("refreshToken", [:], headers: headers).errorCode == "UNAUTHENTICATED")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aPasswordChangeMovesTheNewSessionIntoTheCookie(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call("signUp", ["email": "change@example.com", "password": "password-1"], headers: Self.browser)
            let access = try #require(signUp.accessToken)
            let changed = try await client.call(
                "changePassword", ["current_password": "password-1", "new_password": "password-2"], token: access, headers: Self.browser)
            #expect(changed.status == .ok)
            #expect(changed.refreshToken == nil)
            let token = try #require(Self.token(inCookie: Self.cookie(changed)))
            var headers = Self.browser
            headers[.cookie] = "povver_refresh=\(token)"
            #expect(try await client.call("refreshToken", [:], headers: headers).status == .ok)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theAppsKeepTheirTokensInJSONWithoutACookie(_ engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let signUp = try await client.call("signUp", ["email": "app@example.com", "password": "password-1"])
            let refresh = try #require(signUp.refreshToken)
            #expect(Self.cookie(signUp) == nil)
            let refreshed = try await client.call("refreshToken", ["refresh_token": refresh])
            #expect(refreshed.refreshToken != nil && Self.cookie(refreshed) == nil)
            #expect(try await client.call("refreshToken", [:]).errorCode == "UNAUTHENTICATED", "nothing to refresh")
        }
    }
}
