import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import TestSupport
import Testing

/// Issue 50's examples over HTTP through the whole server with the default coach: each answer's card decodes as the
/// app decodes it, and accepting it makes what the lifter asked for.
@Suite struct CoachLifterRequestsFlowTests {
    /// The one card of a turn, decoded strictly, with its raw form and the conversation.
    static func turn(
        _ client: some TestClientProtocol, _ message: String, token: String, conversationId: String? = nil
    ) async throws -> (card: [String: Any], decoded: CanvasCardModel, conversationId: String) {
        var body: [String: Any] = ["message": message]
        if let conversationId { body["conversation_id"] = conversationId }
        let events = try await CoachFlowTests.stream(client, body, token: token)
        let cards = events.filter { $0["type"] as? String == "artifact" }.compactMap { $0["data"] as? [String: Any] }
        #expect(cards.count == 1, "\(message): \(events)")
        let card = try #require(cards.first)
        let decoded = try CanvasCardModel.decode(try JSONSerialization.data(withJSONObject: card))
        return (card, decoded, try #require(events.first?["conversation_id"] as? String))
    }

    static func accept(
        _ client: some TestClientProtocol, _ turn: (card: [String: Any], decoded: CanvasCardModel, conversationId: String), token: String,
        action: String = "accept"
    ) async throws -> [String: Any] {
        let reply = try await CoachCardsFlowTests.act(client, action, (turn.card, turn.conversationId), token: token)
        #expect(reply.status == .ok, "\(reply.json)")
        return try #require(reply.data["result"] as? [String: Any], "\(reply.json)")
    }

    @Test(arguments: TestDatabases.engines)
    func aFiveByFiveIsMadeThenMovedToFourDaysAndItsBenchSwapped(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await CoachModelFlowTests.premiumUser(server, client, "five-by-five@example.com")
            let program = try await Self.turn(client, "Give me a 5x5 program", token: token)
            #expect(program.decoded.type == .routineSummary && program.decoded.title == "StrongLifts 5×5")
            let made = try await Self.accept(client, program, token: token)
            let routineId = try #require(made["routine_id"] as? String)

            let days = try await Self.turn(client, "Change my routine to 4 days", token: token)
            #expect(days.decoded.type == .routineUpdate)
            _ = try await Self.accept(client, days, token: token)
            let routine = try await client.call("getRoutine", ["routine_id": routineId], token: token)
            #expect((routine.data["routine"] as? [String: Any] ?? routine.data)["frequency"] as? Int == 4, "\(routine.json)")

            let swap = try await Self.turn(client, "Swap bench for incline dumbbell press", token: token)
            #expect(swap.decoded.type == .templateUpdate)
            let changed = try await Self.accept(client, swap, token: token)
            let template = try await client.call("getTemplate", ["template_id": changed["template_id"] ?? ""], token: token)
            let exercises = ((template.data["template"] as? [String: Any] ?? template.data)["exercises"] as? [[String: Any]]) ?? []
            #expect(exercises.compactMap { $0["exercise_id"] as? String }.contains("Incline_Dumbbell_Press"), "\(template.json)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aDumbbellRoutineAndAPushSessionAreMadeAsAsked(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await CoachModelFlowTests.premiumUser(server, client, "dumbbells-only@example.com")
            let plan = try await Self.turn(client, "No barbell, just dumbbells. 3 day full body", token: token)
            #expect(plan.decoded.type == .routineSummary && !plan.decoded.title.lowercased().contains("barbell"), "\(plan.decoded.title)")
            _ = try await Self.accept(client, plan, token: token)

            let session = try await Self.turn(client, "Give me a 45-minute push workout", token: token)
            guard case .sessionPlan(let push) = session.decoded.data else {
                Issue.record("a session plan: \(session.card)")
                return
            }
            #expect(push.name == "Push (45 min)" && !push.exercises.isEmpty)
            let started = try await Self.accept(client, session, token: token, action: "start_workout")
            #expect(started["workout_id"] is String, "\(started)")
        }
    }
}
