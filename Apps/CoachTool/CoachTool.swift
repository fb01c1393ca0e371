import Contracts
import Conversations
import Foundation
import Platform

/// `povver-coach`: talks to the coach as a user, on a composition with Conversations (the server's database). A
/// turn streams its text to `write` as it arrives and renders its artifacts as readable text.
public struct CoachTool: Sendable {
    let coach: ConversationsModule

    /// Works on `composition`, which must hold Conversations (the CLI's `AdminComposition`, or a test's).
    public init(composition: Composition) throws {
        self.coach = try composition.module(ConversationsModule.self)
    }

    /// One turn: streams the answer to `write`; answers the conversation's id (for the next turn). An `error`
    /// event ends it with a thrown `ServiceError`.
    @discardableResult
    public func turn(
        userId: String, message: String, conversationId: String?, workoutId: String?, write: @Sendable (String) -> Void
    ) async throws -> String? {
        var sawText = false
        var conversation = conversationId
        for try await event in coach.chat(userId: userId, message: message, conversationId: conversationId, workoutId: workoutId) {
            switch event["type"]?.stringValue {
            case "message_start": conversation = event["conversation_id"]?.stringValue ?? conversation
            // The answer may repeat what the user (or a model) wrote: printed through `TerminalText`, lines kept.
            case "text":
                write(TerminalText.escaped(event["delta"]?.stringValue ?? "", keepingLines: true))
                sawText = true
            case "status" where event["phase"]?.stringValue == "tool_start":
                write((sawText ? "\n" : "") + "· \(TerminalText.escaped(event["tool"]?.stringValue ?? "tool"))…\n")
                sawText = false
            case "artifact":
                let data = event["data"] ?? [:]
                let artifact = ArtifactText.render(
                    type: data["type"]?.stringValue ?? "?", title: data["title"]?.stringValue ?? "", data: data["data"] ?? [:])
                write(
                    (sawText ? "\n" : "") + TerminalText.escaped(artifact, keepingLines: true)
                        + "\n  (artifact \(TerminalText.escaped(event["artifact_id"]?.stringValue ?? "?")))\n")
                sawText = false
            case "message_end":
                if sawText { write("\n") }
            default:
                break
            }
        }
        return conversation
    }

    /// What the user told the coach, a fact a line (after forgetting the facts `forget` names).
    public func memory(userId: String, forget: [String]) async throws -> String {
        let facts = try forget.map { name in
            guard let fact = CoachMemory.Fact(rawValue: name) else {
                throw ServiceError.invalidArgument(
                    field: "forget", reason: "not a fact: use \(CoachMemory.Fact.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return fact
        }
        let memory = try await coach.memory(userId: userId, forget: facts)
        guard !memory.isEmpty else { return "nothing kept\n" }
        return memory.lines.map { TerminalText.escaped($0) + "\n" }.joined()
    }

    /// The user's conversations as a table.
    public func conversations(userId: String, limit: Int) async throws -> String {
        let page = try await coach.conversations(userId: userId, limit: limit)
        guard !page.items.isEmpty else { return "no conversations\n" }
        return TextTable.render(
            ["id", "title", "messages", "workout", "updated"],
            page.items.map {
                [$0.id, $0.title ?? "", "\($0.messageCount)", $0.workoutId ?? "", ISO8601DateFormatter().string(from: $0.updatedAt)]
            })
    }
}
