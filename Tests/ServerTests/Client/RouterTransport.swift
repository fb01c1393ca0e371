import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime

/// The generated client's transport for the tests: each request goes to the test server's client (straight to the
/// router, or over the live socket), so a flow test speaks the document's operations as the app does.
struct RouterTransport: ClientTransport {
    let client: any TestClientProtocol

    /// Requests in the tests are small; a body over this is a test's mistake, refused rather than buffered.
    static let bodyLimit = 64 * 1024 * 1024

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        let bytes: [UInt8] = if let body { try await [UInt8](collecting: body, upTo: Self.bodyLimit) } else { [] }
        let response = try await client.execute(
            uri: request.path ?? "/", method: request.method, headers: request.headerFields, body: ByteBuffer(bytes: bytes))
        return (HTTPResponse(status: response.status, headerFields: response.headers), HTTPBody(Array(response.body.readableBytesView)))
    }
}
