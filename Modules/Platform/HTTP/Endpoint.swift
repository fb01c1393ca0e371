import Contracts
import Foundation
import HTTPTypes
import Hummingbird

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
    /// The operations its answer leads to (`EndpointLink`), declared in the OpenAPI document.
    public var links: [EndpointLink] = []
    /// Whether `/openapi.json` lists it: every route of the HTTP contract is; files served to a browser (the web
    /// app) are not part of the contract and are left out.
    public var documented = true
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

    /// An RPC endpoint `POST /{name}` (and `GET` with query parameters when `readOnly`): refuses a field `request`
    /// does not list (`KnownFields`), decodes `Input` from JSON, runs `handler` and answers
    /// `{"success": true, "data": Output}`.
    /// `maxBodyBytes`: this endpoint's own body limit, in place of the server's (`POVVER_MAX_BODY_BYTES`), for the
    /// few that take files.
    public static func rpc<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, access: Access, tag: String, readOnly: Bool = false, summary: String,
        request: JSONValue, response: JSONValue, input: Input.Type = Input.self, maxBodyBytes: Int? = nil,
        _ handler: @escaping @Sendable (Input, CallContext) async throws -> Output
    ) -> Endpoint {
        exchange(
            name, access: access, tag: tag, readOnly: readOnly, summary: summary, request: request, response: response, input: input,
            maxBodyBytes: maxBodyBytes
        ) { input, call, _ in Answer(data: try await handler(input, call)) }
    }

    /// An RPC endpoint as `rpc`, whose handler also reads the request's headers and adds headers to its answer
    /// (a browser's session cookie).
    public static func exchange<Input: Decodable & Sendable, Output: Encodable & Sendable>(
        _ name: String, access: Access, tag: String, readOnly: Bool = false, summary: String,
        request: JSONValue, response: JSONValue, input: Input.Type = Input.self, maxBodyBytes: Int? = nil,
        _ handler: @escaping @Sendable (Input, CallContext, HTTPExchange) async throws -> Answer<Output>
    ) -> Endpoint {
        let querySchema = readOnly ? request : nil
        let known = KnownFields(schema: request)
        return Endpoint(
            path: "/\(name)", methods: readOnly ? [.get, .post] : [.post], access: access, tag: tag, summary: summary,
            requestSchema: request, responseSchema: response, enveloped: true
        ) { request, context, serverSettings in
            var settings = serverSettings
            if let maxBodyBytes { settings.maxBodyBytes = maxBodyBytes }
            let data = try await RequestBody.json(request, context: context, schema: querySchema, settings: settings)
            try known.check(data)
            let input = try JSONCoding.makeDecoder().decode(Input.self, from: data)
            // The header is only of use (and only read) behind trusted proxies.
            let forwardedFor = settings.trustedProxies.isEmpty ? nil : request.headers[values: .xForwardedFor].joined(separator: ",")
            let call = CallContext(
                principal: context.principal, requestID: context.requestID, logger: context.logger, remoteAddress: context.remoteAddress,
                forwardedFor: forwardedFor, trusted: settings.trustedProxies)
            let answer = try await handler(input, call, HTTPExchange(headers: request.headers, authority: request.head.authority))
            var response = try Envelope.success(answer.data)
            response.headers.append(contentsOf: answer.headers)
            return response
        }
    }

    /// A streaming RPC endpoint `POST /{name}`: decodes `Input` as `rpc` does (a bad body is the usual error
    /// envelope), then answers `text/event-stream` with the events `handler` produces (`ServerSentEvents`: an
    /// error thrown while streaming becomes an `error` event that ends the stream).
    public static func stream<Input: Decodable & Sendable, Events: AsyncSequence & Sendable>(
        _ name: String, access: Access, tag: String, summary: String, request: JSONValue, response: JSONValue,
        input: Input.Type = Input.self, _ handler: @escaping @Sendable (Input, CallContext) async throws -> Events
    ) -> Endpoint where Events.Element == ServerSentEvent {
        let known = KnownFields(schema: request)
        return Endpoint(
            path: "/\(name)", methods: [.post], access: access, tag: tag, summary: summary, requestSchema: request,
            responseSchema: response, responseContentType: "text/event-stream", enveloped: false
        ) { request, context, settings in
            let data = try await RequestBody.json(request, context: context, schema: nil, settings: settings)
            try known.check(data)
            let input = try JSONCoding.makeDecoder().decode(Input.self, from: data)
            let forwardedFor = settings.trustedProxies.isEmpty ? nil : request.headers[values: .xForwardedFor].joined(separator: ",")
            let call = CallContext(
                principal: context.principal, requestID: context.requestID, logger: context.logger, remoteAddress: context.remoteAddress,
                forwardedFor: forwardedFor, trusted: settings.trustedProxies)
            return ServerSentEvents.response(try await handler(input, call), logger: context.logger)
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
