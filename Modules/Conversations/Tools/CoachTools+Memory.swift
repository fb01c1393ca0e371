import Contracts
import Foundation
import Platform

/// The tools that keep what the user told the coach (`CoachMemory`): `get_coach_memory` reads it, `remember` sets
/// facts and forgets others. Memory is the user's own data, not a proposal: it changes at once, and the user sees
/// and edits it (`getCoachMemory`, `updateCoachMemory`).
extension CoachTools {
    static let memoryTools: [CoachToolDefinition] = [
        CoachToolDefinition(
            name: "get_coach_memory",
            description: "What the user told you before: equipment, days, session length, goal, experience, injuries, dislikes.",
            parameters: Schema.object([:]), workoutOnly: false),
        CoachToolDefinition(
            name: "remember",
            description:
                "Keeps lasting facts the user stated about their training (replacing what was kept), or forgets some when they say they no longer hold.",
            parameters: Schema.object([
                "equipment": Schema.array(Schema.enumeration(CoachMemory.equipmentValues), minItems: 1),
                "days": Schema.integer(minimum: 1, maximum: 7), "session_minutes": Schema.integer(minimum: 10, maximum: 240),
                "goal": Schema.enumeration(CoachMemory.goals), "experience": Schema.enumeration(CoachMemory.experiences),
                "injuries": Schema.array(Schema.string(maxLength: CoachMemory.maxItemLength), maxItems: CoachMemory.maxItems),
                "dislikes": Schema.array(Schema.string(maxLength: CoachMemory.maxItemLength), maxItems: CoachMemory.maxItems),
                "forget": Schema.array(Schema.enumeration(CoachMemory.Fact.allCases.map(\.rawValue))),
            ]), workoutOnly: false),
    ]

    /// Runs a memory tool; nil for any other name.
    static func runMemory(_ name: String, arguments: JSONValue, in box: CoachToolbox) async throws -> JSONValue? {
        switch name {
        case "get_coach_memory":
            return try JSONValue(encoding: try await box.services.memory.memory(userId: box.userId))
        case "remember":
            struct Arguments: Decodable {
                var forget: [CoachMemory.Fact]?
            }
            let changes = try arguments.decode(CoachMemory.self)
            let forget = try arguments.decode(Arguments.self).forget ?? []
            return try JSONValue(encoding: try await box.services.memory.update(userId: box.userId, changes: changes, forget: forget))
        default:
            return nil
        }
    }
}
