import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import PovverKit
import Subscription
import TestSupport
import Testing

/// The coach over HTTP with Server-Sent Events, on the whole server: the premium gate, progress answers that
/// match `getExerciseProgress`, and set commands in workout mode.
@Suite struct CoachFlowTests {
    @Test(arguments: TestDatabases.engines)
    func aPremiumUserIsCoachedAndAFreeUserIsNot(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let free = try await client.newUser("free-coach@example.com")
            let paywalled = try await client.coachEvents(.init(message: "how is my bench going?"), token: free)
            #expect(paywalled.count == 1 && paywalled[0].type == "error" && paywalled[0].code == "PREMIUM_REQUIRED")
            // The app's premium paywall reads `error.code`: the same error, nested.
            let nested = try #require(paywalled.first?.error, "\(paywalled)")
            #expect(nested.code == "PREMIUM_REQUIRED" && nested.message == paywalled[0].message)
            let emptyConversation = try #require(await refused { try await client.api(free).initializeSession(body: .json(.init())) })
            #expect(emptyConversation.code == "PREMIUM_REQUIRED", "no empty conversations")

            let token = try await client.newUser("coach@example.com")
            let api = client.api(token)
            let userId = try await api.getUser(body: .json(.init())).ok.body.json.data.id
            _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")

            // A 4-day plan, accepted: the routine is active and its first day comes next.
            let planned = try await client.coachEvents(.init(message: "Build me a 4-day upper/lower plan, full gym"), token: token)
            let artifact = try #require(planned.first { $0.type == "artifact" }, "\(planned)")
            let card = try artifact.card
            #expect(card.type == .routineSummary && card.lane == .planning)
            #expect(planned.last?.type == "message_end" && planned.last?.lane == "slow")
            guard case .routineSummary(let summary) = card.data else {
                Issue.record("a routine summary: \(card)")
                return
            }
            let days = summary.days
            #expect(days.count == 4)
            let planConversation = try #require(planned.first?.conversationId)
            let artifactId = try #require(artifact.artifactId)
            // The legacy camelCase `conversationId` the app still sends.
            let accepted = try await api.artifactAction(
                body: .json(
                    .init(action: .accept, artifactId: artifactId, legacyConversationId: planConversation, idempotencyKey: "accept-plan"))
            ).ok.body.json.data
            let routineId = try #require(try CoachCardsFlowTests.Made(accepted.result).routineId)
            let next = try await api.getNextWorkout(body: .json(.init())).ok.body.json.data
            #expect(next.routineId == routineId && next.index == 0)
            #expect(next.template.name == days[0].name, "\(next)")
            let replay = try await api.artifactAction(
                body: .json(.init(action: .accept, artifactId: artifactId, conversationId: planConversation, idempotencyKey: "accept-plan"))
            ).ok.body.json.data
            #expect(try CoachCardsFlowTests.Made(replay.result).routineId == routineId, "the key replays the answer")
            let routines = try await api.getRoutines(body: .json(.init())).ok.body.json.data
            #expect(routines.items.count == 1, "\(routines)")

            // Two workouts of bench press, then the question.
            _ = try await AnalyticsFlowTests.complete(
                client, token: token, exercise: AnalyticsFlowTests.bench, sets: [(80, 8), (82.5, 6)], key: "a")
            _ = try await AnalyticsFlowTests.complete(
                client, token: token, exercise: AnalyticsFlowTests.bench, sets: [(85, 5), (85, 5)], key: "b")
            try await AnalyticsFlowTests.settle(server)
            let conversationId = try await api.initializeSession(body: .json(.init())).ok.body.json.data.conversationId
            let answer = try await client.coachEvents(
                .init(legacyConversationId: conversationId, message: "How is my bench going?"), token: token)
            #expect(answer.first?.type == "message_start" && answer.last?.type == "message_end")
            let points = try await api.getExerciseProgress(body: .json(.init(exerciseId: AnalyticsFlowTests.bench))).ok.body.json.data
                .points
            let best = try #require(points.map(\.e1rmKg).max())
            let bestText = best == best.rounded() ? "\(Int(best)) kg" : String(format: "%.1f kg", best)
            #expect(answer.text.contains(bestText), "\(answer.text) vs \(points)")
            #expect(answer.contains { $0.type == "artifact" })

            // Workout mode: "8 @ 100" and "done" log the next sets.
            let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "start-c", name: "Bench day"))).ok.body.json
                .data.id
            _ = try await api.addExercise(
                body: .json(.init(exerciseId: AnalyticsFlowTests.bench, idempotencyKey: "add-c", sets: 2, workoutId: workoutId))
            ).ok
            let logged = try await client.coachEvents(.init(message: "8 @ 100", legacyWorkoutId: workoutId), token: token)
            #expect(logged.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 8 × 100 kg."), "\(logged)")
            #expect(logged.last?.type == "message_end" && logged.last?.lane == "fast", "the coach's lane")
            let conversations = try await api.getConversations(body: .json(.init(includeWorkout: true))).ok.body.json.data
            let workoutChat = try #require(conversations.items.first { $0.workoutId == workoutId }?.id)
            let done = try await client.coachEvents(.init(conversationId: workoutChat, message: "done"), token: token)
            #expect(done.text.contains("set 2"), "\(done)")
            let active = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data
            let sets = active?.exercises.first?.sets ?? []
            #expect(sets.count == 2 && sets.allSatisfy { $0.completedAt != nil }, "\(String(describing: active))")

            let detail = try await api.getConversation(body: .json(.init(conversationId: workoutChat))).ok.body.json.data
            #expect(detail.messages.count == 4)
            let foreign = try #require(
                await refused { try await client.api(free).getConversation(body: .json(.init(conversationId: workoutChat))) })
            #expect(foreign.code == "NOT_FOUND")
            _ = try await api.deleteConversation(body: .json(.init(conversationId: workoutChat))).ok
            let deleted = try #require(await refused { try await api.getConversation(body: .json(.init(conversationId: workoutChat))) })
            #expect(deleted.code == "NOT_FOUND")
        }
    }
}
