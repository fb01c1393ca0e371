import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import PovverKit
import TestSupport
import Testing

/// The product's main path as a lifter walks it over HTTP, on the default coach, in each unit: ask for a 3-day plan
/// → accept → start the next workout → log every set in plain words → finish → the template has weights (auto-pilot
/// on) or a recommendation to accept (off), on the user's grid → a second workout that meets the targets → the
/// weights go one step up, on the user's grid. And a lifter with no routine, whose freely logged workouts give
/// exercise-scoped recommendations that leave with a deleted workout.
@Suite struct LifterJourneyFlowTests {
    /// One lifter's unit: what they type, and the kilograms it stores before and after one progression step.
    struct Lifter: Sendable, CustomStringConvertible {
        var email: String
        var pounds: Bool
        var autoPilot: Bool
        /// The weight typed in the first workout, in the user's unit.
        var typed: String
        /// The calibrated weight, kilograms (the typed weight as stored).
        var calibratedKg: Double
        /// One step up the user's grid, kilograms.
        var steppedKg: Double
        /// How the stepped weight reads to the user.
        var steppedText: String

        var description: String { pounds ? "pounds" : "kilograms" }

        static let kilograms = Lifter(
            email: "kg-journey@example.com", pounds: false, autoPilot: true, typed: "60", calibratedKg: 60, steppedKg: 62.5,
            steppedText: "62.5 kg")
        /// 135 lb is 61.235 kg; one 5 lb step is 140 lb, 63.503 kg.
        static let pounds = Lifter(
            email: "lb-journey@example.com", pounds: true, autoPilot: false, typed: "135", calibratedKg: 61.235, steppedKg: 63.503,
            steppedText: "140 lb")
    }

    static let lifters = TestDatabases.engines.flatMap { engine in [(engine, Lifter.kilograms), (engine, Lifter.pounds)] }

