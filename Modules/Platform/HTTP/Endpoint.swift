import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What a handler knows about the call besides its input.
public struct CallContext: Sendable {
    /// Who is calling; nil on open endpoints.
    public var principal: Principal?
    public var requestID: String
    public var logger: Logger
    /// Who the client is for rate limits, when known: its IPv4 address, or its IPv6 /64 network; behind trusted
    /// proxies, the address they forwarded (`ClientAddress`). Worked out only when asked for.
    public var clientAddress: String? {
        switch client {
        case .text(let text): text
        case .socket(let address, let forwardedFor, let trusted):
            ClientAddress.key(peer: address?.ipAddress, forwardedFor: forwardedFor, trusted: trusted)
        }
    }

    private enum Client: Sendable {
        case text(String?)
        case socket(SocketAddress?, forwardedFor: String?, trusted: TrustedProxies)
    }

    private let client: Client

    public init(principal: Principal?, requestID: String, logger: Logger, clientAddress: String?) {
        self.principal = principal
        self.requestID = requestID
        self.logger = logger
        self.client = .text(clientAddress)
    }

    init(principal: Principal?, requestID: String, logger: Logger, remoteAddress: SocketAddress?, forwardedFor: String?, trusted: TrustedProxies) {
        self.principal = principal
        self.requestID = requestID
        self.logger = logger
        self.client = .socket(remoteAddress, forwardedFor: forwardedFor, trusted: trusted)
    }

    /// The authenticated user's id. Throws `UNAUTHENTICATED` on an open endpoint.
    public func userId() throws -> String {
        guard let principal else { throw ServiceError(.unauthenticated) }
        return principal.userId
    }
}

/// One route of the HTTP contract, with what the OpenAPI document says about it.
public struct Endpoint: Sendable {
    /// Who may call it.
    public enum Access: Sendable, Equatable {
        /// No credentials (sign-in family, webhooks, operations).
        case open
        /// Bearer lane or service lane, for a confirmed account.
        case user
        /// Bearer lane only, for a confirmed account: the account's own sign-in methods, email, password and
        /// deletion. The service lane (an agent acting for the user) is `PERMISSION_DENIED`: it must never be able
        /// to add a way in, or lock the user out.
        case account
        /// Bearer lane only, also for an account not confirmed yet (confirm, cancel, sign out).
        case unconfirmedUser
    }

    public var path: String
    public var methods: [HTTPRequest.Method]
    public var access: Access
    public var tag: String
    public var summary: String
    /// The JSON body (POST) / query (GET) schema; nil when the endpoint takes none.
    public var requestSchema: JSONValue?
    /// The schema of `data` in the success envelope, or of the whole body when `enveloped` is false.
    public var responseSchema: JSONValue
    public var responseContentType: String
    public var enveloped: Bool
    public var respond: @Sendable (Request, APIRequestContext, EndpointSettings) async throws -> Response

    public init(
        path: String, methods: [HTTPRequest.Method], access: Access, tag: String, summary: String,
        requestSchema: JSONValue?, responseSchema: JSONValue, responseContentType: String = "application/json",
        enveloped: Bool, respond: @escaping @Sendable (Request, APIRequestContext, EndpointSettings) async throws -> Response
    ) {
        self.path = path
        self.methods = methods
        self.access = access
        self.tag = tag
        self.summary = summary
        self.requestSchema = requestSchema
        self.responseSchema = responseSchema
        self.responseContentType = responseContentType
        self.enveloped = enveloped
        self.respond = respond
    }

    /// An RPC endpoint `POST /{name}` (and `GET` with query parameters when `readOnly`): decodes `Input` from
    /// JSON, runs `handler` and answers `{"success": true, "data": Output}`.
    public static func rpc<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, access: Access, tag: String, readOnly: Bool = false, summary: String,
        request: JSONValue, response: JSONValue, input: Input.Type = Input.self,
        _ handler: @escaping @Sendable (Input, CallContext) async throws -> Output
    ) -> Endpoint {
        let querySchema = readOnly ? request : nil
        return Endpoint(
            path: "/\(name)", methods: readOnly ? [.get, .post] : [.post], access: access, tag: tag, summary: summary,
            requestSchema: request, responseSchema: response, enveloped: true
        ) { request, context, settings in
            let data = try await RequestBody.json(request, context: context, schema: querySchema, settings: settings)
            let input: Input
            if let flat = Input.self as? any FlatJSONDecodable.Type, let object = FlatJSONObject(data),
                let value = flat.init(flat: object) as? Input
            {
                input = value
            } else {
                input = try JSONCoding.makeDecoder().decode(Input.self, from: data)
            }
            // The header is only of use (and only read) behind trusted proxies.
            let forwardedFor = settings.trustedProxies.isEmpty ? nil : request.headers[values: .xForwardedFor].joined(separator: ",")
            let call = CallContext(
                principal: context.principal, requestID: context.requestID, logger: context.logger, remoteAddress: context.remoteAddress,
                forwardedFor: forwardedFor, trusted: settings.trustedProxies)
            let output = try await handler(input, call)
            return try Envelope.success(output)
        }
    }

    /// A plain `GET` route answering raw bytes (operations endpoints).
    public static func get(
        _ path: String, tag: String, summary: String, response: JSONValue, contentType: String = "application/json",
        _ handler: @escaping @Sendable (Request, APIRequestContext) async throws -> Response
    ) -> Endpoint {
        Endpoint(
            path: path, methods: [.get], access: .open, tag: tag, summary: summary, requestSchema: nil,
            responseSchema: response, responseContentType: contentType, enveloped: false
        ) { request, context, _ in try await handler(request, context) }
    }
}

