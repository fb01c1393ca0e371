import Foundation

/// One event of the coach's stream (`streamAgentNormalized`, docs/api.md "The coach's stream"), typed.
public enum CoachEvent: Equatable, Sendable {
    /// The answer began; `conversationId` is the conversation it belongs to (opened by a first message).
    case messageStart(messageId: String, conversationId: String)
    /// More of the answer's text.
    case text(String)
    /// What the coach is doing meanwhile (`thinking`, `tool_start`, `tool_end`), with the tool's name.
    case status(phase: String, tool: String?, detail: String?)
    /// A card the coach proposes.
    case card(CanvasCardModel)
    /// The answer ended; `lane` is the coach's lane that answered (`fast`, `functional`, `slow`).
    case messageEnd(messageId: String, lane: String)
    /// The turn failed (`PREMIUM_REQUIRED` for a free user, `UNAVAILABLE` when the model is out of reach, ...):
    /// always the stream's last event.
    case error(code: String, message: String)

    /// The event's JSON as the server writes it in each `data:` line.
    struct Wire: Decodable {
        var type: String
        var messageId: String?
        var conversationId: String?
        var delta: String?
        var phase: String?
        var tool: String?
        var detail: String?
        var artifactId: String?
        var lane: String?
        var code: String?
        var message: String?
    }

    /// Decodes one `data:` line; nil for an event type this version does not know (a newer server's), which a
    /// client skips. A known event missing a field it must have is an error.
    static func decode(_ json: Data) throws -> CoachEvent? {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let wire = try decoder.decode(Wire.self, from: json)
        func field(_ value: String?, _ name: String) throws -> String {
            guard let value else { throw PovverError.unreadable("a coach \(wire.type) event without \(name)") }
            return value
        }
        switch wire.type {
        case "message_start":
            return .messageStart(
                messageId: try field(wire.messageId, "message_id"), conversationId: try field(wire.conversationId, "conversation_id"))
        case "text": return .text(try field(wire.delta, "delta"))
        case "status": return .status(phase: try field(wire.phase, "phase"), tool: wire.tool, detail: wire.detail)
        case "artifact":
            struct Artifact: Decodable { var data: CanvasCardModel }
            return .card(try decoder.decode(Artifact.self, from: json).data)
        case "message_end": return .messageEnd(messageId: try field(wire.messageId, "message_id"), lane: try field(wire.lane, "lane"))
        case "error": return .error(code: try field(wire.code, "code"), message: wire.message ?? "")
        default: return nil
        }
    }
}
