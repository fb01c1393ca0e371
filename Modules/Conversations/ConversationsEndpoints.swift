import Contracts
import Foundation
import Platform

/// Conversations' HTTP contract (docs/api.md, docs/coach.md). `conversationId` and the legacy `canvasId` are
/// accepted for `conversation_id`, `workoutId` for `workout_id`.
struct ConversationsEndpoints {
    let module: ConversationsModule
    static let tag = "Conversations"

    struct ConversationInput: Decodable, Sendable {
        var conversationId: String?
        var limit: Int?
        var cursor: String?
        var includeWorkout: Bool?

        enum CodingKeys: String, CodingKey {
            case conversationId = "conversation_id"
            case camel = "conversationId"
            case canvas = "canvasId"
            case limit, cursor
            case includeWorkout = "include_workout"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Read even when another name is sent, so a canvasId of the wrong type is refused, never ignored.
            let canvas = try container.decodeIfPresent(String.self, forKey: .canvas)
            conversationId =
                try container.decodeIfPresent(String.self, forKey: .conversationId, alias: .camel)
                ?? canvas
            limit = try container.decodeIfPresent(Int.self, forKey: .limit)
            cursor = try container.decodeIfPresent(String.self, forKey: .cursor)
            includeWorkout = try container.decodeIfPresent(Bool.self, forKey: .includeWorkout)
        }
    }

    struct StreamRequest: Decodable, Sendable {
        var conversationId: String?
        var message: String
        var workoutId: String?

        enum CodingKeys: String, CodingKey {
            case conversationId = "conversation_id"
            case camel = "conversationId"
            case canvas = "canvasId"
            case message
            case workoutId = "workout_id"
            case workoutCamel = "workoutId"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Read even when another name is sent, so a canvasId of the wrong type is refused, never ignored.
            let canvas = try container.decodeIfPresent(String.self, forKey: .canvas)
            conversationId =
                try container.decodeIfPresent(String.self, forKey: .conversationId, alias: .camel)
                ?? canvas
            message = try container.decode(String.self, forKey: .message)
            workoutId = try container.decodeIfPresent(String.self, forKey: .workoutId, alias: .workoutCamel)
        }
    }

    struct ActionRequest: Decodable, Sendable {
        var action: ArtifactActions.Action
        var artifactId: String
        var conversationId: String
        var idempotencyKey: String?
        var data: JSONValue?

        enum CodingKeys: String, CodingKey {
            case action, data
            case artifactId = "artifact_id"
            case conversationId = "conversation_id"
            case camel = "conversationId"
            case idempotencyKey = "idempotency_key"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            action = try container.decode(ArtifactActions.Action.self, forKey: .action)
            artifactId = try container.decode(String.self, forKey: .artifactId)
            conversationId = try container.decode(String.self, forKey: .conversationId, alias: .camel)
            idempotencyKey = try container.decodeIfPresent(String.self, forKey: .idempotencyKey)
            // Sent as null, it is not sent.
            data = try container.decodeIfPresent(JSONValue.self, forKey: .data).flatMap { $0 == .null ? nil : $0 }
        }
    }

    struct Session: Encodable, Sendable {
        var sessionId: String
        var conversationId: String
        enum CodingKeys: String, CodingKey {
            case sessionId = "session_id"
            case conversationId = "conversation_id"
        }
    }

    struct Page: Encodable, Sendable {
        var items: [ConversationSummary]
        var nextCursor: String?
        enum CodingKeys: String, CodingKey {
            case items
            case nextCursor = "next_cursor"
        }
    }

    struct Empty: Encodable, Sendable {}

    /// Where the answers lead (OpenAPI links): a conversation opened or listed is one to read, talk in or
    /// delete; an artifact read is one to act on.
    static let links: [EndpointLink] =
        [("initializeSession", "/conversation_id"), ("getConversations", "/items/0/id")].flatMap { source, pointer in
            ["getConversation", "deleteConversation", "streamAgentNormalized"].map {
                EndpointLink(from: source, to: $0, ["conversation_id": EndpointLink.answer(pointer)])
            }
        } + [
            EndpointLink(
                from: "getConversation", to: "artifactAction",
                ["conversation_id": EndpointLink.answer("/conversation/id"), "artifact_id": EndpointLink.answer("/artifacts/0/id")])
        ]

