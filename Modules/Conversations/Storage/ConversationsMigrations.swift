import Foundation
import Platform

/// Conversations' tables: conversations, their messages in order, the artifacts the coach proposed, the answers
/// of keyed artifact actions, and what each user told the coach (`CoachMemory`).
enum ConversationsMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "conversations, messages, artifacts") { engine in
            [
                """
                CREATE TABLE conversations_threads (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    session_id TEXT NOT NULL,
                    title TEXT,
                    workout_id TEXT,
                    message_count BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX conversations_threads_user_recent ON conversations_threads (user_id, updated_at, id)",
                """
                CREATE TABLE conversations_messages (
                    conversation_id TEXT NOT NULL,
                    seq BIGINT NOT NULL,
                    id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    role TEXT NOT NULL,
                    content TEXT NOT NULL,
                    lane TEXT,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (conversation_id, seq)
                )
                """,
                """
                CREATE TABLE conversations_artifacts (
                    id TEXT PRIMARY KEY,
                    conversation_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    message_id TEXT NOT NULL,
                    type TEXT NOT NULL,
                    lane TEXT NOT NULL,
                    status TEXT NOT NULL,
                    title TEXT NOT NULL,
                    data TEXT NOT NULL,
                    result TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX conversations_artifacts_by_conversation ON conversations_artifacts (conversation_id, created_at, id)",
            ] + IdempotencyStore.tableStatements("conversations_idempotency", engine: engine)
        },
        Migration(version: 2, name: "what users told the coach") { _ in
            [
                """
                CREATE TABLE conversations_memory (
                    user_id TEXT PRIMARY KEY,
                    document TEXT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """
            ]
        },
    ]
}
