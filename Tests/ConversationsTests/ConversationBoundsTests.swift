import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Conversations

/// What the coach keeps for a user is bounded (`ConversationCaps`): messages a page, messages a conversation,
/// conversations a user, and workout mode only for the user's own workout in progress.
@Suite struct ConversationBoundsTests {
    typealias H = CoachHarness

    @Test(arguments: TestDatabases.engines)
    func messagesComeNewestFirstAPageAtATime(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let store = h.module.services.store
            let conversation = try await store.create(userId: "u1", workoutId: nil)
            for turn in 0..<5 {
                try await store.recordTurn(
                    userId: "u1", conversationId: conversation.id,
                    messages: [(.user, "q\(turn)", nil, "mq\(turn)"), (.assistant, "a\(turn)", .slow, "ma\(turn)")], artifacts: [],
                    title: nil)
            }
            var pages: [[String]] = []
            var cursor: String?
            repeat {
                let page = try await store.detail(userId: "u1", id: conversation.id, limit: 4, cursor: cursor)
                pages.append(page.messages.map(\.content))
                cursor = page.nextCursor
            } while cursor != nil
            #expect(pages == [["a4", "q4", "a3", "q3"], ["a2", "q2", "a1", "q1"], ["a0", "q0"]])

            let other = try await store.create(userId: "u1", workoutId: nil)
            let first = try await store.detail(userId: "u1", id: conversation.id, limit: 4)
            await expectCode(.invalidArgument, "another conversation's cursor") {
                _ = try await store.detail(userId: "u1", id: other.id, cursor: first.nextCursor)
            }
            await expectCode(.invalidArgument, "101 a page") { _ = try await store.detail(userId: "u1", id: conversation.id, limit: 101) }
            await expectCode(.notFound, "another user's") { _ = try await store.detail(userId: "u2", id: conversation.id) }
        }
    }

    /// A conversation holds 1,000 messages: a turn that would pass them is refused before anything is said, and
    /// one racing past the check is refused when it is recorded.
    @Test(arguments: TestDatabases.engines)
    func aFullConversationRefusesTheNextTurn(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let store = h.module.services.store
            let conversation = try await store.create(userId: "u1", workoutId: nil)
            try await h.module.services.database.sql.raw(
                "UPDATE conversations_threads SET message_count = 999 WHERE id = \(bind: conversation.id)"
            ).run()
            let refused = await h.send("u1", "how is my bench going?", conversationId: conversation.id)
            #expect(refused.types == ["error"] && refused.errorCode == "FAILED_PRECONDITION", "\(refused)")
            await expectCode(.failedPrecondition, "a turn past the cap", details: ["limit": "1000"]) {
                try await store.recordTurn(
                    userId: "u1", conversationId: conversation.id, messages: [(.user, "q", nil, "m1"), (.assistant, "a", .slow, "m2")],
                    artifacts: [], title: nil)
            }
            #expect(try await store.conversation(userId: "u1", id: conversation.id).messageCount == 999, "nothing recorded")
            #expect(await h.send("u1", "how is my bench going?").types.last == "message_end", "a new conversation goes on")
        }
    }

    /// A user keeps 200 conversations: opening one more removes the least recently active, with its messages.
    @Test(arguments: TestDatabases.engines)
    func theLeastRecentlyActiveConversationMakesRoom(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let store = h.module.services.store
            var opened: [ConversationSummary] = []
            for _ in 0..<ConversationCaps.conversationsPerUser {
                opened.append(try await store.create(userId: "u1", workoutId: nil))
                h.clock.advance(by: 1)
            }
            // The first one is the most recently active.
            try await store.recordTurn(
                userId: "u1", conversationId: opened[0].id, messages: [(.user, "q", nil, "m1"), (.assistant, "a", .slow, "m2")],
                artifacts: [], title: nil)
            try await store.recordTurn(
                userId: "u1", conversationId: opened[1].id, messages: [(.user, "q", nil, "m3"), (.assistant, "a", .slow, "m4")],
                artifacts: [], title: nil)
            h.clock.advance(by: 1)
            _ = try await store.create(userId: "u1", workoutId: nil)
            await expectCode(.notFound, "the least recently active") { _ = try await store.conversation(userId: "u1", id: opened[2].id) }
            #expect(try await store.conversation(userId: "u1", id: opened[0].id).messageCount == 2)
            let count = try await h.module.services.database.sql.raw(
                "SELECT COUNT(*) AS n FROM conversations_threads WHERE user_id = 'u1'"
            ).first(decodingColumn: "n", as: Int.self)
            #expect(count == ConversationCaps.conversationsPerUser)
            _ = try await store.create(userId: "u2", workoutId: nil)
            #expect(try await store.list(userId: "u2", limit: 10, cursor: nil).items.count == 1, "another user's are their own")
        }
    }

    /// Workout mode names the user's workout in progress: another user's, a made-up or a finished one is
    /// `NOT_FOUND`, and nothing is stored.
    @Test(arguments: TestDatabases.engines)
    func workoutModeTakesOnlyTheUsersWorkoutInProgress(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let theirs = await h.startWorkout("u2")
            for id in [theirs.id, "made-up"] {
                let refused = await h.send("u1", "8 @ 100", workoutId: id)
                #expect(refused.types == ["error"] && refused.errorCode == "NOT_FOUND", "\(refused)")
            }
            let listed = try await h.module.services.store.list(userId: "u1", limit: 10, cursor: nil, includeWorkout: true)
            #expect(listed.items.isEmpty)
            let mine = await h.startWorkout("u1")
            let logged = await h.send("u1", "8 @ 100", workoutId: mine.id)
            #expect(logged.types.last == "message_end", "\(logged)")
        }
    }
}