/// Per-server settings endpoints need while answering.
public struct EndpointSettings: Sendable {
    public var maxBodyBytes: Int
    /// Proxies whose `X-Forwarded-For` names the client (`CallContext.clientAddress`).
    public var trustedProxies: TrustedProxies

    public init(maxBodyBytes: Int = 1024 * 1024, trustedProxies: TrustedProxies = .none) {
        self.maxBodyBytes = maxBodyBytes
        self.trustedProxies = trustedProxies
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

/// Reading request bodies.
enum RequestBody {
    /// The JSON to decode: the body of a POST (an empty body reads as `{}`), or for a GET the query string
    /// turned into a JSON object typed by the endpoint's schema.
    static func json(_ request: Request, context: APIRequestContext, schema: JSONValue?, settings: EndpointSettings) async throws -> Data {
        let data = try await body(request, schema: schema, settings: settings)
        try refuseNUL(in: data)
        return data
    }

    private static func body(_ request: Request, schema: JSONValue?, settings: EndpointSettings) async throws -> Data {
        // HEAD is answered by the GET route (the router generates it), so it reads its input as GET does.
        if request.method == .get || request.method == .head {
            return try queryAsJSON(request.uri.queryParameters, schema: schema)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: settings.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw ServiceError(
                .payloadTooLarge, "The request body is larger than \(settings.maxBodyBytes) bytes.",
                details: ["limit_bytes": "\(settings.maxBodyBytes)"])
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ServiceError(
                .payloadTooLarge, "The request body is larger than \(settings.maxBodyBytes) bytes.",
                details: ["limit_bytes": "\(settings.maxBodyBytes)"])
        }
        if buffer.readableBytes == 0 { return Data("{}".utf8) }
        return Data(buffer.readableBytesView)
    }

    /// No text of the API has a use for the NUL character, and PostgreSQL cannot store it in a text column: a
    /// string or key holding one (`\u0000`, or a raw 0 byte) is `INVALID_ARGUMENT` naming where it is, on
    /// every engine, before anything reads the request. Most bodies hold no backslash and no 0 byte at all,
    /// which two `memchr`s tell.
    static func refuseNUL(in data: Data) throws {
        let suspect = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress, raw.count > 0 else { return false }
            return memchr(base, 0, raw.count) != nil || memchr(base, Int32(UInt8(ascii: "\\")), raw.count) != nil
        }
        guard suspect, let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            return  // malformed JSON is the decoder's to report
        }
        if let path = pathOfNUL(in: root, at: "") {
            throw ServiceError.invalidArgument(field: path.isEmpty ? "body" : path, reason: "must not contain the NUL character")
        }
    }

    /// Where the first string or key holding NUL is (`exercises[0].name`), or nil.
    private static func pathOfNUL(in value: Any, at path: String) -> String? {
        switch value {
        case let text as String:
            return text.utf8.contains(0) ? path : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if key.utf8.contains(0) { return child }
                if let found = pathOfNUL(in: object[key]!, at: child) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, item) in array.enumerated() {
                if let found = pathOfNUL(in: item, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }

    static func queryAsJSON(_ parameters: Parameters, schema: JSONValue?) throws -> Data {
        var object: [String: JSONValue] = [:]
        for (key, value) in parameters {
            let name = String(key)
            let text = String(value)
            switch Schema.propertyType(schema, name) {
            case "integer":
                guard let number = Int(text) else {
                    throw ServiceError.invalidArgument(field: name, reason: "expected an integer")
                }
                object[name] = .int(number)
            case "number":
                guard let number = Double(text) else {
                    throw ServiceError.invalidArgument(field: name, reason: "expected a number")
                }
                object[name] = .double(number)
            case "boolean":
                guard let flag = Bool(text.lowercased()) else {
                    throw ServiceError.invalidArgument(field: name, reason: "expected true or false")
                }
                object[name] = .bool(flag)
            case "array":
                let items = text.split(separator: ",").map { JSONValue.string(String($0)) }
                object[name] = .array(items)
            default:
                object[name] = .string(text)
            }
        }
        return try JSONEncoder().encode(JSONValue.object(object))
    }
}

/// A JSON value already encoded (by `JSONWriter`, or stored as first sent): the envelope carries its bytes as
/// they are instead of encoding the value again.
public struct EncodedJSON: Encodable, Sendable, Equatable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Only for an encoder other than the envelope's: the bytes are read back and encoded as any JSON value.
    public func encode(to encoder: any Encoder) throws {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes)).encode(to: encoder)
    }
}

/// The response envelope of `API.md`.
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
        return Response(
            status: HTTPStatusMapping.status(for: error.code), headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
