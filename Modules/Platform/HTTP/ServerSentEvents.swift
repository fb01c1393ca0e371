import Foundation
import HTTPTypes
import Hummingbird
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
    /// A `text/event-stream` response that writes each event the moment the sequence produces it.
    public static func response<Events: AsyncSequence & Sendable>(_ events: Events) -> Response
    where Events.Element == ServerSentEvent {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
                HTTPField.Name("X-Accel-Buffering")!: "no",
            ],
            body: ResponseBody { writer in
                for try await event in events {
                    try await writer.write(ByteBuffer(string: event.wireFormat))
                }
                try await writer.finish(nil)
            })
    }
}
