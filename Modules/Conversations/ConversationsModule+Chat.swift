import Contracts
import Foundation
import Logging
import Platform

extension ConversationsModule {
    /// One turn as a caller outside HTTP sees it (the coach CLI): each event's JSON in order, as the SSE stream
    /// carries it. The same turn as `streamAgentNormalized`: premium gate, lanes, storage.
    public func chat(
        userId: String, message: String, conversationId: String? = nil, workoutId: String? = nil,
        logger: Logger = Logger(label: "povver.coach")
    ) -> AsyncThrowingStream<JSONValue, any Error> {
        let events: AsyncThrowingStream<ServerSentEvent, any Error>
        do {
            events = try openStream(
                userId: userId, input: StreamInput(conversationId: conversationId, message: message, workoutId: workoutId), logger: logger)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        continuation.yield(try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(event.data.utf8)))
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// A turn's stream under the user's stream limit (`UserStreamLimit`): throws `RATE_LIMITED` before anything
    /// starts when the user has as many open as the limit allows; the slot is given back when the turn ends.
    func openStream(userId: String, input: StreamInput, logger: Logger) throws -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let slot = try streamLimit.take(userId: userId)
        return stream.events(userId: userId, input: input, requestLogger: logger, onEnd: { slot.release() })
    }

    /// What the user told the coach; `forget` clears the facts it names first.
    public func memory(userId: String, forget: [CoachMemory.Fact] = []) async throws -> CoachMemory {
        guard !forget.isEmpty else { return try await services.memory.memory(userId: userId) }
        return try await services.memory.update(userId: userId, changes: CoachMemory(), forget: forget)
    }

    /// The user's conversations, most recent first (a page of `limit`), workout-mode chats included.
    public func conversations(userId: String, limit: Int = 20, cursor: String? = nil) async throws -> (
        items: [ConversationSummary], nextCursor: String?
    ) {
        try await services.store.list(userId: userId, limit: limit, cursor: cursor, includeWorkout: true)
    }
}