    var all: [Endpoint] {
        let module = self.module
        let store = module.services.store
        let tag = Self.tag
        let conversationField = Schema.string
        // The conversation, named under any of its three names (`conversationId` and `canvasId` are legacy).
        let namedConversation = Schema.string(minLength: 1)
        // Opening or readying a session: an empty id is none.
        let optionalId = Schema.object([
            "conversation_id": conversationField, "conversationId": conversationField, "canvasId": conversationField,
        ])
        let idOnly = Schema.requiringOne(
            of: ["conversation_id", "conversationId", "canvasId"],
            in: Schema.object([
                "conversation_id": namedConversation, "conversationId": namedConversation, "canvasId": namedConversation,
            ]))
        let messagesPage = Schema.requiringOne(
            of: ["conversation_id", "conversationId", "canvasId"],
            in: Schema.object([
                "conversation_id": namedConversation, "conversationId": namedConversation, "canvasId": namedConversation,
                "limit": Schema.integer(
                    minimum: ConversationCaps.messagesPage.lowerBound, maximum: ConversationCaps.messagesPage.upperBound),
                "cursor": Schema.string,
            ]))
        let summary = ConversationsSchemas.summary
        return [
            .rpc(
                "initializeSession", access: .user, tag: tag,
                summary: """
                    Opens a conversation (or resumes one, given its id) and answers its session. Premium, as the coach is; opening \
                    one beyond the \(ConversationCaps.conversationsPerUser) a user keeps removes the least recently active.
                    """, request: optionalId,
                response: Schema.object(
                    ["session_id": Schema.string, "conversation_id": Schema.string], required: ["session_id", "conversation_id"]),
                input: ConversationInput.self
            ) { input, call in
                let userId = try call.userId()
                try await module.services.premium.requirePremium(userId: userId)
                let conversation =
                    if let id = input.conversationId, !id.isEmpty {
                        try await store.conversation(userId: userId, id: id)
                    } else {
                        try await store.create(userId: userId, workoutId: nil)
                    }
                return Session(sessionId: conversation.sessionId, conversationId: conversation.id)
            },
            .rpc(
                "prewarmSession", access: .user, tag: tag,
                summary: "Readies the coach for a conversation: checks it and loads the user's training context.", request: optionalId,
                response: Schema.object([:]), input: ConversationInput.self
            ) { input, call in
                let userId = try call.userId()
                if let id = input.conversationId, !id.isEmpty { _ = try await store.conversation(userId: userId, id: id) }
                _ = try await module.services.analytics.trainingContext(userId: userId)
                return Empty()
            },
            .rpc(
                "getConversations", access: .user, tag: tag, readOnly: true,
                summary: """
                    The user's conversations, most recently active first, a page at a time. Workout-mode chats (those with a \
                    `workout_id`) are left out unless `include_workout` is true.
                    """,
                request: Schema.object([
                    "limit": Schema.integer(minimum: 1, maximum: 100), "cursor": Schema.string, "include_workout": Schema.boolean,
                ]),
                response: Schema.object(["items": Schema.array(summary), "next_cursor": Schema.string], required: ["items"]),
                input: ConversationInput.self
            ) { input, call in
                let page = try await store.list(
                    userId: try call.userId(), limit: input.limit ?? 20, cursor: input.cursor, includeWorkout: input.includeWorkout ?? false
                )
                return Page(items: page.items, nextCursor: page.nextCursor)
            },
            .rpc(
                "getConversation", access: .user, tag: tag, readOnly: true,
                summary: """
                    A conversation with a page of its messages, newest first (`limit`, default \(ConversationCaps.defaultMessagesPage), \
                    and `cursor`, the previous page's `next_cursor`), and the artifacts proposed in them. A conversation keeps \
                    at most \(ConversationCaps.messagesPerConversation) messages.
                    """, request: messagesPage, response: ConversationsSchemas.detail, input: ConversationInput.self
            ) { input, call in
                try await store.detail(
                    userId: try call.userId(), id: try Self.required(input.conversationId),
                    limit: input.limit ?? ConversationCaps.defaultMessagesPage, cursor: input.cursor)
            },
            .rpc(
                "deleteConversation", access: .user, tag: tag, summary: "Deletes a conversation with its messages and artifacts.",
                request: idOnly, response: Schema.object([:]), input: ConversationInput.self
            ) { input, call in
                try await store.delete(userId: try call.userId(), id: try Self.required(input.conversationId))
                return Empty()
            },
            .stream(
                "streamAgentNormalized", access: .user, tag: tag,
                summary: """
                    Sends a message to the coach and streams the answer as Server-Sent Events: message_start, text, status, \
                    artifact (a card), then message_end (with the coach's lane), or error (flat and nested under error).
                    """,
                request: Schema.object(
                    [
                        "conversation_id": conversationField, "conversationId": conversationField, "canvasId": conversationField,
                        "message": Schema.name(maxLength: CoachStream.maxMessageLength), "workout_id": Schema.string,
                        "workoutId": Schema.string,
                    ], required: ["message"]),
                response: ServerSentEvents.eventSchema, input: StreamRequest.self
            ) { input, call in
                // Refused before the stream opens: a bad message, or one stream too many for the user, is the error
                // envelope, not an error event.
                _ = try CoachStream.check(input.message)
                return try module.openStream(
                    userId: try call.userId(),
                    input: StreamInput(conversationId: input.conversationId, message: input.message, workoutId: input.workoutId),
                    logger: call.logger)
            },
            .rpc(
                "artifactAction", access: .user, tag: tag,
                summary: """
                    Acts on a card, with one of the actions it offers: accept (a routine_summary creates its templates and \
                    routine and makes it active; a template_update or routine_update is applied), save_routine, start_workout, \
                    save_as_template, or reject (dismiss is its alias). data is the card's content as the user edited it, \
                    checked as the coach's proposal is and applied instead. Idempotent under idempotency_key.
                    """,
                request: Schema.object(
                    [
                        "action": Schema.enumeration(ArtifactActions.Action.names), "artifact_id": Schema.string,
                        "conversation_id": conversationField, "idempotency_key": Schema.idempotencyKey, "data": CardDataSchemas.edited,
                    ], required: ["action", "artifact_id", "conversation_id"], aliases: ["conversation_id": "conversationId"]),
                response: Schema.object(
                    ["artifact": ConversationsSchemas.artifact, "result": Schema.any], required: ["artifact", "result"]),
                input: ActionRequest.self
            ) { input, call in
                try await module.actions.perform(
                    userId: try call.userId(),
                    request: ArtifactActions.Request(
                        action: input.action, artifactId: input.artifactId, conversationId: input.conversationId, data: input.data),
                    idempotencyKey: input.idempotencyKey
                ).encoded
            },
        ]
    }

    static func required(_ id: String?) throws -> String {
        guard let id, !id.isEmpty else { throw ServiceError.invalidArgument(field: "conversation_id", reason: "is required") }
        return id
    }
}
