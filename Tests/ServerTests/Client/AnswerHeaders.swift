import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import PovverClient

/// The header fields of the answers a client got, newest last: for what the document does not declare (the web
/// app's `Set-Cookie`, which only a browser session is sent).
final class AnswerHeaders: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [HTTPFields] = []

    /// The newest answer's fields (none before the first answer).
    var last: HTTPFields { lock.withLock { recorded.last ?? [:] } }

    func record(_ fields: HTTPFields) { lock.withLock { recorded.append(fields) } }
}

/// Records each answer's header fields into an `AnswerHeaders`.
struct AnswerHeadersRecorder: ClientMiddleware {
    let answers: AnswerHeaders

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        answers.record(response.headerFields)
        return (response, responseBody)
    }
}

extension TestClientProtocol {
    /// The generated client as `api(_:headers:)` makes it, also keeping each answer's header fields in `answers`.
    func api(_ token: String? = nil, headers: HTTPFields = [:], answers: AnswerHeaders) -> Client {
        var headers = headers
        if let token { headers[.authorization] = "Bearer \(token)" }
        return Client.povver(
            serverURL: TestAPI.serverURL, transport: RouterTransport(client: self),
            middlewares: [HeaderMiddleware(headers: headers), RefusalRecorder(), AnswerHeadersRecorder(answers: answers)])
    }
}
