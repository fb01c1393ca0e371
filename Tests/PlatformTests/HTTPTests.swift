import Contracts
import Fakes
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Platform
import Testing

struct EchoInput: Decodable, Sendable {
    var name: String
    var count: Int
    var limit: Int?
    var tags: [String]?
}

struct EchoOutput: Encodable, Sendable {
    var name: String
    var count: Int
    var limit: Int?
    var user: String?
}

/// A router with a few test endpoints, the real middleware stack and fake auth.
struct HTTPFixture {
    let clock = FakeWallClock()
    let verifier: FakeAccessTokenVerifier
    let accounts = FakeAccountDirectory([
        AccountSummary(
            userId: "u-agent-target", email: "a@b.co", emailVerified: true, providers: [.password], originalProvider: "email",
            createdAt: Date())
    ])
    let metrics = ServerMetrics()

    init() {
        verifier = FakeAccessTokenVerifier(clock: clock)
    }

    var endpoints: [Endpoint] {
        let echo = Endpoint.rpc(
            "echo", access: .open, tag: "Test", readOnly: true, summary: "Echo.",
            request: Schema.object(
                ["name": Schema.string, "count": Schema.integer, "limit": Schema.integer, "note": Schema.string],
                required: ["name", "count"]),
            response: Schema.any, input: EchoInput.self
        ) { input, call in
            EchoOutput(name: input.name, count: input.count, limit: input.limit, user: call.principal?.userId)
        }
        let whoami = Endpoint.rpc(
            "whoami", access: .user, tag: "Test", readOnly: true, summary: "Who am I.", request: Schema.empty,
            response: Schema.any, input: JSONValue.self
        ) { _, call in
            ["user_id": try call.userId()] as [String: String]
        }
        let stream = Endpoint(
            path: "/stream", methods: [.post], access: .open, tag: "Test", summary: "SSE.", requestSchema: nil,
            responseSchema: Schema.string,
            responseContentType: "text/event-stream", enveloped: false
        ) { _, _, _ in
            let events = AsyncStream<ServerSentEvent> { continuation in
                continuation.yield(ServerSentEvent(id: 1, data: #"{"type":"message_start"}"#))
                continuation.yield(ServerSentEvent(id: 2, data: #"{"type":"message_end"}"#))
                continuation.finish()
            }
            return ServerSentEvents.response(events)
        }
        let boom = Endpoint.rpc(
            "boom", access: .open, tag: "Test", summary: "Fails.", request: Schema.empty, response: Schema.any, input: JSONValue.self
        ) {
            _, _ -> [String: String] in
            struct Secret: Error { let password = "hunter2" }
            throw Secret()
        }
        let mine = Endpoint.rpc(
            "mine", access: .account, tag: "Test", summary: "The account's own.", request: Schema.empty,
            response: Schema.any, input: JSONValue.self
        ) { _, call in
            ["user_id": try call.userId()] as [String: String]
        }
        let fault = Endpoint.rpc(
            "fault", access: .open, tag: "Test", summary: "A fault.", request: Schema.empty, response: Schema.any, input: JSONValue.self
        ) {
            _, _ -> [String: String] in
            throw ServiceError(.internalError, "A stored row is corrupt.", details: ["row": "r-42"])
        }
        return [echo, whoami, mine, stream, boom, fault] + OperationsEndpoints.make(ready: { true }, metrics: metrics)
    }

    func router() -> Router<APIRequestContext> {
        APIRouter.build(
            endpoints: endpoints,
            lanes: AuthLaneMiddleware(verifier: verifier, accounts: accounts, serviceKeys: ServiceKeySet(keys: ["service-key-1"])),
            metrics: metrics, ids: SequentialIDGenerator(prefix: "req"), settings: EndpointSettings(maxBodyBytes: 1024))
    }
}

struct ErrorBody: Decodable {
    struct Inner: Decodable {
        var code: String
        var message: String
        var details: [String: String]?
    }
    var success: Bool
    var error: Inner
}

func decodeError(_ response: TestResponse) throws -> ErrorBody {
    try JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
}

@Suite struct HTTPTests {
    let fixture = HTTPFixture()

    func post(_ client: some TestClientProtocol, _ path: String, _ body: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test func successUsesTheEnvelope() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await post(client, "/echo", #"{"name":"a","count":2}"#)
            #expect(response.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
            #expect(json?["success"] as? Bool == true)
            #expect((json?["data"] as? [String: Any])?["count"] as? Int == 2)
        }
    }

    @Test func malformedJSONIsInvalidArgument() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await post(client, "/echo", #"{"name": "a", "count": "#)
            #expect(response.status == .badRequest)
            #expect(try decodeError(response).error.code == "INVALID_ARGUMENT")
        }
    }

    @Test func wrongTypeNamesTheField() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await post(client, "/echo", #"{"name": "a", "count": "two"}"#)
            #expect(response.status == .badRequest)
            let error = try decodeError(response).error
            #expect(error.code == "INVALID_ARGUMENT")
            #expect(error.details?["field"] == "count")
        }
    }

    @Test func missingFieldNamesTheField() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let error = try decodeError(try await post(client, "/echo", #"{"name": "a"}"#)).error
            #expect(error.code == "INVALID_ARGUMENT")
            #expect(error.details?["field"] == "count")
            #expect(error.details?["reason"] == "missing")
        }
    }

    @Test func nonUTF8BodyIsInvalidArgument() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            var buffer = ByteBuffer()
            buffer.writeBytes([0x7B, 0x22, 0x6E, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D])
            let response = try await client.execute(uri: "/echo", method: .post, body: buffer)
            #expect(response.status == .badRequest)
            #expect(try decodeError(response).error.code == "INVALID_ARGUMENT")
        }
    }

