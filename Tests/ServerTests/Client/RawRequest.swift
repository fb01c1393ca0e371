import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform

/// The answer to a request sent outside the generated client, its body as `JSONValue`.
struct RawReply: Sendable {
    let status: HTTPResponse.Status
    let body: JSONValue
    let headers: HTTPFields

    /// The envelope's `data`.
    var data: JSONValue { body["data"] ?? .null }
    /// The envelope's error code, for a refusal.
    var code: String? { body["error"]?["code"]?.stringValue }
    var message: String? { body["error"]?["message"]?.stringValue }
}

extension TestClientProtocol {
    /// Posts `body` to an operation as it is, for what the generated client cannot say by design: bodies outside the
    /// document (unknown fields, wrong types, hostile bytes) and an explicit null (the client omits a nil field; some
    /// operations tell null, "clear it", from absent, "leave it").
    func send(_ operation: String, _ body: JSONValue, token: String? = nil, headers: HTTPFields = [:]) async throws -> RawReply {
        try await send(operation, bytes: ByteBuffer(bytes: try JSONEncoder().encode(body)), token: token, headers: headers)
    }

    /// Posts raw bytes to an operation (a body that is not JSON at all, or cut short).
    func send(_ operation: String, bytes: ByteBuffer, token: String? = nil, headers: HTTPFields = [:]) async throws -> RawReply {
        var headers = headers
        headers[.contentType] = headers[.contentType] ?? "application/json"
        if let token { headers[.authorization] = "Bearer \(token)" }
        let response = try await execute(uri: "/\(operation)", method: .post, headers: headers, body: bytes)
        let body = (try? JSONDecoder().decode(JSONValue.self, from: Data(response.body.readableBytesView))) ?? .null
        return RawReply(status: response.status, body: body, headers: response.headers)
    }
}
