import Contracts
import Foundation
import Platform
import SQLKit

/// Conversations, their messages and artifacts, always read and written as one user's: another user's
/// conversation or artifact is `NOT_FOUND`, never a different error.
struct ConversationStore: Sendable {
    let database: Database
    let clock: any WallClock
    let ids: any IDGenerator

    static let listLimit = 1...100

    static func notFound(_ id: String) -> ServiceError {
        ServiceError(.notFound, "That conversation does not exist.", details: ["conversation_id": id])
    }

    /// Opens a conversation (workout mode when `workoutId` is given). When the user keeps
    /// `ConversationCaps.conversationsPerUser` already, the least recently active goes first, with its messages and
    /// artifacts.
    func create(userId: String, workoutId: String?) async throws -> ConversationSummary {
        let now = clock.now()
        let summary = ConversationSummary(
            id: ids.makeID(), sessionId: ids.makeID(), title: nil, workoutId: workoutId, messageCount: 0, createdAt: now, updatedAt: now)
        try await database.transaction { tx in
            if tx.engine == .postgres {
                try await tx.sql.raw("SELECT pg_advisory_xact_lock(\(literal: ConversationCaps.lockClass), hashtext(\(bind: userId)))")
                    .run()
            }
            let oldest = try await tx.sql.raw(
                """
                SELECT id FROM conversations_threads WHERE user_id = \(bind: userId) ORDER BY updated_at DESC, id DESC
                LIMIT 1000 OFFSET \(bind: ConversationCaps.conversationsPerUser - 1)
                """
            ).all(decodingColumn: "id", as: String.self)
            for id in oldest { try await Self.remove(id, in: tx) }
            try await tx.sql.raw(
                """
                INSERT INTO conversations_threads (id, user_id, session_id, title, workout_id, message_count, created_at, updated_at)
                VALUES (\(bind: summary.id), \(bind: userId), \(bind: summary.sessionId), NULL, \(bind: workoutId), 0,
                    \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
                """
            ).run()
        }
        return summary
    }

    /// One of the user's conversations; `NOT_FOUND` for an unknown id or another user's.
    func conversation(userId: String, id: String) async throws -> ConversationSummary {
        guard
            let row = try await database.sql.raw(
                "SELECT * FROM conversations_threads WHERE id = \(bind: id) AND user_id = \(bind: userId)"
            ).first()
        else { throw Self.notFound(id) }
        return try Self.summary(row)
    }

    /// The user's conversations, most recently changed first; `cursor` is the previous page's last one. Workout-mode
    /// chats (a `workout_id`) are listed only with `includeWorkout`: they belong to the workout they were opened in.
    func list(userId: String, limit: Int, cursor: String?, includeWorkout: Bool = false) async throws -> (
        items: [ConversationSummary], nextCursor: String?
    ) {
        guard Self.listLimit.contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
        let after = try KeysetCursor.parse(cursor, separator: "|").map { (updatedAt: $0.milliseconds, id: $0.id) }
        let modes: SQLQueryString = includeWorkout ? "" : " AND workout_id IS NULL"
        let rows: [any SQLRow]
        if let after {
            rows = try await database.sql.raw(
                """
                SELECT * FROM conversations_threads WHERE user_id = \(bind: userId)\(modes)
                AND (updated_at < \(bind: after.updatedAt) OR (updated_at = \(bind: after.updatedAt) AND id < \(bind: after.id)))
                ORDER BY updated_at DESC, id DESC LIMIT \(bind: limit + 1)
                """
            ).all()
        } else {
            rows = try await database.sql.raw(
                "SELECT * FROM conversations_threads WHERE user_id = \(bind: userId)\(modes) ORDER BY updated_at DESC, id DESC LIMIT \(bind: limit + 1)"
            ).all()
        }
        let items = try rows.prefix(limit).map(Self.summary)
        let next =
            rows.count > limit
            ? items.last.map { KeysetCursor(milliseconds: $0.updatedAt.millisecondsSince1970, id: $0.id).encoded(separator: "|") } : nil
        return (items, next)
    }

