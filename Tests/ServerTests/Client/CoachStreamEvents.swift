import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import Platform
import PovverClient
import PovverKit
import Synchronization
import Testing

/// A message to the coach, as the generated client sends it (`streamAgentNormalized`'s body).
typealias CoachMessage = Operations.StreamAgentNormalized.Input.Body.JsonPayload

/// One event of the coach's stream (docs/api.md "The coach's stream"): every field the server writes, typed, with
/// its SSE id and, for an `artifact`, the card as the app decodes it (PovverKit's `CanvasCardModel`).
@dynamicMemberLookup
struct CoachStreamEvent: Sendable, CustomStringConvertible {
    /// The event's JSON as the server writes it in the `data:` line.
    struct Fields: Decodable, Sendable {
        /// An error event's code and message again, nested under `error` as the app's premium paywall reads them.
        struct NestedError: Decodable, Sendable {
            var code: String
            var message: String
        }

        var type: String
        var messageId: String?
        var conversationId: String?
        var delta: String?
        var phase: String?
        var tool: String?
        var artifactId: String?
        var lane: String?
        var code: String?
        var message: String?
        var error: NestedError?
    }

    /// The SSE `id:` line, nil when there is none or it is not a number.
    var id: Int?
    var fields: Fields
    /// The `data:` line as JSON, for what the typed fields cannot say (a field present as null).
    var json: JSONValue

    subscript<Value>(dynamicMember path: KeyPath<Fields, Value>) -> Value { fields[keyPath: path] }

    /// An `artifact` event's card, decoded strictly as the app decodes it.
    var card: CanvasCardModel {
        get throws { try CanvasCardModel.decode(try JSONEncoder().encode(json["data"] ?? .null)) }
    }

    /// An `artifact` event's card content (the card's `data`) read as `Content`: a type of the document, so the
    /// card the user edits goes back to `artifactAction` as the app sends it.
    func content<Content: Decodable>(as _: Content.Type) throws -> Content {
        try JSONDecoder().decode(Content.self, from: try JSONEncoder().encode(json["data"]?["data"] ?? .null))
    }

    var description: String { "\(id.map(String.init) ?? "-") \(json)" }
}

extension [CoachStreamEvent] {
    /// The answer's text: every `text` event's delta, in order.
    var text: String { filter { $0.type == "text" }.compactMap(\.delta).joined() }
}

/// The stream's answer: its events in order, and the header fields it came with.
struct CoachStreamAnswer: Sendable {
    var events: [CoachStreamEvent]
    var headers: HTTPFields
}

extension TestClientProtocol {
    /// The events of one `streamAgentNormalized` answer, sent through the generated client as the app sends it. The
    /// answer must be a stream (the client reads a 200 as `text/event-stream` or fails), its events numbered from 1
    /// in order.
    func coachEvents(_ message: CoachMessage, token: String) async throws -> [CoachStreamEvent] {
        try await coachStream(message, token: token).events
    }

    /// The stream's events and the header fields it was answered with, sent with `headers` (an `X-Request-Id`).
    func coachStream(_ message: CoachMessage, token: String, headers: HTTPFields = [:]) async throws -> CoachStreamAnswer {
        var headers = headers
        headers[.authorization] = "Bearer \(token)"
        let answered = ResponseHeadersRecorder()
        let api = Client.povver(
            serverURL: TestAPI.serverURL, transport: RouterTransport(client: self),
            middlewares: [HeaderMiddleware(headers: headers), RefusalRecorder(), answered])
        let body = try await api.streamAgentNormalized(body: .json(message)).ok.body.textEventStream
        var events: [CoachStreamEvent] = []
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        for try await event in body.asDecodedServerSentEvents() {
            let data = Data((event.data ?? "").utf8)
            events.append(
                CoachStreamEvent(
                    id: event.id.flatMap { Int($0) }, fields: try decoder.decode(CoachStreamEvent.Fields.self, from: data),
                    json: try JSONDecoder().decode(JSONValue.self, from: data)))
        }
        let ids = events.map { $0.id ?? -1 }
        #expect(ids == Array(1...max(1, ids.count)), "events numbered from 1 in order: \(ids)")
        return CoachStreamAnswer(events: events, headers: answered.headers)
    }
}

/// Keeps the header fields of the last answer that passed through it.
final class ResponseHeadersRecorder: ClientMiddleware, Sendable {
    private let recorded = Mutex(HTTPFields())
    var headers: HTTPFields { recorded.withLock { $0 } }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        recorded.withLock { $0 = response.headerFields }
        return (response, responseBody)
    }
}
