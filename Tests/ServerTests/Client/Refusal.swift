import Foundation
import HTTPTypes
import OpenAPIRuntime
import PovverClient

/// The server's refusal of a call, read from its envelope (docs/api.md "Errors"), whatever the operation.
struct Refusal: Sendable, CustomStringConvertible {
    let status: Int
    let code: String
    let message: String
    let details: [String: String]
    let headers: HTTPFields

    var description: String { "\(status) \(code): \(message) \(details)" }
}

/// Runs `call` on `client` and answers the refusal it met: the call must be refused (a success is recorded as a test
/// failure by the caller's `#require`, answered here as `nil`).
///
///     let refusal = try #require(await refused { try await api.createTemplate(body: .json(...)) })
///     #expect(refusal.code == "INVALID_ARGUMENT")
func refused(_ call: @Sendable () async throws -> some Sendable) async throws -> Refusal? {
    let box = RefusalRecorder.Box()
    try await RefusalRecorder.$current.withValue(box) { _ = try await call() }
    return box.refusal
}

/// Records a refusal (status 400 or over, with the envelope) into the box of the task that made the call, so
/// concurrent calls of one test each see their own.
struct RefusalRecorder: ClientMiddleware {
    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: Refusal?
        var refusal: Refusal? { lock.withLock { recorded } }
        func record(_ refusal: Refusal) { lock.withLock { recorded = refusal } }
    }

    @TaskLocal static var current: Box?

    private struct Envelope: Decodable {
        struct Failure: Decodable {
            var code: String
            var message: String
            var details: [String: String]?
        }
        var error: Failure
    }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let box = Self.current, response.status.code >= 400 else { return (response, responseBody) }
        let bytes: [UInt8] = if let responseBody { try await [UInt8](collecting: responseBody, upTo: 1 << 20) } else { [] }
        if let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(bytes)) {
            box.record(
                Refusal(
                    status: response.status.code, code: envelope.error.code, message: envelope.error.message,
                    details: envelope.error.details ?? [:], headers: response.headerFields))
        }
        return (response, HTTPBody(bytes))
    }
}
