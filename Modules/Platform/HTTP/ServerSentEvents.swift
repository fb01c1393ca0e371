import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// One Server-Sent Event: `id: <n>\ndata: <json>\n\n`.
public struct ServerSentEvent: Sendable, Equatable {
    public var id: Int
    public var data: String

    public init(id: Int, data: String) {
        self.id = id
        self.data = data
    }

    /// An event whose data is `value` as JSON.
    public init(id: Int, json value: some Encodable) throws {
        self.init(id: id, data: try JSONCoding.encodeToString(value))
    }

    var wireFormat: String {
        let lines = data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
        return "id: \(id)\n" + lines.joined(separator: "\n") + "\n\n"
    }
}

public enum ServerSentEvents {
    /// The schema of one event of a stream, as the OpenAPI document gives it for `text/event-stream` answers:
    /// `data` is the event's JSON text, `id` its number in the stream.
    public static let eventSchema = Schema.object(
        ["data": Schema.string, "event": Schema.string, "id": Schema.string, "retry": Schema.integer], required: ["data"])

    /// A `text/event-stream` response that writes each event the moment the sequence produces it. A stream
    /// always ends with `message_end` or `error` (docs/api.md): when the sequence throws, an `error` event
    /// (`{"type":"error","code":…,"message":…,"error":{"code":…,"message":…}}`, numbered after the last one, the error mapped as any other
    /// answer's, so `INTERNAL` says nothing of the server) ends it, instead of the stream just stopping.
    public static func response<Events: AsyncSequence & Sendable>(_ events: Events, logger: Logger = Logger(label: "povver.sse"))
        -> Response
    where Events.Element == ServerSentEvent {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
                // cannot trap: a header name spelled here is a valid token
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ],
            body: ResponseBody { writer in
                var lastID = 0
                var iterator = events.makeAsyncIterator()
                while true {
                    // Only the producer's failures become an error event; a failed write (the client went away)
                    // ends the response as it is.
                    let next: ServerSentEvent?
                    do {
                        next = try await iterator.next()
                    } catch is CancellationError {
                        break  // the client went away: there is no one to tell
                    } catch {
                        let failure = ErrorMapper.serviceError(for: error, logger: logger)
                        try await writer.write(
                            ByteBuffer(string: ServerSentEvent(id: lastID + 1, data: errorEventJSON(failure)).wireFormat))
                        break
                    }
                    guard let event = next else { break }
                    lastID = event.id
                    try await writer.write(ByteBuffer(string: event.wireFormat))
                }
                try await writer.finish(nil)
            })
    }

    /// The data of an `error` event: `code` and `message` at the top (docs/api.md's form) and again under `error`, the
    /// envelope's form, for clients that read `error.code` (the app's premium paywall does).
    static func errorEventJSON(_ error: ServiceError) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("type")
        json.string("error")
        json.key("code")
        json.string(error.code.rawValue)
        json.key("message")
        json.string(error.message)
        json.key("error")
        json.beginObject()
        json.key("code")
        json.string(error.code.rawValue)
        json.key("message")
        json.string(error.message)
        json.endObject()
        json.endObject()
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
