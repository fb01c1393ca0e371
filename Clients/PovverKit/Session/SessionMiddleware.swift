import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Signs every request of an operation that needs the user (all but the sign-in family) with the session's access
/// token, and when the server answers `UNAUTHENTICATED` (a token expired early, or revoked and reissued) refreshes
/// once through the single-flight controller and sends the request again.
struct SessionMiddleware: ClientMiddleware {
    let sessions: SessionController

    /// Operations that take no access token (docs/api.md "Who is calling": open).
    static let openOperations: Set<String> = [
        "signUp", "signIn", "signInWithIdp", "refreshToken", "sendPasswordReset", "resetPassword", "applyEmailChange",
        "appStoreWebhook", "health", "ready", "metrics", "jwks.json", "openapi.json",
    ]
    /// A refusal's body is read to tell `UNAUTHENTICATED` from other 401s (a wrong password); envelopes are small.
    static let refusalLimit = 64 * 1024

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard !Self.openOperations.contains(operationID) else { return try await next(request, body, baseURL) }
        var request = request
        let token = try await sessions.accessToken()
        request.headerFields[.authorization] = "Bearer \(token)"
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status == .unauthorized, body?.iterationBehavior != .single else { return (response, responseBody) }
        let bytes: [UInt8] = if let responseBody { try await [UInt8](collecting: responseBody, upTo: Self.refusalLimit) } else { [] }
        guard Self.code(of: bytes) == "UNAUTHENTICATED" else { return (response, HTTPBody(bytes)) }
        let renewed = try await sessions.refresh(replacing: token)
        request.headerFields[.authorization] = "Bearer \(renewed.accessToken)"
        return try await next(request, body, baseURL)
    }

    private struct Envelope: Decodable {
        struct Failure: Decodable { var code: String }
        var error: Failure?
    }

    static func code(of bytes: [UInt8]) -> String? {
        (try? JSONDecoder().decode(Envelope.self, from: Data(bytes)))?.error?.code
    }
}
