import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Conversations

extension CoachHarness {
    /// Makes `userId` (premium in the harness: `u1`, `u2`) a user whose `weight_format` is `pounds`, as Auth stores it.
    func choosePounds(_ userId: String) async {
        await accounts.add(
            AccountSummary(
                userId: userId, email: "\(userId)@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                createdAt: clock.now(), timeZone: "America/Chicago", name: "Pat", weightFormat: "pounds"))
    }
}

/// A user who reads pounds: what they type without a unit is pounds, what is stored is kilograms, and what the
/// coach says is pounds.
@Suite struct PoundUserCoachTests {
    typealias H = CoachHarness

    @Test(arguments: TestDatabases.engines)
    func theFastLaneReadsAndAnswersInPounds(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.choosePounds("u2")
            let workout = await h.startWorkout("u2")
            let first = await h.send("u2", "8 @ 225", workoutId: workout.id)
            #expect(
                first.text
                    == "Logged Barbell Bench Press - Medium Grip set 1: 8 × 225 lb. Next: Barbell Bench Press - Medium Grip, set 2: 8 reps at 220.5 lb, 2 in reserve.",
                "the planned 100 kg reads as pounds too: \(first.text)")
            let conversationId = try #require(first.first?["conversation_id"]?.stringValue)
            // A unit written out wins; a bare pair is pounds; "done" repeats the plan.
            let kilos = await h.send("u2", "100 kg x 5", conversationId: conversationId)
            #expect(kilos.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 2: 5 × 220.5 lb."), "\(kilos.text)")
            let pair = await h.send("u2", "135x8", conversationId: conversationId)
            #expect(pair.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 3: 8 × 135 lb."), "\(pair.text)")
            let next = await h.send("u2", "next set", conversationId: conversationId)
            #expect(next.text == "Next: Barbell Squat, set 1: 5 reps at 308.6 lb, 2 in reserve.", "\(next.text)")

            let sets = try #require(try await h.workouts.activeWorkout(userId: "u2")).exercises[0].sets
            #expect(sets.map(\.weightKg) == [102.06, 100, 61.23], "stored in kilograms")
            #expect(sets.map(\.reps) == [8, 5, 8])

            // A kilogram user's same message is kilograms, as before.
            let kiloWorkout = await h.startWorkout("u1")
            let kiloUser = await h.send("u1", "8 @ 225", workoutId: kiloWorkout.id)
            #expect(kiloUser.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 8 × 225 kg."), "\(kiloUser.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theFunctionalLaneAndTheRulesCoachSpeakPounds(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.choosePounds("u2")
            let workout = await h.startWorkout("u2")
            // The app's intent carries kilograms, as the API does; the sentence is in pounds.
            let intent = await h.send("u2", #"{"intent": "LOG_SET", "reps": 8, "weight_kg": 61.23}"#, workoutId: workout.id)
            #expect(intent.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 8 × 135 lb."), "\(intent.text)")
            let conversationId = try #require(intent.first?["conversation_id"]?.stringValue)
            let prescribed = await h.send(
                "u2", #"{"intent": "PRESCRIBE_SET", "target_weight_kg": 104.326}"#, conversationId: conversationId)
            #expect(prescribed.text.contains("8 reps at 230 lb"), "a pound grid weight reads back exactly: \(prescribed.text)")
            let asked = await h.send("u2", "what now, coach", conversationId: conversationId)
            #expect(asked.text.hasPrefix("Next up: Barbell Bench Press - Medium Grip, set 2: 8 reps at 230 lb"), "\(asked.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theProfileToolGivesTheUnitAuthStores(engine: SQLEngine) async throws {
        try await H.with(engine, model: ProfileReadingModel()) { h in
            await h.choosePounds("u2")
            let events = await h.send("u2", "who am I")
            #expect(events.text.hasPrefix("Pat America/Chicago lb;"), "\(events.text)")
        }
    }

    /// A model is told the user's unit; a kilogram user's prompt is as it was.
    @Test(arguments: TestDatabases.engines)
    func aModelIsToldToSpeakPounds(engine: SQLEngine) async throws {
        let replies: [FakeChatServer.Reply] = [.stream(FakeChatServer.text(["Hi."])), .stream(FakeChatServer.text(["Hi."]))]
        try await LanguageModelCoachTests.with(engine, replies) { h, server in
            await h.choosePounds("u2")
            _ = await h.send("u2", "hi")
            _ = await h.send("u1", "hi")
            let systems = server.requests.map { $0.body["messages"]?.arrayValue?.first?["content"]?.stringValue ?? "" }
            #expect(systems.count == 2 && systems[0].contains(CoachPrompt.pounds) && systems[0].hasPrefix(CoachPrompt.system))
            #expect(systems[1] == CoachPrompt.system, "\(systems[1])")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func progressAnswersAreInPounds(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.choosePounds("u2")
            await h.analytics.set(
                userId: "u2", exerciseId: H.bench,
                weeks: [
                    ExerciseWeek(
                        weekStart: "2026-11-16", e1rmKg: 100, topWeightKg: 90.72, bestSet: .init(weightKg: 90.72, reps: 5),
                        volumeKg: 2400, sets: 3, reps: 15),
                    ExerciseWeek(
                        weekStart: "2026-11-23", e1rmKg: 102.06, topWeightKg: 92.99, bestSet: .init(weightKg: 92.99, reps: 5),
                        volumeKg: 2500, sets: 3, reps: 15),
                ])
            let events = await h.send("u2", "how is my bench going?")
            #expect(events.text.contains("best estimated 1RM this period is 225 lb"), "\(events.text)")
            #expect(events.text.contains("top set of 205 lb × 5"), "\(events.text)")
            #expect(events.text.contains("up 4.5 lb since the week of 2026-11-16"), "\(events.text)")
        }
    }
}
