import Contracts
import Fakes
import Foundation
import Platform
import PovverKit
import TestSupport
import Testing

@testable import Conversations

/// Issue 50's other examples through the rule-based coach: progress of the whole and of a muscle group, an injury
/// with the offer to adjust the routine, a question answered rather than planned, what it does not do, memory, and
/// a clarifying question that never traps the user.
@Suite struct CoachAdvisesWhatLiftersAskTests {
    typealias H = CoachHarness
    typealias P = CoachPlansWhatLiftersAskTests

    /// Some training: three weeks of workouts and a bench press going up.
    static func trained(_ h: CoachHarness) async {
        await h.analytics.set(
            userId: "u1",
            context: TrainingContext(
                weekStart: "2026-11-16", workoutsPerWeek: [3, 3, 2, 3, 0], lastWorkouts: [],
                muscles: [.init(muscle: "chest", sets: 12, previousAverage: 9)],
                lifts: [.init(exerciseId: H.bench, name: "Barbell Bench Press - Medium Grip", e1rmKg: 106.7, previousE1rmKg: 100)]))
        await h.analytics.set(
            userId: "u1", muscle: "chest",
            weeks: [
                MuscleWeek(weekStart: "2026-11-02", sets: 9, volumeKg: 4000), MuscleWeek(weekStart: "2026-11-09", sets: 10, volumeKg: 4200),
                MuscleWeek(weekStart: "2026-11-16", sets: 12, volumeKg: 4800),
            ])
    }

