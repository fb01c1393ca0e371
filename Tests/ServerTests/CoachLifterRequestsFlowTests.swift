import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import PovverKit
import TestSupport
import Testing

/// Issue 50's examples over HTTP through the whole server with the default coach: each answer's card decodes as the
/// app decodes it, and accepting it makes what the lifter asked for.
@Suite struct CoachLifterRequestsFlowTests {
    /// The one card of a turn, decoded strictly as the app decodes it, with its event and the conversation.
    static func turn(
        _ client: some TestClientProtocol, _ message: String, token: String, conversationId: String? = nil
    ) async throws -> (proposal: CoachCardsFlowTests.Proposal, decoded: CoachCardsFlowTests.AppCard) {
        let events = try await client.coachEvents(.init(conversationId: conversationId, message: message), token: token)
        let cards = events.filter { $0.type == "artifact" }
        #expect(cards.count == 1, "\(message): \(events)")
        let proposal = CoachCardsFlowTests.Proposal(
            artifact: try #require(cards.first), conversationId: try #require(events.first?.conversationId))
        return (proposal, try proposal.card)
    }

    static func accept(
        _ client: some TestClientProtocol, _ turn: (proposal: CoachCardsFlowTests.Proposal, decoded: CoachCardsFlowTests.AppCard),
        token: String, action: CoachCardsFlowTests.Action = .accept
    ) async throws -> CoachCardsFlowTests.Made {
        let acted = try await CoachCardsFlowTests.act(client, action, turn.proposal, token: token)
        return try CoachCardsFlowTests.Made(acted.result)
    }

    @Test(arguments: TestDatabases.engines)
    func aFiveByFiveIsMadeThenMovedToFourDaysAndItsBenchSwapped(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await CoachModelFlowTests.premiumUser(server, client, "five-by-five@example.com")
            let api = client.api(token)
            let program = try await Self.turn(client, "Give me a 5x5 program", token: token)
            #expect(program.decoded.type == .routineSummary && program.decoded.title == "StrongLifts 5×5")
            let made = try await Self.accept(client, program, token: token)
            let routineId = try #require(made.routineId)

            let days = try await Self.turn(client, "Change my routine to 4 days", token: token)
            #expect(days.decoded.type == .routineUpdate)
            _ = try await Self.accept(client, days, token: token)
            let routine = try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(routine.frequency == 4, "\(routine)")

            let swap = try await Self.turn(client, "Swap bench for incline dumbbell press", token: token)
            #expect(swap.decoded.type == .templateUpdate)
            let changed = try await Self.accept(client, swap, token: token)
            let template = try await api.getTemplate(body: .json(.init(templateId: try #require(changed.templateId)))).ok.body.json.data
            #expect(template.exercises.map(\.exerciseId).contains("Incline_Dumbbell_Press"), "\(template)")
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
                Issue.record("a session plan: \(session.proposal.artifact)")
                return
            }
            #expect(push.name == "Push (45 min)" && !push.exercises.isEmpty)
            let started = try await Self.accept(client, session, token: token, action: .startWorkout)
            #expect(started.workoutId != nil, "\(started)")
        }
    }
}
