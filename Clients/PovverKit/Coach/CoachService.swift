import Foundation
import OpenAPIRuntime
import PovverClient

/// Talking to the coach: a message sent, its answer streamed back as typed events.
public struct CoachService: Sendable {
    let client: Client

    /// Sends `message` and streams the coach's answer: `messageStart`, text, status and cards, then `messageEnd` or
    /// `error`. A refusal of the request itself (a bad field, too many streams open) is thrown as `PovverError`.
    /// Cancelling the consuming task, or dropping the stream, closes the connection: the server ends the turn.
    /// - Parameters:
    ///   - conversationId: the conversation to continue; nil opens one (its id comes in `messageStart`).
    ///   - workoutId: the workout in progress, for the workout copilot.
    public func send(_ message: String, conversationId: String? = nil, workoutId: String? = nil) -> AsyncThrowingStream<
        CoachEvent, any Error
    > {
        let client = client
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let output = try await client.streamAgentNormalized(
                        body: .json(.init(conversationId: conversationId, message: message, workoutId: workoutId)))
                    switch output {
                    case .ok(let ok):
                        for try await event in try ok.body.textEventStream.asDecodedServerSentEvents() {
                            guard let data = event.data, let coachEvent = try CoachEvent.decode(Data(data.utf8)) else { continue }
                            continuation.yield(coachEvent)
                        }
                        continuation.finish()
                    case .default(let status, let failure):
                        continuation.finish(throwing: PovverError.failure(status: status) { try failure.body.json })
                    }
                } catch is CancellationError {
                    continuation.finish(throwing: CancellationError())
                } catch {
                    continuation.finish(throwing: Task.isCancelled ? CancellationError() : PovverError.from(error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
