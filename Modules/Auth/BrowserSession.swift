import Contracts
import Foundation
import HTTPTypes
import Platform

/// A browser's session: the web app keeps its access token in memory only, and its refresh token is never
/// readable by scripts: it travels in an `HttpOnly`, `SameSite=Strict` cookie scoped to `/refreshToken` (`Secure`
/// when the app is served over TLS), and the JSON answer carries no `refresh_token`.
///
/// A client asks for it with `X-Povver-Session: cookie` on the sign-in family, `refreshToken`, `signOut`,
/// `changePassword` and `reauthenticate`. Such a request must carry an `Origin` naming the host it was sent to:
/// a page of another site can neither send the custom header without a CORS preflight (which this server never
/// grants) nor pass the origin check, and the cookie is not sent by other sites at all. Without the header
/// everything is as for the apps: tokens in JSON, no cookie.
struct BrowserSession: Sendable {
    static let modeHeader = HTTPField.Name("X-Povver-Session")!  // cannot trap: a header name spelled here is a valid token
    static let cookieName = "povver_refresh"
    static let cookiePath = "/refreshToken"

    /// Served over TLS (the page's origin is `https:`): the cookie is `Secure`.
    let secure: Bool
    /// The refresh token the request's cookie carries, if any.
    let cookieToken: String?

    /// The browser session `exchange` asks for; nil when it asks for none (an app). Throws `INVALID_ARGUMENT` for
    /// an unknown mode and `PERMISSION_DENIED` when the request does not come from a page of this server.
    static func requested(by exchange: HTTPExchange) throws -> BrowserSession? {
        let modes = exchange.headers[values: modeHeader]
        guard !modes.isEmpty else { return nil }
        guard modes == ["cookie"] else {
            throw ServiceError(
                .invalidArgument, "The header X-Povver-Session takes the value cookie.",
                details: ["field": "X-Povver-Session", "reason": "unknown mode"])
        }
        guard let origin = exchange.headers[.origin], let url = URL(string: origin), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host, let authority = exchange.authority,
            Self.authority(host: host, port: url.port, scheme: scheme) == authority.lowercased()
        else {
            throw ServiceError(.permissionDenied, "A browser session can only be started by a page of this server.")
        }
        return BrowserSession(secure: scheme == "https", cookieToken: Self.cookie(named: cookieName, in: exchange.headers))
    }

    /// `host[:port]` as a `Host` header names it (the scheme's default port left out).
    private static func authority(host: String, port: Int?, scheme: String) -> String {
        let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        guard let port, port != (scheme == "https" ? 443 : 80) else { return name.lowercased() }
        return "\(name.lowercased()):\(port)"
    }

    static func cookie(named name: String, in headers: HTTPFields) -> String? {
        for header in headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { return value }
            }
        }
        return nil
    }

    /// The `Set-Cookie` value that keeps `refreshToken` for `lifetime`.
    func setting(_ refreshToken: String, lifetime: TimeInterval) -> String {
        attributes("\(Self.cookieName)=\(refreshToken)", maxAge: Int(exactly: lifetime.rounded()) ?? 0)
    }

    /// The `Set-Cookie` value that removes the cookie.
    var clearing: String { attributes("\(Self.cookieName)=", maxAge: 0) }

    private func attributes(_ pair: String, maxAge: Int) -> String {
        "\(pair); Path=\(Self.cookiePath); Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// `output` for this browser: `tokens.refresh_token` moved from the JSON into the cookie.
    func answer<Output: CarriesTokens>(_ output: Output) throws -> Answer<SessionAnswer<Output>> {
        var value = try JSONCoding.makeDecoder().decode(JSONValue.self, from: JSONCoding.makeEncoder().encode(output))
        if case .object(var root) = value, case .object(var tokens)? = root["tokens"] {
            tokens.removeValue(forKey: "refresh_token")
            root["tokens"] = .object(tokens)
            value = .object(root)
        }
        return Answer(
            data: .browser(value),
            headers: [.setCookie: setting(output.tokens.refreshToken, lifetime: SessionStore.refreshLifetime)])
    }

    /// `output` as the client asked for it: unchanged for an app (`browser` nil), or for a browser.
    static func answer<Output: CarriesTokens>(_ output: Output, for browser: BrowserSession?) throws -> Answer<SessionAnswer<Output>> {
        guard let browser else { return Answer(data: .app(output)) }
        return try browser.answer(output)
    }
}

/// An answer that carries a new session's tokens.
protocol CarriesTokens: Encodable, Sendable {
    var tokens: TokenPair { get }
}

extension SignInResult: CarriesTokens {}
extension TokensResult: CarriesTokens {}
extension IdentitySignInResult: CarriesTokens {}

/// The `data` of a session answer: the app's as it is, or the browser's without its refresh token.
enum SessionAnswer<Output: Encodable & Sendable>: Encodable, Sendable {
    case app(Output)
    case browser(JSONValue)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .app(let output): try output.encode(to: encoder)
        case .browser(let value): try value.encode(to: encoder)
        }
    }
}