    @Test(arguments: lifters)
    func aLifterPlansTrainsAndProgressesInTheirUnit(engine: SQLEngine, lifter: Lifter) async throws {
        try await TestServer.with(engine) { server, client in
            let (token, _) = try await RecommendationsFlowTests.premiumUser(server, client, lifter.email)
            let api = client.api(token)
            if lifter.pounds {
                _ = try await api.updateUser(body: .json(.init(weightFormat: .pounds))).ok
            }
            _ = try await api.updateRecommendationSettings(body: .json(.init(autoPilotEnabled: lifter.autoPilot))).ok

            // The plan: three days, every set with reps and no weight yet (nothing logged: the first session calibrates).
            let plan = try await CoachCardsFlowTests.proposedPlan(client, token: token, message: "Make me a 3-day full body plan, full gym")
            #expect(try plan.card.type == .routineSummary, "\(plan.artifact)")
            let days = try plan.artifact.content(as: CoachCardsFlowTests.RoutineEdit.self).days ?? []
            #expect(days.count == 3, "\(plan.artifact)")
            let planned = days.flatMap { $0.exercises ?? [] }
            #expect(!planned.isEmpty && planned.allSatisfy { $0.weightKg == nil && $0.reps != nil }, "\(days)")
            let accepted = try await CoachCardsFlowTests.act(client, .accept, plan, token: token, key: "accept-plan")
            let made = try CoachCardsFlowTests.Made(accepted.result)
            let templateIds = try #require(made.templateIds, "\(accepted)")
            let routineId = try #require(made.routineId)
            let dayA = templateIds[0]

            // The first workout, the routine's next: every set typed as "<target reps> @ <weight>", no RIR.
            let first = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "w1", routineId: routineId))).ok.body.json.data
            let firstSets = try Self.plannedSets(first)
            #expect(firstSets.count >= 3 && firstSets.allSatisfy { $0.weightKg == nil }, "\(first)")
            for set in firstSets {
                let reply = try await client.coachEvents(
                    .init(message: "\(set.reps) @ \(lifter.typed)", legacyWorkoutId: first.id), token: token)
                let unit = lifter.pounds ? "lb" : "kg"
                #expect(reply.text.contains("\(set.reps) × \(lifter.typed) \(unit)"), "\(reply)")
            }
            try await Self.finish(client, first.id, key: "w1", token: token)
            try await RecommendationsFlowTests.settle(server)

            // Its weights, from what was logged: applied by auto-pilot, or a recommendation the lifter accepts.
            try await Self.expectTemplate(client, dayA, weightKg: lifter.calibratedKg, autoPilot: lifter.autoPilot, token: token)

            // The second workout on day A meets every target ("done" logs the set as planned): one step up.
            let second = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "w2", templateId: dayA))).ok.body.json.data
            let secondSets = try Self.plannedSets(second)
            #expect(secondSets.count == firstSets.count, "\(second)")
            #expect(secondSets.allSatisfy { $0.weightKg == lifter.calibratedKg }, "the targets carry the weights: \(second)")
            for _ in secondSets {
                let reply = try await client.coachEvents(.init(message: "done", legacyWorkoutId: second.id), token: token)
                #expect(reply.text.contains("× \(lifter.typed) \(lifter.pounds ? "lb" : "kg")"), "\(reply)")
            }
            try await Self.finish(client, second.id, key: "w2", token: token)
            try await RecommendationsFlowTests.settle(server)
            try await Self.expectTemplate(client, dayA, weightKg: lifter.steppedKg, autoPilot: lifter.autoPilot, token: token)

            // The analyst's insight reads in the lifter's unit.
            let summary = try await api.getAnalysisSummary(body: .json(.init(sections: [.insights]))).ok.body.json.data
            let insight = try #require(summary.insights.first, "\(summary)")
            #expect("\(insight)".contains(lifter.steppedText), "\(insight)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aLifterWithNoRoutineGetsExerciseScopedRecommendations(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let (token, _) = try await RecommendationsFlowTests.premiumUser(server, client, "freeform@example.com")
            let api = client.api(token)
            var workouts: [String] = []
            for (index, reps) in [8, 9].enumerated() {
                let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "free-\(index)", name: "Push"))).ok.body
                    .json.data.id
                _ = try await api.addExercise(
                    body: .json(
                        .init(exerciseId: WorkoutsFlowTests.bench, idempotencyKey: "free-add-\(index)", sets: 3, workoutId: workoutId))
                ).ok
                for _ in 0..<3 {
                    let reply = try await client.coachEvents(.init(message: "\(reps) @ 80", legacyWorkoutId: workoutId), token: token)
                    #expect(reply.text.hasPrefix("Logged"), "\(reply)")
                }
                try await Self.finish(client, workoutId, key: "free-\(index)", token: token)
                try await RecommendationsFlowTests.settle(server)
                workouts.append(workoutId)
                if index == 0 {
                    #expect(try await RecommendationsFlowTests.items(client, token: token).isEmpty, "one session: nothing to compare with")
                }
            }

            // The second beat the first (9 reps at the same weight, no RIR logged): the bench goes up a step.
            let items = try await RecommendationsFlowTests.items(client, token: token)
            let item = try #require(items.first, "\(items)")
            #expect(items.count == 1 && item.scope == .exercise && item.workoutId == workouts[1], "\(items)")
            let change = try #require(item.changes.first)
            #expect(change.exerciseId == WorkoutsFlowTests.bench && change.action == .progress, "\(change)")
            #expect(change.fromWeightKg == 80 && change.toWeightKg == 82.5, "\(change)")
            let insights = try await api.getAnalysisSummary(body: .json(.init(sections: [.insights]))).ok.body.json.data
            #expect(insights.insights.count == 2, "\(insights)")

            // Deleting that workout takes its insight and its pending recommendation with it.
            _ = try await api.deleteWorkout(body: .json(.init(workoutId: workouts[1]))).ok
            try await RecommendationsFlowTests.settle(server)
            #expect(try await RecommendationsFlowTests.items(client, token: token).isEmpty)
            let left = try await api.getAnalysisSummary(body: .json(.init(sections: [.insights]))).ok.body.json.data
            #expect(left.insights.count == 1, "\(left)")
            #expect(!"\(left)".contains(workouts[1]), "\(left)")
        }
    }

    /// An active workout as the generated client reads it.
    typealias Workout = Operations.StartActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload

    /// Every planned set of an active workout, in order: its target reps and weight.
    static func plannedSets(_ workout: Workout) throws -> [(reps: Int, weightKg: Double?)] {
        try workout.exercises.flatMap { exercise in
            try exercise.sets.map { set in (try #require(set.targetReps, "\(set)"), set.targetWeightKg) }
        }
    }

    static func finish(_ client: some TestClientProtocol, _ workoutId: String, key: String, token: String) async throws {
        _ = try await client.api(token).completeActiveWorkout(body: .json(.init(idempotencyKey: "\(key)-done", workoutId: workoutId))).ok
    }

    /// Every planned set of the template is at `weightKg`: already (auto-pilot), or once its pending recommendation,
    /// which says so, is accepted.
    static func expectTemplate(
        _ client: some TestClientProtocol, _ templateId: String, weightKg: Double, autoPilot: Bool, token: String
    ) async throws {
        let api = client.api(token)
        let items = try await RecommendationsFlowTests.items(client, token: token).filter { $0.target.templateId == templateId }
        let newest = try #require(items.first, "a recommendation for the template")
        #expect(newest.status == (autoPilot ? .applied : .pendingReview), "\(newest)")
        let changed = newest.changes.flatMap(\.sets)
        #expect(!changed.isEmpty && changed.allSatisfy { $0.toWeightKg == weightKg }, "\(newest)")
        if !autoPilot {
            _ = try await api.reviewRecommendation(body: .json(.init(action: .accept, recommendationId: newest.id))).ok
        }
        let template = try await api.getTemplate(body: .json(.init(templateId: templateId))).ok.body.json.data
        let sets = template.exercises.flatMap(\.sets)
        #expect(!sets.isEmpty && sets.allSatisfy { $0.targetWeightKg == weightKg }, "\(template)")
    }
}
