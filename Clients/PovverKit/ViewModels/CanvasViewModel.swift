import Foundation
import Observation
import OpenAPIRuntime
import PovverClient

/// The coach's canvas: the conversation's text as it streams, the cards it proposes, and acting on a card.
@MainActor @Observable
public final class CanvasViewModel {
    private let coach: CoachService
    private let client: Client
    /// The conversation; set by the first answer.
    public private(set) var conversationId: String?
    /// The coach's text of the current (or last) answer, as it streams.
    public private(set) var answer = ""
    /// What the coach is doing meanwhile (`thinking`, a tool's name), nil when idle.
    public private(set) var status: String?
    /// The cards of this conversation, newest last; an acted-on card is replaced by the server's answer.
    public private(set) var cards: [CanvasCardModel] = []
    public private(set) var isStreaming = false
    /// The last failure: a refused request or a turn's `error` event (`PREMIUM_REQUIRED` shows the paywall).
    public private(set) var failure: PovverError?
    private var turn: Task<Void, Never>?

    public init(coach: CoachService, client: Client, conversationId: String? = nil) {
        self.coach = coach
        self.client = client
        self.conversationId = conversationId
    }

    /// Sends a message and follows its answer until it ends or `cancel()`.
    public func send(_ message: String) async {
        cancel()
        let task = Task { await self.follow(message) }
        turn = task
        await task.value
    }

    /// Stops following the answer; the connection is closed and the server ends the turn.
    public func cancel() {
        turn?.cancel()
        turn = nil
    }

    private func follow(_ message: String) async {
        answer = ""
        failure = nil
        isStreaming = true
        defer {
            isStreaming = false
            status = nil
        }
        do {
            for try await event in coach.send(message, conversationId: conversationId) {
                switch event {
                case .messageStart(_, let conversationId): self.conversationId = conversationId
                case .text(let delta): answer += delta
                case .status(let phase, let tool, _): status = tool ?? phase
                case .card(let card): cards.append(card)
                case .messageEnd: status = nil
                case .error(let code, let message): failure = .refused(status: 200, code: code, message: message, details: [:])
                }
            }
        } catch is CancellationError {
        } catch {
            failure = PovverError.from(error)
        }
    }

    /// Acts on a card (`artifactAction`: accept, reject, save_routine, start_workout, save_as_template) with an
    /// idempotency key, and shows the card as the server answers it.
    public func act(_ action: Operations.ArtifactAction.Input.Body.JsonPayload.ActionPayload, on card: CanvasCardModel) async {
        guard let conversationId else { return }
        do {
            let output = try await client.artifactAction(
                body: .json(.init(action: action, artifactId: card.id, conversationId: conversationId, idempotencyKey: UUID().uuidString)))
            switch output {
            case .ok(let ok):
                let updated = try CanvasCardModel.decode(try JSONEncoder().encode(try ok.body.json.data.artifact))
                if let index = cards.firstIndex(where: { $0.id == updated.id }) { cards[index] = updated }
            case .default(let status, let failure): self.failure = PovverError.failure(status: status) { try failure.body.json }
            }
        } catch {
            failure = PovverError.from(error)
        }
    }
}
