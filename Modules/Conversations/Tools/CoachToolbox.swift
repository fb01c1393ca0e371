import Contracts
import Foundation
import Logging
import Platform
import Synchronization

/// A tool as a model sees it: its name, what it is for, and its arguments as a JSON Schema.
public struct CoachToolDefinition: Sendable {
    public var name: String
    public var description: String
    public var parameters: JSONValue
    /// Only in workout mode (they change the workout in progress).
    public var workoutOnly: Bool
}

/// The tools of one turn, bound to the request's user (never a user a model names), its conversation and the
/// message being answered. Each call is announced with `status` events, logged as `tool_called` with its latency
/// and counted per tool; proposals become artifacts (stored, then streamed), never writes.
public struct CoachToolbox: Sendable {
    let userId: String
    let conversationId: String
    let messageId: String
    let workoutId: String?
    let services: CoachServices
    let emit: @Sendable (CoachEvent) async throws -> Void
    let logger: Logger
    /// The artifacts proposed in this turn, stored with its messages when it ends.
    let proposed: ProposedArtifacts
    /// Counts this turn's writes, so each gets an idempotency key of its own (a model may log two sets in a turn).
    let writes = CoachStream.EventCounter()
    /// The equipment the turn's message names ("with dumbbells"), which proposals must keep to; nil when it names none.
    var requestedEquipment: EquipmentSet?
    /// The unit the user reads weights in, for the texts tools answer (their numbers stay kilograms).
    var weightUnit = WeightUnit.kilograms
    /// The model's tokens and the tool calls of this turn, for `agent_request_completed`.
    let usage = TurnUsage()

    /// The tools this turn may call (the workout tools only in workout mode).
    public var definitions: [CoachToolDefinition] {
        CoachTools.all.filter { workoutId != nil || !$0.workoutOnly }
    }

    /// Calls a tool by name with JSON arguments and answers its JSON result. An unknown tool, a workout tool
    /// outside workout mode, or arguments that do not fit its schema throw `INVALID_ARGUMENT` naming the field.
    public func call(_ name: String, arguments: JSONValue = [:]) async throws -> JSONValue {
        guard let tool = definitions.first(where: { $0.name == name }) else {
            throw ServiceError.invalidArgument(field: "tool", reason: "no tool named \(name) in this conversation")
        }
        try await emit(.status(phase: "tool_start", tool: tool.name, detail: nil))
        usage.countToolCall()
        let started = ContinuousClock.now
        var outcome = "ok"
        defer {
            let elapsed = ContinuousClock.now - started
            services.metrics.observe(CoachMetrics.toolDuration, labels: [("tool", tool.name), ("outcome", outcome)], duration: elapsed)
            logger.info(
                "tool_called",
                metadata: [
                    "event": "tool_called", "tool": .string(tool.name), "outcome": .string(outcome),
                    "latency_ms": .stringConvertible(elapsed.milliseconds),
                    "conversation_id": .string(conversationId),
                ])
        }
        do {
            let result = try await CoachTools.run(tool.name, arguments: arguments, in: self)
            try await emit(.status(phase: "tool_end", tool: tool.name, detail: nil))
            return result
        } catch {
            outcome = (error as? ServiceError)?.code.rawValue ?? "INTERNAL"
            throw error
        }
    }

    /// The idempotency key of the turn's next write through a tool: the message id and the write's number.
    func writeKey(_ tool: String) -> String {
        "\(messageId):\(writes.next()):\(tool)"
    }

    /// Streams an artifact proposed in this turn; it is stored with the turn's messages. Each is a millisecond after
    /// the one before at least, so a conversation lists a turn's cards in the order proposed (by time, then id).
    func propose(_ type: ArtifactType, title: String, data: JSONValue) async throws -> Artifact {
        let now = max(services.clock.now(), proposed.all.last.map { $0.createdAt.addingTimeInterval(0.001) } ?? .distantPast)
        let artifact = Artifact(
            id: services.ids.makeID(), type: type, status: .pending, title: String(title.prefix(120)), data: data, messageId: messageId,
            createdAt: now, updatedAt: now)
        proposed.append(artifact)
        try await emit(.artifact(artifact))
        return artifact
    }
}

/// What a turn used: the model's tokens (as the server counted them) and the tool calls.
final class TurnUsage: Sendable {
    private let counts = Mutex((prompt: 0, completion: 0, tools: 0))
    func add(prompt: Int, completion: Int) {
        counts.withLock {
            $0.prompt += prompt
            $0.completion += completion
        }
    }
    func countToolCall() { counts.withLock { $0.tools += 1 } }
    var totals: (prompt: Int, completion: Int, tools: Int) { counts.withLock { $0 } }
}

/// The artifacts of one turn, in the order proposed.
final class ProposedArtifacts: Sendable {
    private let items = Mutex<[Artifact]>([])
    func append(_ artifact: Artifact) { items.withLock { $0.append(artifact) } }
    var all: [Artifact] { items.withLock { $0 } }
}

extension Duration {
    /// The duration in milliseconds, for logs.
    var milliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}

/// The coach's Prometheus series.
enum CoachMetrics {
    static let toolDuration = ServerMetrics.MetricName("povver_coach_tool_duration_seconds", help: "Coach tool calls by tool and outcome.")
    static let laneDuration = ServerMetrics.MetricName(
        "povver_coach_turn_duration_seconds", help: "Coach turns from request to message_end, by lane.")
    static let modelDuration = ServerMetrics.MetricName(
        "povver_coach_model_duration_seconds", help: "Completions of the coach's language model, from request to the last chunk.")
    static let modelTokens = ServerMetrics.MetricName(
        "povver_coach_model_tokens_total", help: "Tokens of the coach's language model as its server counted them, by kind.")
}
