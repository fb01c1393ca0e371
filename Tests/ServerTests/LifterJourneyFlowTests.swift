import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
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
            if lifter.pounds {
                #expect(try await client.call("updateUser", ["weight_format": "pounds"], token: token).status == .ok)
            }
            let settings = try await client.call("updateRecommendationSettings", ["auto_pilot_enabled": lifter.autoPilot], token: token)
            #expect(settings.status == .ok, "\(settings.json)")

            // The plan: three days, every set with reps and no weight yet (nothing logged: the first session calibrates).
            let plan = try await CoachCardsFlowTests.proposedPlan(client, token: token, message: "Make me a 3-day full body plan, full gym")
            #expect(plan.card["type"] as? String == "routine_summary", "\(plan.card)")
            let days = ((plan.card["data"] as? [String: Any])?["days"] as? [[String: Any]]) ?? []
            #expect(days.count == 3, "\(plan.card)")
            let planned = days.flatMap { $0["exercises"] as? [[String: Any]] ?? [] }
            #expect(!planned.isEmpty && planned.allSatisfy { $0["weight_kg"] is NSNull && $0["reps"] is Int }, "\(days)")
            let accepted = try await CoachCardsFlowTests.act(client, "accept", plan, token: token, key: "accept-plan")
            #expect(accepted.status == .ok, "\(accepted.json)")
            let templateIds = try #require((accepted.data["result"] as? [String: Any])?["template_ids"] as? [String], "\(accepted.json)")
            let routineId = try #require((accepted.data["result"] as? [String: Any])?["routine_id"] as? String)
            let dayA = templateIds[0]

            // The first workout, the routine's next: every set typed as "<target reps> @ <weight>", no RIR.
            let first = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "w1"], token: token)
            let firstId = try #require(first.data["id"] as? String, "\(first.json)")
            let firstSets = try Self.plannedSets(first.data)
            #expect(firstSets.count >= 3 && firstSets.allSatisfy { $0.weightKg == nil }, "\(first.json)")
            for set in firstSets {
                let reply = try await CoachFlowTests.stream(
                    client, ["workoutId": firstId, "message": "\(set.reps) @ \(lifter.typed)"], token: token)
                let unit = lifter.pounds ? "lb" : "kg"
                #expect(CoachFlowTests.text(reply).contains("\(set.reps) × \(lifter.typed) \(unit)"), "\(reply)")
            }
            try await Self.finish(client, firstId, key: "w1", token: token)
            try await RecommendationsFlowTests.settle(server)

            // Its weights, from what was logged: applied by auto-pilot, or a recommendation the lifter accepts.
            try await Self.expectTemplate(client, dayA, weightKg: lifter.calibratedKg, autoPilot: lifter.autoPilot, token: token)

            // The second workout on day A meets every target ("done" logs the set as planned): one step up.
            let second = try await client.call("startActiveWorkout", ["template_id": dayA, "idempotency_key": "w2"], token: token)
            let secondId = try #require(second.data["id"] as? String, "\(second.json)")
            let secondSets = try Self.plannedSets(second.data)
            #expect(secondSets.count == firstSets.count, "\(second.json)")
            #expect(secondSets.allSatisfy { $0.weightKg == lifter.calibratedKg }, "the targets carry the weights: \(second.json)")
            for _ in secondSets {
                let reply = try await CoachFlowTests.stream(client, ["workoutId": secondId, "message": "done"], token: token)
                #expect(CoachFlowTests.text(reply).contains("× \(lifter.typed) \(lifter.pounds ? "lb" : "kg")"), "\(reply)")
            }
            try await Self.finish(client, secondId, key: "w2", token: token)
            try await RecommendationsFlowTests.settle(server)
            try await Self.expectTemplate(client, dayA, weightKg: lifter.steppedKg, autoPilot: lifter.autoPilot, token: token)

            // The analyst's insight reads in the lifter's unit.
            let summary = try await client.call("getAnalysisSummary", ["sections": ["insights"]], token: token)
            let insight = try #require((summary.data["insights"] as? [[String: Any]])?.first, "\(summary.json)")
            #expect("\(insight)".contains(lifter.steppedText), "\(insight)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aLifterWithNoRoutineGetsExerciseScopedRecommendations(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let (token, _) = try await RecommendationsFlowTests.premiumUser(server, client, "freeform@example.com")
            var workouts: [String] = []
            for (index, reps) in [8, 9].enumerated() {
                let started = try await client.call(
                    "startActiveWorkout", ["name": "Push", "idempotency_key": "free-\(index)"], token: token)
                let workoutId = try #require(started.data["id"] as? String, "\(started.json)")
                let added = try await client.call(
                    "addExercise",
                    ["workout_id": workoutId, "exercise_id": WorkoutsFlowTests.bench, "sets": 3, "idempotency_key": "free-add-\(index)"],
                    token: token)
                #expect(added.status == .ok, "\(added.json)")
                for _ in 0..<3 {
                    let reply = try await CoachFlowTests.stream(client, ["workoutId": workoutId, "message": "\(reps) @ 80"], token: token)
                    #expect(CoachFlowTests.text(reply).hasPrefix("Logged"), "\(reply)")
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
            #expect(items.count == 1 && item["scope"] as? String == "exercise" && item["workout_id"] as? String == workouts[1], "\(items)")
            let change = try #require((item["changes"] as? [[String: Any]])?.first)
            #expect(change["exercise_id"] as? String == WorkoutsFlowTests.bench && change["action"] as? String == "progress", "\(change)")
            #expect(change["from_weight_kg"] as? Double == 80 && change["to_weight_kg"] as? Double == 82.5, "\(change)")
            let insights = try await client.call("getAnalysisSummary", ["sections": ["insights"]], token: token)
            #expect((insights.data["insights"] as? [Any])?.count == 2, "\(insights.json)")

            // Deleting that workout takes its insight and its pending recommendation with it.
            let deleted = try await client.call("deleteWorkout", ["workout_id": workouts[1]], token: token)
            #expect(deleted.status == .ok, "\(deleted.json)")
            try await RecommendationsFlowTests.settle(server)
            #expect(try await RecommendationsFlowTests.items(client, token: token).isEmpty)
            let left = try await client.call("getAnalysisSummary", ["sections": ["insights"]], token: token)
            #expect((left.data["insights"] as? [[String: Any]])?.count == 1, "\(left.json)")
            #expect(!"\(left.data)".contains(workouts[1]), "\(left.json)")
        }
    }

    /// Every planned set of an active workout, in order: its target reps and weight.
    static func plannedSets(_ workout: [String: Any]) throws -> [(reps: Int, weightKg: Double?)] {
        try (workout["exercises"] as? [[String: Any]] ?? []).flatMap { exercise in
            try (exercise["sets"] as? [[String: Any]] ?? []).map { set in
                (try #require(set["target_reps"] as? Int, "\(set)"), set["target_weight_kg"] as? Double)
            }
        }
    }

    static func finish(_ client: some TestClientProtocol, _ workoutId: String, key: String, token: String) async throws {
        let done = try await client.call(
            "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "\(key)-done"], token: token)
        #expect(done.status == .ok, "\(done.json)")
    }

    /// Every planned set of the template is at `weightKg`: already (auto-pilot), or once its pending recommendation,
    /// which says so, is accepted.
    static func expectTemplate(
        _ client: some TestClientProtocol, _ templateId: String, weightKg: Double, autoPilot: Bool, token: String
    ) async throws {
        let items = try await RecommendationsFlowTests.items(client, token: token).filter {
            ($0["target"] as? [String: Any])?["template_id"] as? String == templateId
        }
        let newest = try #require(items.first, "a recommendation for the template")
        #expect(newest["status"] as? String == (autoPilot ? "applied" : "pending_review"), "\(newest)")
        let changed = (newest["changes"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
        #expect(!changed.isEmpty && changed.allSatisfy { $0["to_weight_kg"] as? Double == weightKg }, "\(newest)")
        if !autoPilot {
            let reviewed = try await client.call(
                "reviewRecommendation", ["recommendation_id": newest["id"] as? String ?? "", "action": "accept"], token: token)
            #expect(reviewed.status == .ok, "\(reviewed.json)")
        }
        let template = try await client.call("getTemplate", ["template_id": templateId], token: token)
        let sets = (template.data["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
        #expect(!sets.isEmpty && sets.allSatisfy { $0["target_weight_kg"] as? Double == weightKg }, "\(template.json)")
    }
}
