import Foundation
import Platform

/// The OpenAPI shapes of Conversations' answers.
enum ConversationsSchemas {
    static let summary = Schema.object(
        [
            "id": Schema.string, "session_id": Schema.string, "title": Schema.string, "workout_id": Schema.string,
            "message_count": Schema.integer, "created_at": Schema.timestamp, "updated_at": Schema.timestamp,
        ], required: ["id", "session_id", "message_count", "created_at", "updated_at"])

    static let message = Schema.object(
        [
            "id": Schema.string, "role": Schema.enumeration(["user", "assistant"]), "content": Schema.string,
            "lane": Schema.enumeration(["fast", "functional", "slow"]), "created_at": Schema.timestamp,
        ], required: ["id", "role", "content", "created_at"])

    /// A card as the app decodes it (docs/api.md "Cards"): what the `artifact` event carries in `data`.
    static let cardProperties: [String: JSONValue] = [
        "id": Schema.string, "type": Schema.enumeration(ArtifactType.allCases.map(\.rawValue)),
        "lane": Schema.enumeration(CardLane.allCases.map(\.rawValue)),
        "status": Schema.enumeration(ArtifactStatus.allCases.map(\.rawValue)),
        "title": Schema.string, "subtitle": Schema.nullable(Schema.string), "data": Schema.freeform,
        "actions": Schema.array(Schema.enumeration(CardAction.allCases.map(\.rawValue))),
        // Each written, as null where it does not apply.
        "meta": Schema.object(
            [
                "source_template_id": Schema.nullable(Schema.string), "source_routine_id": Schema.nullable(Schema.string),
                "draft_id": Schema.nullable(Schema.string),
            ], required: ["source_template_id", "source_routine_id", "draft_id"]),
    ]
    static let cardRequired = ["id", "type", "lane", "status", "title", "subtitle", "data", "actions", "meta"]

    /// A stored card: the card, the message that proposed it, its times and what acting on it made.
    static let artifact = Schema.object(
        cardProperties.merging([
            "result": Schema.any, "message_id": Schema.string, "created_at": Schema.timestamp, "updated_at": Schema.timestamp,
        ]) { card, _ in card }, required: cardRequired + ["message_id", "created_at", "updated_at"])

    static let detail = Schema.object(
        [
            "conversation": summary, "messages": Schema.array(message, maxItems: ConversationCaps.messagesPage.upperBound),
            "artifacts": Schema.array(artifact), "next_cursor": Schema.string,
        ],
        required: ["conversation", "messages", "artifacts"])
}
