import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Conversations

/// The workout copilot stays in the workout: set commands act on a workout in progress and elsewhere get a sentence,
/// "finished" asks before it finishes, and the brief says what the lifter did last time.
@Suite struct WorkoutCopilotTests {
    typealias H = CoachHarness

    @Test(arguments: TestDatabases.engines)
    func aSetCommandWithNoWorkoutGetsASentenceNotAnError(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            for message in ["8 @ 100", "done", "same", "next set", "finished"] {
                let events = await h.send("u1", message)
                #expect(events.types.last == "message_end" && events.errorCode == nil, "\(message): \(events)")
                #expect(events.text.contains("no workout in progress"), "\(message): \(events.text)")
            }
        }
    }

    /// "finished" and "I'm done" never log a set: they propose finishing, and accepting the card finishes the
    /// workout; "done" still logs the next set as planned.
    @Test(arguments: TestDatabases.engines)
    func finishingAsksFirstAndAcceptingFinishes(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let workout = await h.startWorkout("u1")
            let early = await h.send("u1", "I'm done", workoutId: workout.id)
            #expect(early.text.hasPrefix("Nothing is logged in Push yet") && early.artifacts.isEmpty, "\(early)")
            let logged = await h.send("u1", "done", workoutId: workout.id)
            #expect(logged.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 1"), "\(logged.text)")

            let finish = await h.send("u1", "finished", workoutId: workout.id)
            let card = try #require(finish.artifacts.first?["data"], "\(finish)")
            #expect(card["type"] == "suggestion" && card["title"] == "Finish Push?" && card["subtitle"] == "1 of 5 sets logged.")
            #expect(card["actions"] == ["accept", "reject"])
            let sets = try await h.workouts.activeWorkout(userId: "u1")?.exercises.flatMap(\.sets).filter { $0.completedAt != nil }
            #expect(sets?.count == 1, "finishing logged nothing")

            let conversation = try #require(finish.first?["conversation_id"]?.stringValue)
            _ = try await h.module.actions.perform(
                userId: "u1",
                request: .init(
                    action: .accept, artifactId: try #require(finish.artifacts.first?["artifact_id"]?.stringValue),
                    conversationId: conversation),
                idempotencyKey: "finish-1")
            #expect(try await h.workouts.activeWorkout(userId: "u1") == nil, "the workout is finished")
        }
    }

    /// Between sets the copilot says today's target and what the lifter did in that exercise last time.
    @Test(arguments: TestDatabases.engines)
    func theBriefCarriesLastSessionAndTodaysTarget(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let workout = await h.startWorkout("u1")
            let set = { (reps: Int) in
                TrainingSet(
                    workoutId: "w-old", exerciseId: H.bench, exerciseName: "Bench", date: "2025-12-20", weekStart: "2025-12-15",
                    weightKg: 95,
                    reps: reps, rir: 2, e1rmKg: 110, volumeKg: 95 * Double(reps), working: true, primaryMuscles: ["chest"],
                    secondaryMuscles: [])
            }
            await h.analytics.set(userId: "u1", sets: [set(8), set(8), set(8)])
            let events = await h.send("u1", "what now?", workoutId: workout.id)
            #expect(
                events.text.contains("Next up: Barbell Bench Press - Medium Grip, set 1: 8 reps at 100 kg, 2 in reserve."), "\(events.text)"
            )
            #expect(events.text.contains("Last time (2025-12-20): 3 × 8 @ 95 kg, RIR 2."), "\(events.text)")
        }
    }

    /// A conversation is titled by its topic, never by a set command; a workout-mode chat by its workout, and it is
    /// left out of the list unless asked for.
    @Test(arguments: TestDatabases.engines)
    func titlesAreTopicsAndWorkoutChatsStayWithTheirWorkout(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let store = h.module.services.store
            let first = await h.send("u1", "8 @ 100")
            let conversation = try #require(first.first?["conversation_id"]?.stringValue)
            #expect(try await store.conversation(userId: "u1", id: conversation).title == nil)
            _ = await h.send("u1", "how is my bench going?", conversationId: conversation)
            #expect(try await store.conversation(userId: "u1", id: conversation).title == "How is my bench going?")

            let workout = await h.startWorkout("u1")
            let chat = await h.send("u1", "8 @ 100", workoutId: workout.id)
            let workoutChat = try #require(chat.first?["conversation_id"]?.stringValue)
            #expect(try await store.conversation(userId: "u1", id: workoutChat).title == "Workout: Push")
            #expect(try await store.list(userId: "u1", limit: 10, cursor: nil).items.map(\.id) == [conversation])
            #expect(try await store.list(userId: "u1", limit: 10, cursor: nil, includeWorkout: true).items.count == 2)
        }
    }

    /// "How am I doing?" answers with the analyst's summary as a card; the lifts table and the muscle bars are cards.
    @Test(arguments: TestDatabases.engines)
    func progressAnswersAreCards(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.analytics.set(
                userId: "u1",
                context: TrainingContext(
                    weekStart: "2026-01-05", workoutsPerWeek: [3, 2, 2, 3, 1], lastWorkouts: [], muscles: [],
                    lifts: [
                        .init(exerciseId: H.squat, name: "Barbell Squat", e1rmKg: 150, previousE1rmKg: 140),
                        .init(exerciseId: H.bench, name: "Bench", e1rmKg: 110, previousE1rmKg: nil),
                    ]))
            let overview = await h.send("u1", "How am I doing?")
            let summary = try #require(overview.artifacts.first?["data"], "\(overview)")
            #expect(summary["type"] == "analysis_summary" && summary["lane"] == "analysis")
            #expect(summary["data"]?["this_week"]?["workouts"] == 3 && summary["data"]?["weekly_average_before"]?["workouts"] == 2)
            #expect(summary["data"]?["lifts"]?.arrayValue?.first?["change_kg"] == 10)
        }
    }
}