    @Test func oversizedBodyIsPayloadTooLarge() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let big = #"{"name":""# + String(repeating: "x", count: 5000) + #"","count":1}"#
            let response = try await post(client, "/echo", big)
            #expect(response.status == .contentTooLarge)
            #expect(try decodeError(response).error.code == "PAYLOAD_TOO_LARGE")
            let after = try await post(client, "/echo", #"{"name":"a","count":1}"#)
            #expect(after.status == .ok, "the server keeps serving")
        }
    }

    @Test func getReadsTypedQueryParameters() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await client.execute(uri: "/echo?name=squat&count=3&limit=10", method: .get)
            #expect(response.status == .ok)
            let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
            let data = json?["data"] as? [String: Any]
            #expect(data?["count"] as? Int == 3)
            #expect(data?["limit"] as? Int == 10)
            let bad = try await client.execute(uri: "/echo?name=squat&count=three", method: .get)
            #expect(try decodeError(bad).error.details?["field"] == "count")
        }
    }

    @Test func unknownRouteIsNotFoundEnvelope() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await post(client, "/noSuchFunction", "{}")
            #expect(response.status == .notFound)
            #expect(try decodeError(response).error.code == "NOT_FOUND")
        }
    }

    @Test func unexpectedErrorsAreInternalWithoutDetails() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await post(client, "/boom", "{}")
            #expect(response.status == .internalServerError)
            let text = String(buffer: response.body)
            #expect(text.contains("INTERNAL"))
            #expect(!text.contains("hunter2"))
            #expect(!text.contains("Secret"))
        }
    }

    @Test func bearerLaneTakesTheUserFromTheTokenOnly() async throws {
        let token = await fixture.verifier.issue(userId: "u-1")
        try await Application(router: fixture.router()).test(.router) { client in
            let missing = try await post(client, "/whoami", "{}")
            #expect(missing.status == .unauthorized)
            #expect(try decodeError(missing).error.code == "UNAUTHENTICATED")

            let garbage = try await post(client, "/whoami", "{}", headers: [.authorization: "Bearer nope"])
            #expect(garbage.status == .unauthorized)

            let malformed = try await post(client, "/whoami", "{}", headers: [.authorization: "Basic abc"])
            #expect(malformed.status == .unauthorized)

            let ok = try await post(
                client, "/whoami", #"{"userId":"u-evil","user_id":"u-evil"}"#, headers: [.authorization: "Bearer \(token)"])
            #expect(ok.status == .ok)
            #expect(String(buffer: ok.body).contains("u-1"))
            #expect(!String(buffer: ok.body).contains("u-evil"))
        }
    }

    @Test func expiredTokenIsUnauthenticated() async throws {
        let token = await fixture.verifier.issue(userId: "u-1", lifetime: 60)
        fixture.clock.advance(by: 61)
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await post(client, "/whoami", "{}", headers: [.authorization: "Bearer \(token)"])
            #expect(response.status == .unauthorized)
        }
    }

    @Test func serviceLaneNeedsAValidKeyAndAnExistingUser() async throws {
        let key = HTTPField.Name("X-API-Key")!
        let user = HTTPField.Name("X-User-Id")!
        try await Application(router: fixture.router()).test(.router) { client in
            let ok = try await post(client, "/whoami", "{}", headers: [key: "service-key-1", user: "u-agent-target"])
            #expect(ok.status == .ok)
            #expect(String(buffer: ok.body).contains("u-agent-target"))

            let wrongKey = try await post(client, "/whoami", "{}", headers: [key: "service-key-2", user: "u-agent-target"])
            #expect(wrongKey.status == .unauthorized)

            let noUser = try await post(client, "/whoami", "{}", headers: [key: "service-key-1"])
            #expect(noUser.status == .unauthorized)

            let unknownUser = try await post(client, "/whoami", "{}", headers: [key: "service-key-1", user: "u-nobody"])
            #expect(unknownUser.status == .unauthorized)
        }
    }

    /// An account endpoint (sign-in methods, password, email, deletion) takes the user's own session only.
    @Test func accountEndpointsRefuseTheServiceLane() async throws {
        let token = await fixture.verifier.issue(userId: "u-agent-target")
        try await Application(router: fixture.router()).test(.router) { client in
            let own = try await post(client, "/mine", "{}", headers: [.authorization: "Bearer \(token)"])
            #expect(own.status == .ok)
            let lane = try await post(
                client, "/mine", "{}",
                headers: [HTTPField.Name("X-API-Key")!: "service-key-1", HTTPField.Name("X-User-Id")!: "u-agent-target"])
            #expect(lane.status == .forbidden)
            #expect(try decodeError(lane).error.code == "PERMISSION_DENIED")
            #expect(try await post(client, "/mine", "{}").status == .unauthorized)
        }
    }

    /// An `INTERNAL` raised on purpose is answered like any other fault: its message and details stay in the log.
    @Test func internalServiceErrorsKeepTheirDetailsToTheLog() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let response = try await post(client, "/fault", "{}")
            #expect(response.status == .internalServerError)
            let error = try decodeError(response).error
            #expect(error.code == "INTERNAL")
            #expect(error.message == ErrorCode.internalError.defaultMessage)
            #expect(error.details == nil || error.details?.isEmpty == true)
            #expect(!String(buffer: response.body).contains("r-42"))
        }
    }

    /// A number, string or array is no body of this API, also where the input has no required field (which a
    /// decoder could otherwise read from nothing): each is refused, as the document's object schemas say.
    @Test func aBodyThatIsNoObjectIsRefused() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            for body in ["42", " [1, 2]", "\"text\"", "true"] {
                let error = try decodeError(try await post(client, "/echo", body)).error
                #expect(error.code == "INVALID_ARGUMENT", "\(body)")
                #expect(error.message == "The request body must be a JSON object.", "\(body)")
            }
        }
    }

    /// A lone UTF-16 surrogate escape is valid JSON syntax that names no character: it is read as U+FFFD
    /// wherever it is (the decoder refused the whole body as "not valid JSON" before), while a pair is one
    /// character and an escaped backslash before `ud800` is ordinary text.
    @Test func loneSurrogateEscapesReadAsTheReplacementCharacter() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let cases: [(String, String)] = [
                (#"{"name":"a\ud800b","count":1}"#, "a\u{FFFD}b"),
                (#"{"name":"\uDC00","count":1}"#, "\u{FFFD}"),
                (#"{"name":"\ud800\ud800\udc00","count":1}"#, "\u{FFFD}\u{10000}"),
                (#"{"name":"\\ud800","count":1}"#, #"\ud800"#),
                (#"{"name":"x","count":1,"note":"\udbff"}"#, "x"),
            ]
            for (body, name) in cases {
                let response = try await post(client, "/echo", body)
                #expect(response.status == .ok, "\(body): \(String(buffer: response.body))")
                let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
                #expect((json?["data"] as? [String: Any])?["name"] as? String == name, "\(body)")
            }
        }
    }

    /// A NUL is refused even where Foundation cannot read the rest of the body (a number beyond a Double in a
    /// field the decoder skips), naming the body as a whole then.
    @Test func aNulBesideAnUnreadableNumberIsStillRefused() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let named = try decodeError(try await post(client, "/echo", #"{"name":"a\u0000","count":1}"#)).error
            #expect(named.code == "INVALID_ARGUMENT")
            #expect(named.details?["field"] == "name")
            let body = try decodeError(try await post(client, "/echo", #"{"name":"a\u0000","count":1,"extra":1e400}"#)).error
            #expect(body.code == "INVALID_ARGUMENT")
            #expect(body.details?["field"] == "body")
            #expect(body.details?["reason"] == "must not contain the NUL character")
        }
    }

    /// A body that is JSON `null` is not an object: the error says so instead of naming an empty field.
    @Test func aNullBodyIsNotAnObject() async throws {
        try await Application(router: fixture.router()).test(.router) { client in
            let error = try decodeError(try await post(client, "/echo", "null")).error
            #expect(error.code == "INVALID_ARGUMENT")
            #expect(error.message == "The request body must be a JSON object.")
            #expect(error.details?["field"] == nil)
        }
        // The auth codes keep to 400, 401 and 409 (docs/api.md); an account not confirmed yet conflicts with the request.
        #expect(HTTPStatusMapping.status(for: .accountNotConfirmed) == .conflict)
    }

    @Test func serviceKeysCompareWholeValues() {
        let keys = ServiceKeySet(keys: ["alpha-key", "beta-key"])
        #expect(keys.contains("alpha-key"))
        #expect(keys.contains("beta-key"))
        #expect(!keys.contains("alpha-ke"))
        #expect(!keys.contains("alpha-key "))
        #expect(!keys.contains(""))
        #expect(!ServiceKeySet(keys: []).contains(""))
    }

    @Test func requestIDIsEchoedOrCreated() async throws {
        let header = HTTPField.Name("X-Request-Id")!
        try await Application(router: fixture.router()).test(.router) { client in
            let given = try await client.execute(uri: "/health", method: .get, headers: [header: "abc-123"])
            #expect(given.headers[header] == "abc-123")
            let made = try await client.execute(uri: "/health", method: .get, headers: [header: "bad id with spaces"])
            #expect(made.headers[header]?.hasPrefix("req-") == true)
        }
    }

    /// (Over a socket on 127.0.0.1: without `POVVER_METRICS_TOKEN`, `/metrics` answers the machine itself only.)
    @Test func metricsCountRequestsPerEndpoint() async throws {
        try await Application(router: fixture.router()).test(.live) { client in
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await post(client, "/echo", #"{"name":"a","count":1}"#)
            // Later requests count into the series the first one registered.
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await client.execute(uri: "/health", method: .get)
            let response = try await client.execute(uri: "/metrics", method: .get)
            let text = String(buffer: response.body)
            let lines = text.split(separator: "\n").map(String.init)
            #expect(lines.contains(#"povver_http_requests_total{endpoint="/health",method="GET",status="200"} 3"#), "\(text)")
            #expect(lines.contains(#"povver_http_requests_total{endpoint="/echo",method="POST",status="200"} 1"#), "\(text)")
            #expect(lines.contains(#"povver_http_request_duration_seconds_count{endpoint="/health"} 3"#), "\(text)")
            #expect(text.contains("povver_http_request_duration_seconds_bucket"))
            // Each family says what it counts.
            #expect(text.contains("# HELP povver_http_requests_total HTTP requests by endpoint, method and status."))
            #expect(text.contains("# HELP povver_http_request_duration_seconds HTTP request latency by endpoint."))
        }
    }

    @Test func openAPIDocumentDescribesEveryEndpoint() throws {
        let document = OpenAPIDocument.make(endpoints: fixture.endpoints)
        guard case .object(let paths)? = document["paths"] else {
            Issue.record("no paths")
            return
        }
        #expect(Set(paths.keys) == Set(fixture.endpoints.map(\.path)))
        #expect(document["paths"]?["/echo"]?["get"]?["parameters"] != nil)
        #expect(document["paths"]?["/whoami"]?["post"]?["security"] != nil)
    }
}

@Suite struct ServerSentEventsTests {
    /// The producer waits until the client has read the first event before producing the second: a server
    /// that buffered the stream would deadlock here instead of passing.
    @Test func eventsReachTheClientAsTheyAreProduced() async throws {
        let (firstSeen, firstSeenContinuation) = AsyncStream<Void>.makeStream()
        let router = Router(context: APIRequestContext.self)
        router.post("/stream") { _, _ in
            let events = AsyncStream<ServerSentEvent> { continuation in
                let producer = Task {
                    continuation.yield(ServerSentEvent(id: 1, data: #"{"type":"message_start"}"#))
                    var iterator = firstSeen.makeAsyncIterator()
                    _ = await iterator.next()
                    continuation.yield(ServerSentEvent(id: 2, data: "{\"type\":\"text\",\n\"delta\":\"hi\"}"))
                    continuation.finish()
                }
                continuation.onTermination = { _ in producer.cancel() }
            }
            return ServerSentEvents.response(events)
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let socket = try RawHTTPClient(port: port)
            defer { socket.close() }
            try socket.send("POST /stream HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
            let head = try await socket.readOnAThread(until: "message_start")
            #expect(head.contains("text/event-stream"))
            #expect(head.contains("id: 1\ndata: {\"type\":\"message_start\"}\n\n"))
            firstSeenContinuation.yield()
            let rest = try await socket.readOnAThread(until: "\"delta\"")
            #expect(rest.contains("id: 2\ndata: {\"type\":\"text\",\ndata: \"delta\":\"hi\"}"))
        }
    }
}

extension ServerSentEventsTests {
    /// A stream whose producer fails ends with an `error` event numbered after the last one (docs/api.md: a stream
    /// always ends with `message_end` or `error`), the error as any answer would give it: a refusal as itself,
    /// anything else the generic `INTERNAL`; flat, and nested under `error` as the app's paywall reads it.
    @Test func aFailingStreamEndsWithAnErrorEvent() async throws {
        struct Broken: Error {}
        let router = Router(context: APIRequestContext.self)
        for (path, failure) in [("/refused", ServiceError(.premiumRequired) as any Error), ("/broken", Broken())] {
            router.post(RouterPath(path)) { _, _ in
                let events = AsyncThrowingStream<ServerSentEvent, any Error> { continuation in
                    continuation.yield(ServerSentEvent(id: 7, data: #"{"type":"message_start"}"#))
                    continuation.finish(throwing: failure)
                }
                return ServerSentEvents.response(events)
            }
        }
        try await Application(router: router).test(.router) { client in
            let refused = String(buffer: try await client.execute(uri: "/refused", method: .post).body)
            let code = ErrorCode.premiumRequired
            #expect(
                refused.hasSuffix(
                    "id: 8\ndata: {\"type\":\"error\",\"code\":\"PREMIUM_REQUIRED\",\"message\":\"\(code.defaultMessage)\","
                        + "\"error\":{\"code\":\"PREMIUM_REQUIRED\",\"message\":\"\(code.defaultMessage)\"}}\n\n"))
            let broken = String(buffer: try await client.execute(uri: "/broken", method: .post).body)
            #expect(broken.hasPrefix("id: 7\ndata: {\"type\":\"message_start\"}\n\n"))
            #expect(
                broken.hasSuffix(
                    "id: 8\ndata: {\"type\":\"error\",\"code\":\"INTERNAL\",\"message\":\"\(ErrorCode.internalError.defaultMessage)\","
                        + "\"error\":{\"code\":\"INTERNAL\",\"message\":\"\(ErrorCode.internalError.defaultMessage)\"}}\n\n"))
            #expect(!broken.contains("Broken"))
        }
    }
}

/// A blocking loopback socket, enough to watch a response arrive piece by piece. Used by one test task at a time.
final class RawHTTPClient: @unchecked Sendable {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw POSIXError(.EIO) }
    }

    private var received = ""

    /// Reads until `marker` has arrived (or 10 s pass) and returns everything read so far.
    func read(until marker: String) throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.contains(marker) {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { throw POSIXError(.ETIMEDOUT) }
            received += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return received
    }

    /// `read(until:)` on a thread of its own: a blocking read must not hold one of the few cooperative threads the
    /// server's handler needs to produce what is awaited (on a busy 2-core machine it starved it past the timeout).
    func readOnAThread(until marker: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    continuation.resume(returning: try self.read(until: marker))
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }

    func close() { _ = Glibc.close(fd) }
}