    @Test(arguments: TestDatabases.engines)
    func howIsMyTrainingGoingAndShowMeMyProgressAnswerTheOverview(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await Self.trained(h)
            for message in ["How is my training going?", "Show me my progress", "how am I doing?"] {
                let events = await h.send("u1", message)
                #expect(
                    !events.text.contains("could not find") && events.text.contains("This week: 3 workouts"), "\(message): \(events.text)")
                let types = try CardDecodingTests.cards(events).map(\.type)
                #expect(types == [.analysisSummary], "\(message)")
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func howIsMyChestDoingAnswersTheMuscleGroup(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await Self.trained(h)
            let events = await h.send("u1", "How's my chest doing?")
            #expect(events.text.hasPrefix("Chest: 12 working sets in the week of 2026-11-16, against 9.5 a week"), "\(events.text)")
            #expect(events.text.contains("Barbell Bench Press - Medium Grip is at an estimated 1RM of 106.7 kg, up 6.7 kg"))
            guard case .visualization(let chart) = try P.card(events, .visualization).data else { throw P.CardError.wrongData }
            #expect(chart.points?.map(\.value) == [9, 10, 12] && chart.metric == "sets")
            // Back is the lats, middle and lower back and traps together.
            await h.analytics.set(userId: "u1", muscle: "lats", weeks: [MuscleWeek(weekStart: "2026-11-16", sets: 6, volumeKg: 1)])
            await h.analytics.set(userId: "u1", muscle: "middle back", weeks: [MuscleWeek(weekStart: "2026-11-16", sets: 4, volumeKg: 1)])
            #expect(await h.send("u1", "how's my back doing?").text.hasPrefix("Back: 10 working sets"))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aHurtShoulderGetsAdviceThenTheRoutineAdjustedOnYes(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let created = try await P.routine(h)
            let advice = await h.send("u1", "I hurt my shoulder, what should I avoid?")
            #expect(
                advice.text.hasPrefix("For your shoulders, avoid heavy bench pressing, incline pressing and overhead pressing"),
                "\(advice.text)")
            #expect(advice.text.contains("physiotherapist") && advice.text.contains(RuleBasedCoach.spareOffer), "\(advice.text)")
            #expect(advice.artifacts.isEmpty, "an offer, not a change yet")
            #expect(try await h.module.services.memory.memory(userId: "u1").injuries == ["shoulders"])
            let conversationId = try #require(advice.first?["conversation_id"]?.stringValue)
            let adjusted = await h.send("u1", "yes please", conversationId: conversationId)
            guard case .templateUpdate(let push) = try P.card(adjusted, .templateUpdate).data else { throw P.CardError.wrongData }
            #expect(push.templateId == created.templates[0].id, "\(adjusted.text)")
            for exercise in push.exercises {
                let slot = try #require(P.exercise(exercise.exerciseId).flatMap(SwapFinder.slot))
                #expect(SwapFinder.targets(for: slot, sparing: ["shoulders"]).spared == nil, "\(exercise.name) spares the shoulders")
            }
            // A later plan spares them without being told.
            let plan = await h.send("u1", "build me a 4 day upper lower, full gym")
            #expect(plan.text.contains("sparing your shoulders"), "\(plan.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func questionsAreAnsweredNotPlanned(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let enough = await h.send("u1", "Is 3 days a week at the gym enough?")
            #expect(enough.text.hasPrefix("Yes: three days a week is enough") && enough.artifacts.isEmpty, "\(enough.text)")
            let rest = await h.send("u1", "how long should i rest between sets")
            #expect(rest.text.contains("2–3 minutes") && rest.artifacts.isEmpty, "\(rest.text)")
            let food = await h.send("u1", "how much protein should I eat")
            #expect(food.text.contains("dietitian") && food.text.contains("What I can do") && food.artifacts.isEmpty, "\(food.text)")
            let medical = await h.send("u1", "can you diagnose my knee")
            #expect(medical.text.contains("cannot give medical advice"), "\(medical.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aNewRequestAfterClarifyingQuestionsIsReadAsOne(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await Self.trained(h)
            let asked = await h.send("u1", "make me a routine")
            #expect(try CardDecodingTests.cards(asked).map(\.type) == [.clarifyQuestions])
            let conversationId = try #require(asked.first?["conversation_id"]?.stringValue)
            let overview = await h.send("u1", "forget it, how am I doing?", conversationId: conversationId)
            #expect(
                overview.text.contains("This week: 3 workouts") && !overview.text.hasPrefix(RuleBasedCoach.clarifyOpening),
                "\(overview.text)")
            #expect(try CardDecodingTests.cards(overview).map(\.type) == [.analysisSummary])
        }
    }

    /// An injury told with the rest of the lifter's setup: all of it is kept, and the next conversation's plan asks
    /// nothing and spares the knee (as `povver-coach chat` shows across two conversations).
    @Test(arguments: TestDatabases.engines)
    func anInjuryToldWithTheSetupKeepsAllOfIt(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let told = await h.send("u1", "I train at home with dumbbells only, 45 minutes, and my left knee is bad")
            #expect(told.text.hasPrefix("For your knees") && told.text.contains("I also noted: you train with dumbbells"), "\(told.text)")
            let memory = try await h.module.services.memory.memory(userId: "u1")
            #expect(
                memory.equipment == ["dumbbell", "bodyweight"] && memory.sessionMinutes == 45 && memory.injuries == ["knees"], "\(memory)")
            let plan = await h.send("u1", "Make me a 3 day plan")
            #expect(try CardDecodingTests.cards(plan).map(\.type) == [.routineSummary], "nothing asked again: \(plan.text)")
            #expect(plan.text.contains("dumbbells") && plan.text.contains("knees"), "\(plan.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func equipmentToldOnceIsNotAskedAgain(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let told = await h.send("u1", "I only have dumbbells")
            #expect(
                told.text == "Got it: you train with dumbbells. I will plan with it from now on; tell me when it changes.", "\(told.text)")
            #expect(told.artifacts.isEmpty)
            #expect(try await h.module.services.memory.memory(userId: "u1").equipment == ["dumbbell", "bodyweight"])
            // A new conversation: the plan goes by the equipment kept, without asking.
            let plan = await h.send("u1", "build me a 3 day full body routine")
            #expect(try CardDecodingTests.cards(plan).map(\.type) == [.routineSummary], "\(plan.text)")
            #expect(plan.text.hasPrefix("Going by what you told me before (dumbbells)"), "\(plan.text)")
            let session = await h.send("u1", "give me a leg day workout")
            guard case .sessionPlan(let legs) = try P.card(session, .sessionPlan).data else { throw P.CardError.wrongData }
            #expect(legs.exercises.allSatisfy { ["dumbbell", "body only", nil].contains(P.exercise($0.exerciseId)?.equipment) })
        }
    }

    @Test(arguments: TestDatabases.engines)
    func finishingInAWorkoutStillAsksFirst(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let workout = await h.startWorkout("u1")
            _ = await h.send("u1", "8 @ 100", workoutId: workout.id)
            for message in ["finished", "I'm done", "ok I think I'm finished with this workout now"] {
                let events = await h.send("u1", message, workoutId: workout.id)
                #expect(events.text.hasPrefix("Finish Push?"), "\(message): \(events.text)")
                let types = try CardDecodingTests.cards(events).map(\.type)
                #expect(types == [.suggestion], "\(message)")
            }
            let status = try await h.workouts.activeWorkout(userId: "u1")?.status
            #expect(status == .inProgress, "nothing finished before the user accepts")
        }
    }
}