    /// The conversation with a page of its messages, newest first (`limit` of them after `cursor`, the previous
    /// page's `nextCursor`), and the artifacts proposed in those messages in the order proposed.
    func detail(userId: String, id: String, limit: Int = ConversationCaps.defaultMessagesPage, cursor: String? = nil) async throws
        -> ConversationDetail
    {
        guard ConversationCaps.messagesPage.contains(limit) else {
            throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to \(ConversationCaps.messagesPage.upperBound)")
        }
        // The cursor holds the last message's number and the conversation's id: another conversation's is refused.
        let before = try KeysetCursor.parse(cursor).map { position in
            guard position.id == id else { throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list") }
            return position.milliseconds
        }
        let summary = try await conversation(userId: userId, id: id)
        let after: SQLQueryString = before.map { "AND seq < \(bind: $0)" } ?? ""
        let rows = try await database.sql.raw(
            """
            SELECT * FROM conversations_messages WHERE conversation_id = \(bind: id) AND user_id = \(bind: userId) \(after)
            ORDER BY seq DESC LIMIT \(bind: limit + 1)
            """
        ).all()
        let messages = try rows.prefix(limit).map(Self.message)
        let next =
            try rows.count > limit
            ? rows.prefix(limit).last.map { KeysetCursor(milliseconds: try $0.decode(column: "seq", as: Int64.self), id: id).encoded() }
            : nil
        let artifacts: [Artifact] =
            messages.isEmpty
            ? []
            : try await database.sql.raw(
                """
                SELECT * FROM conversations_artifacts WHERE conversation_id = \(bind: id) AND user_id = \(bind: userId)
                AND message_id IN (\(binds: messages.map(\.id))) ORDER BY created_at, id
                """
            ).all().map(Self.artifact)
        return ConversationDetail(conversation: summary, messages: messages, artifacts: artifacts, nextCursor: next)
    }

    /// The conversation's last `limit` messages, oldest first (the slow lane's history; one indexed read however
    /// long the conversation).
    func recentMessages(userId: String, conversationId: String, limit: Int) async throws -> [ConversationMessage] {
        try await database.sql.raw(
            """
            SELECT * FROM conversations_messages WHERE conversation_id = \(bind: conversationId) AND user_id = \(bind: userId)
            ORDER BY seq DESC LIMIT \(bind: limit)
            """
        ).all().map(Self.message).reversed()
    }

    static func message(_ row: any SQLRow) throws -> ConversationMessage {
        ConversationMessage(
            id: try row.decode(column: "id", as: String.self),
            role: MessageRole(rawValue: try row.decode(column: "role", as: String.self)) ?? .assistant,
            content: try row.decode(column: "content", as: String.self),
            lane: try row.decode(column: "lane", as: String?.self).flatMap(Lane.init(rawValue:)),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)))
    }

    /// Deletes the conversation with its messages and artifacts; `NOT_FOUND` for an unknown id or another user's.
    func delete(userId: String, id: String) async throws {
        try await database.transaction { tx in
            guard
                try await tx.sql.raw("SELECT id FROM conversations_threads WHERE id = \(bind: id) AND user_id = \(bind: userId)").first()
                    != nil
            else { throw Self.notFound(id) }
            try await Self.remove(id, in: tx)
        }
    }

    /// Deletes a conversation's artifacts, messages and row.
    private static func remove(_ id: String, in tx: Transaction) async throws {
        try await tx.sql.raw("DELETE FROM conversations_artifacts WHERE conversation_id = \(bind: id)").run()
        try await tx.sql.raw("DELETE FROM conversations_messages WHERE conversation_id = \(bind: id)").run()
        try await tx.sql.raw("DELETE FROM conversations_threads WHERE id = \(bind: id)").run()
    }

    /// Records one turn in one transaction: the user's message, the coach's answer and the artifacts it proposed
    /// (so a turn that fails or is cancelled leaves nothing half-written). Messages are numbered under the
    /// conversation's row lock, so two turns at once never take one number; the title is set when the
    /// conversation has none and `title` is given. `NOT_FOUND` when the conversation is gone (deleted meanwhile).
    @discardableResult
    func recordTurn(
        userId: String, conversationId: String, messages: [(role: MessageRole, content: String, lane: Lane?, id: String)],
        artifacts: [Artifact], title: String?
    ) async throws -> [ConversationMessage] {
        let now = clock.now()
        let stored = messages.map { ConversationMessage(id: $0.id, role: $0.role, content: $0.content, lane: $0.lane, createdAt: now) }
        try await database.transaction { tx in
            try await tx.sql.raw(
                """
                UPDATE conversations_threads SET message_count = message_count + \(bind: stored.count), updated_at = \(bind: now.millisecondsSince1970),
                    title = COALESCE(title, \(bind: title))
                WHERE id = \(bind: conversationId) AND user_id = \(bind: userId)
                """
            ).run()
            guard
                let row = try await tx.sql.raw(
                    "SELECT message_count FROM conversations_threads WHERE id = \(bind: conversationId) AND user_id = \(bind: userId)"
                ).first()
            else { throw Self.notFound(conversationId) }
            let last = try row.decode(column: "message_count", as: Int64.self)
            // Read after the count went up under the row's lock, so two turns at once cannot both pass at the cap.
            guard last <= ConversationCaps.messagesPerConversation else { throw ConversationCaps.conversationFull() }
            for (index, message) in stored.enumerated() {
                try await tx.sql.raw(
                    """
                    INSERT INTO conversations_messages (conversation_id, seq, id, user_id, role, content, lane, created_at)
                    VALUES (\(bind: conversationId), \(bind: last - Int64(stored.count - 1 - index)), \(bind: message.id), \(bind: userId),
                        \(bind: message.role.rawValue), \(bind: message.content), \(bind: message.lane?.rawValue), \(bind: now.millisecondsSince1970))
                    """
                ).run()
            }
            for artifact in artifacts {
                try await tx.sql.raw(
                    """
                    INSERT INTO conversations_artifacts
                        (id, conversation_id, user_id, message_id, type, lane, status, title, data, result, created_at, updated_at)
                    VALUES (\(bind: artifact.id), \(bind: conversationId), \(bind: userId), \(bind: artifact.messageId),
                        \(bind: artifact.type.rawValue), \(bind: artifact.lane.rawValue), \(bind: artifact.status.rawValue),
                        \(bind: artifact.title), \(bind: try JSONCoding.encodeToString(artifact.data)), NULL,
                        \(bind: artifact.createdAt.millisecondsSince1970), \(bind: artifact.updatedAt.millisecondsSince1970))
                    """
                ).run()
            }
        }
        return stored
    }

    /// One of the user's artifacts in the conversation, read in `tx` (locked on PostgreSQL, so two actions on it
    /// take turns); `NOT_FOUND` for an unknown id, another conversation's or another user's.
    func artifact(in tx: Transaction, userId: String, conversationId: String, id: String) async throws -> Artifact {
        let lock: SQLQueryString = tx.engine == .postgres ? " FOR UPDATE" : ""
        guard
            let row = try await tx.sql.raw(
                """
                SELECT * FROM conversations_artifacts
                WHERE id = \(bind: id) AND conversation_id = \(bind: conversationId) AND user_id = \(bind: userId)\(lock)
                """
            ).first()
        else { throw ServiceError(.notFound, "That artifact does not exist.", details: ["artifact_id": id]) }
        return try Self.artifact(row)
    }

    /// Records an action's outcome on the artifact: its new status and what the action made, and its content as
    /// the action applied it (the user's edit, or as proposed). The row is written in the card's form, whatever form
    /// it was read in (`StoredCard`).
    func settle(in tx: Transaction, artifact: Artifact) async throws -> Date {
        let now = clock.now()
        try await tx.sql.raw(
            """
            UPDATE conversations_artifacts SET type = \(bind: artifact.type.rawValue), lane = \(bind: artifact.lane.rawValue),
                status = \(bind: artifact.status.rawValue), data = \(bind: try JSONCoding.encodeToString(artifact.data)),
                result = \(bind: try artifact.result.map(JSONCoding.encodeToString)), updated_at = \(bind: now.millisecondsSince1970)
            WHERE id = \(bind: artifact.id)
            """
        ).run()
        return now
    }

    /// Everything of the user's: conversations, messages, artifacts, keyed answers and what they told the coach.
    func erase(userId: String) async throws {
        try await database.transaction { tx in
            for table in [
                "conversations_artifacts", "conversations_messages", "conversations_threads", "conversations_idempotency",
                "conversations_memory",
            ] {
                try await tx.sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
            }
        }
    }

    static func summary(_ row: any SQLRow) throws -> ConversationSummary {
        ConversationSummary(
            id: try row.decode(column: "id", as: String.self), sessionId: try row.decode(column: "session_id", as: String.self),
            title: try row.decode(column: "title", as: String?.self), workoutId: try row.decode(column: "workout_id", as: String?.self),
            messageCount: Int(try row.decode(column: "message_count", as: Int64.self)),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self)))
    }

    /// An artifact row as a card; a row written before cards is read as the card it is (`StoredCard`), its `lane`
    /// column (then the coach's lane) left unread: a card's lane follows from its type and status.
    static func artifact(_ row: any SQLRow) throws -> Artifact {
        let stored = StoredCard(
            type: try row.decode(column: "type", as: String.self), status: try row.decode(column: "status", as: String.self),
            data: try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(try row.decode(column: "data", as: String.self).utf8)))
        return Artifact(
            id: try row.decode(column: "id", as: String.self), type: stored.type, status: stored.status,
            title: try row.decode(column: "title", as: String.self), data: stored.data,
            result: try row.decode(column: "result", as: String?.self).map {
                try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data($0.utf8))
            },
            messageId: try row.decode(column: "message_id", as: String.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self)))
    }
}
