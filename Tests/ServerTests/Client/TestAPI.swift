import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import PovverClient

extension TestClientProtocol {
    /// The generated client on this test server, signed with `token` when there is one and sending `headers` with
    /// every request (an idempotency key, a device's address).
    func api(_ token: String? = nil, headers: HTTPFields = [:]) -> Client {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        return Client.povver(
            serverURL: TestAPI.serverURL, transport: RouterTransport(client: self),
            middlewares: [HeaderMiddleware(headers: headers), RefusalRecorder()])
    }
}

enum TestAPI {
    /// The router ignores the host; the document's paths are relative to it.
    static let serverURL = URL(string: "http://povver.test")!
}

/// Adds fixed header fields to every request.
struct HeaderMiddleware: ClientMiddleware {
    let headers: HTTPFields

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for field in headers { request.headerFields[field.name] = field.value }
        return try await next(request, body, baseURL)
    }
}
