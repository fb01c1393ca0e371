import Contracts
import Foundation
import Logging
import Platform

/// The coach on an OpenAI-compatible model: the agent loop with its guardrails.
///
/// A turn is a few **steps**: the model answers with text (streamed to the user as it comes) and tool calls; the
/// tools run as the request's user (`CoachToolbox`), their results go back as `tool` messages, and the model
/// continues, until it answers without a tool call.
///
/// - **Bounded**: at most `maxSteps` completions per turn; a model still calling tools then is stopped and the
///   user told so. At most `maxToolErrors` refused tool calls per turn, then the same. At most
///   `maxToolCallsPerStep` tool calls of one completion run; each call beyond is answered with a `RATE_LIMITED`
///   tool error (every call must be answered under its id), so the model can make it again in its next step, and
///   is not counted as refused.
/// - **Arguments checked**: a call's arguments must be JSON and fit the tool's schema (`ToolArgumentCheck`); the
///   tool then checks the values (the critic for proposals: every exercise in the catalog, values in range,
///   equipment the user named). A refusal goes back to the model as the tool's result (`{"error": …}`) so it can
///   repair the call, and counts against `maxToolErrors`.
/// - **Writes are gated**: proposals return artifacts the user accepts; only workout mode's tools change the
///   workout in progress, as the user asked in the chat.
/// - Weights the model quotes come from the tools; progression is the analyst's (see the system prompt).
public struct LanguageModelCoach: CoachModel {
    let client: ChatCompletionsClient
    let maxSteps: Int
    var maxToolCallsPerStep = 8
    let maxToolErrors = 3
    let metrics: ServerMetrics
    let logger: Logger

    public var name: String { client.settings.model }

    public func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        var context: TrainingContext?
        do {
            context = try await tools.services.analytics.trainingContext(userId: tools.userId)
        } catch {
            logger.warning("training context not read for the model", metadata: ["error": .string("\(error)")])
        }
        var messages = try CoachPrompt.messages(for: turn, context: context)
        let definitions = tools.definitions
        var toolErrors = 0
        for _ in 0..<maxSteps {
            let reply = try await complete(messages, definitions, tools: tools, say: say)
            guard !reply.toolCalls.isEmpty else { return }
            let calls = reply.toolCalls.enumerated().map { index, call in
                var call = call
                if call.id.isEmpty { call.id = "call_\(index)" }
                return call
            }
            messages.append([
                "role": "assistant", "content": reply.text.isEmpty ? .null : .string(reply.text),
                "tool_calls": .array(
                    calls.map { call in
                        [
                            "id": .string(call.id), "type": "function",
                            "function": ["name": .string(call.name), "arguments": .string(call.arguments)],
                        ]
                    }),
            ])
            for (index, call) in calls.enumerated() {
                guard index < maxToolCallsPerStep else {
                    messages.append(["role": "tool", "tool_call_id": .string(call.id), "content": .string(tooManyCalls)])
                    continue
                }
                let result = try await run(call, tools: tools)
                if result.refused { toolErrors += 1 }
                messages.append(["role": "tool", "tool_call_id": .string(call.id), "content": .string(result.content)])
            }
            if calls.count > maxToolCallsPerStep {
                tools.logger.warning(
                    "the model asked for more tool calls in one step than run",
                    metadata: [
                        "event": "coach_model_tool_calls_capped", "calls": .stringConvertible(calls.count),
                        "limit": .stringConvertible(maxToolCallsPerStep),
                    ])
            }
            if toolErrors > maxToolErrors {
                try await say(
                    "\n\nI could not get that right: my tool calls kept being refused. Please try asking in other words.")
                return
            }
        }
        try await say(
            "\n\nI stopped here: answering took more steps than I allow for one message. Ask me again, one thing at a time.")
    }

    /// One completion, timed and its tokens counted.
    private func complete(
        _ messages: [JSONValue], _ definitions: [CoachToolDefinition], tools: CoachToolbox,
        say: @escaping @Sendable (String) async throws -> Void
    ) async throws -> ModelReply {
        let started = ContinuousClock.now
        var outcome = "error"
        defer { metrics.observe(CoachMetrics.modelDuration, labels: [("outcome", outcome)], duration: ContinuousClock.now - started) }
        let reply = try await client.complete(messages: messages, tools: definitions, logger: tools.logger, onText: say)
        outcome = "ok"
        tools.usage.add(prompt: reply.promptTokens, completion: reply.completionTokens)
        metrics.add(CoachMetrics.modelTokens, labels: [("kind", "prompt")], amount: reply.promptTokens)
        metrics.add(CoachMetrics.modelTokens, labels: [("kind", "completion")], amount: reply.completionTokens)
        return reply
    }

    /// Runs a tool call; a refusal (bad JSON, arguments that do not fit, a value the tool refuses, an unknown tool)
    /// becomes the result the model reads. A fault of the server itself (or cancellation) ends the turn.
    private func run(_ call: ModelToolCall, tools: CoachToolbox) async throws -> (content: String, refused: Bool) {
        do {
            let text = call.arguments.trimmingCharacters(in: .whitespacesAndNewlines)
            let arguments: JSONValue
            do {
                arguments = text.isEmpty ? [:] : try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            } catch {
                throw ServiceError.invalidArgument(field: "arguments", reason: "are not valid JSON")
            }
            if let definition = tools.definitions.first(where: { $0.name == call.name }) {
                try ToolArgumentCheck.check(arguments, against: definition.parameters)
            }
            let result = try await tools.call(call.name, arguments: arguments)
            return (Self.text(result), false)
        } catch let error as ServiceError where error.code != .internalError {
            var refusal: [String: JSONValue] = ["code": .string(error.code.rawValue), "message": .string(error.message)]
            for (key, value) in error.details { refusal[key] = .string(value) }
            return (Self.text(["error": .object(refusal)]), true)
        }
    }

    /// The result of a tool call beyond `maxToolCallsPerStep` in one completion.
    var tooManyCalls: String {
        Self.text([
            "error": [
                "code": .string(ErrorCode.rateLimited.rawValue),
                "message": .string(
                    "Too many tool calls in one step: only the first \(maxToolCallsPerStep) ran. Make this call again after reading their results."
                ),
                "limit": .string("\(maxToolCallsPerStep)"),
            ]
        ])
    }

    static func text(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
