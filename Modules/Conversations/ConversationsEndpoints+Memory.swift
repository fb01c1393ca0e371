import Contracts
import Foundation
import Platform

/// What the user told the coach (`CoachMemory`), to read and to change: the user's own data, so reading and
/// forgetting need no premium.
extension ConversationsEndpoints {
    static let memorySchema = Schema.object(
        [
            "equipment": Schema.array(Schema.enumeration(CoachMemory.equipmentValues), minItems: 1),
            "days": Schema.integer(minimum: 1, maximum: 7), "session_minutes": Schema.integer(minimum: 10, maximum: 240),
            "goal": Schema.enumeration(CoachMemory.goals), "experience": Schema.enumeration(CoachMemory.experiences),
            "injuries": Schema.array(
                Schema.string(minLength: 1, maxLength: CoachMemory.maxItemLength), maxItems: CoachMemory.maxItems),
            "dislikes": Schema.array(
                Schema.string(minLength: 1, maxLength: CoachMemory.maxItemLength), maxItems: CoachMemory.maxItems),
            "updated_at": Schema.timestamp,
        ])

    struct MemoryUpdate: Decodable, Sendable {
        var changes: CoachMemory
        var forget: [CoachMemory.Fact]

        enum CodingKeys: String, CodingKey { case forget }

        init(from decoder: any Decoder) throws {
            changes = try CoachMemory(from: decoder)
            changes.updatedAt = nil
            forget = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([CoachMemory.Fact].self, forKey: .forget) ?? []
        }
    }

    var memory: [Endpoint] {
        let store = module.services.memory
        guard case .object(var update) = Self.memorySchema, case .object(var fields)? = update["properties"] else { return [] }
        fields["updated_at"] = nil
        fields["forget"] = Schema.nullable(Schema.array(Schema.enumeration(CoachMemory.Fact.allCases.map(\.rawValue))))
        update["properties"] = .object(fields)
        return [
            .rpc(
                "getCoachMemory", access: .user, tag: Self.tag, readOnly: true,
                summary: "What the user told the coach (equipment, days, session length, goal, experience, injuries, dislikes).",
                request: Schema.empty, response: Self.memorySchema, input: NoMemoryInput.self
            ) { _, call in try await store.memory(userId: try call.userId()) },
            .rpc(
                "updateCoachMemory", access: .user, tag: Self.tag,
                summary: """
                    Changes what the coach keeps: the facts sent replace the kept ones, `forget` clears the facts it names. Answers \\
                    the facts kept.
                    """,
                request: .object(update), response: Self.memorySchema, input: MemoryUpdate.self
            ) { input, call in
                try await store.update(userId: try call.userId(), changes: input.changes, forget: input.forget)
            },
        ]
    }
}

/// A request that carries nothing.
struct NoMemoryInput: Decodable, Sendable {}
