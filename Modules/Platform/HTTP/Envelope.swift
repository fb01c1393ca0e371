import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The response envelope of docs/api.md.
public enum Envelope {
    struct Success<Data: Encodable>: Encodable {
        let success = true
        let data: Data
    }

    struct Failure: Encodable {
        struct Body: Encodable {
            let code: String
            let message: String
            let details: [String: String]?
        }
        let success = false
        let error: Body
    }

    /// `200 {"success": true, "data": …}`. Data already encoded (`EncodedJSON`) is carried as it is.
    public static func success(_ data: some Encodable) throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: try successBody(data)))
    }

    static func successBody(_ data: some Encodable) throws -> ByteBuffer {
        guard let encoded = data as? EncodedJSON else {
            return ByteBuffer(bytes: try JSONCoding.makeEncoder().encode(Success(data: data)))
        }
        // As the encoder writes the envelope (sorted keys): {"data":…,"success":true}.
        var buffer = ByteBuffer()
        buffer.reserveCapacity(encoded.bytes.count + 26)
        buffer.writeStaticString(#"{"data":"#)
        buffer.writeBytes(encoded.bytes)
        buffer.writeStaticString(#","success":true}"#)
        return buffer
    }

    /// `{"success": false, "error": {code, message, details}}` with the code's status.
    public static func failure(_ error: ServiceError) -> Response {
        let body = Failure(
            error: .init(code: error.code.rawValue, message: error.message, details: error.details.isEmpty ? nil : error.details))
        let bytes = (try? JSONCoding.makeEncoder().encode(body)) ?? Data(#"{"success":false}"#.utf8)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        // A refusal that ends on its own (RATE_LIMITED, UNAVAILABLE) says when, as HTTP clients and proxies read it.
        if let seconds = error.details["retry_after_seconds"] { headers[.retryAfter] = seconds }
        // A method the path does not take: the methods it does, as RFC 9110 asks of a 405.
        if error.code == .methodNotAllowed, let allowed = error.details["allowed"] { headers[.allow] = allowed }
        return Response(
            status: HTTPStatusMapping.status(for: error.code), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
