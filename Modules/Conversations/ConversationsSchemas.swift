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

    static let artifact = Schema.object(
        [
            "id": Schema.string, "type": Schema.enumeration(ArtifactType.allCases.map(\.rawValue)),
            "lane": Schema.enumeration(["fast", "functional", "slow"]),
            "status": Schema.enumeration(["proposed", "accepted", "dismissed"]),
            "title": Schema.string, "data": Schema.any, "result": Schema.any, "message_id": Schema.string, "created_at": Schema.timestamp,
            "updated_at": Schema.timestamp,
        ], required: ["id", "type", "lane", "status", "title", "data", "message_id", "created_at", "updated_at"])

    static let detail = Schema.object(
        [
            "conversation": summary, "messages": Schema.array(message, maxItems: ConversationCaps.messagesPage.upperBound),
            "artifacts": Schema.array(artifact), "next_cursor": Schema.string,
        ],
        required: ["conversation", "messages", "artifacts"])
}
