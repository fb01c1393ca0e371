import Contracts
import Foundation
import Platform

/// One event of a coach's answer as docs/api.md's stream names it; `error` is written by `ServerSentEvents` from the
/// error that ends a stream.
enum CoachEvent: Sendable, Equatable {
    /// Names the conversation too: a turn sent with none opens one, and this is how the client learns its id.
    case messageStart(messageId: String, conversationId: String)
    case text(String)
    /// Thinking or tool progress: `phase` is `thinking`, `tool_start` or `tool_end`.
    case status(phase: String, tool: String?, detail: String?)
    /// A card the coach proposes (`data` is the card, as the app decodes it).
    case artifact(Artifact)
    /// The turn is over; `lane` is the coach's lane that answered it (`fast`, `functional`, `slow`).
    case messageEnd(messageId: String, lane: Lane)

    /// The event's JSON, as `data:` of its SSE event.
    var json: JSONValue {
        get throws {
            switch self {
            case .messageStart(let id, let conversation):
                ["type": "message_start", "message_id": .string(id), "conversation_id": .string(conversation)]
            case .text(let delta): ["type": "text", "delta": .string(delta)]
            case .status(let phase, let tool, let detail):
                .object(
                    ["type": "status", "phase": .string(phase)].merging(
                        [("tool", tool), ("detail", detail)].compactMap { key, value in value.map { (key, JSONValue.string($0)) } },
                        uniquingKeysWith: { first, _ in first }))
            case .artifact(let artifact):
                ["type": "artifact", "artifact_id": .string(artifact.id), "data": try JSONValue(encoding: artifact.card)]
            case .messageEnd(let id, let lane): ["type": "message_end", "message_id": .string(id), "lane": .string(lane.rawValue)]
            }
        }
    }
}
