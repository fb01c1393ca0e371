import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Recommendations

/// Every workout teaches the next: sets logged without RIR progress on reps and weight, sets logged without targets
/// give exercise-scoped recommendations against the session before, a template planned without weights is
/// calibrated from its first session, and the weekly review's stalls propose a deload or a new rep range.
@Suite struct EveryWorkoutTeachesTests {
    typealias H = RecommendationsHarness

    @Test(arguments: TestDatabases.engines)
    func setsLoggedWithoutRirAreJudgedByRepsAndWeight(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            let template = try await h.addRoutine(user: "athlete", weight: 100)
            try await h.complete(
                H.workout(
                    "w1", user: "athlete", template: template, target: (5, 2, 100), sets: [(100, 5, nil), (100, 5, nil), (100, 6, nil)]))
            let item = try #require(try await h.recommendations("athlete").first)
            #expect(item.changes.map(\.action) == [.progress] && item.changes.map(\.toWeightKg) == [102.5], "\(item)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func freeLoggedSetsAreJudgedAgainstTheSessionBefore(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            let sets: [(Double, Int?, Int?)] = [(80, 8, nil), (80, 8, nil), (70, 10, nil)]
            try await h.complete(H.workout("w1", user: "athlete", exercise: H.bench, target: nil, sets: sets, daysAgo: 6))
            #expect(try await h.recommendations("athlete").isEmpty, "a first session has nothing to be judged against")
            // The top set (80 × 8) matched: one step up, exercise-scoped.
            try await h.complete(H.workout("w2", user: "athlete", exercise: H.bench, target: nil, sets: sets, daysAgo: 4))
            let item = try #require(try await h.recommendations("athlete").first)
            #expect(item.scope == .exercise && item.target.exerciseId == H.bench.id && item.workoutId == "w2", "\(item)")
            #expect(
                item.changes.map(\.action) == [.progress] && item.changes.first?.fromWeightKg == 80
                    && item.changes.first?.toWeightKg == 82.5)
            let insight = try await h.module.notes.summary(userId: "athlete", sections: [.insights], date: nil, limit: 5).insights.first {
                $0.id == "pw-w2"
            }
            #expect(insight?.findings.first?.contains("matched or beat the session before") == true, "\(insight as Any)")

            // Short of the session before twice in a row (80 × 6, then 80 × 5): a deload.
            try await h.complete(H.workout("w3", user: "athlete", exercise: H.bench, target: nil, sets: [(80, 6, nil)], daysAgo: 2))
            #expect(try await h.recommendations("athlete").count == 1, "one short session holds")
            try await h.complete(H.workout("w4", user: "athlete", exercise: H.bench, target: nil, sets: [(80, 5, nil)], daysAgo: 1))
            let deload = try #require(try await h.recommendations("athlete").first { $0.workoutId == "w4" })
            #expect(deload.changes.first?.action == .deload && deload.changes.first?.toWeightKg == 72.5, "\(deload)")
        }
    }

    /// A routine whose one template plans 3 × 8 @ RIR 2 of `exercise` with no weight.
    static func calibratingRoutine(_ h: RecommendationsHarness, user: String, exercise: Exercise = H.squat) async throws -> WorkoutTemplate
    {
        let plan = RoutinePlan(
            name: "New",
            templates: [
                TemplatePlan(
                    name: "Day A",
                    exercises: [
                        PlannedExercise(exerciseId: exercise.id, sets: Array(repeating: TemplateSet(targetReps: 8, targetRir: 2), count: 3))
                    ])
            ])
        return try await h.plans.createRoutine(userId: user, plan: plan).templates[0]
    }

    @Test(arguments: TestDatabases.engines)
    func aTemplateWithoutWeightsIsCalibratedFromItsFirstSession(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("kg")
            await h.addUser("lb", weightFormat: "pounds")
            try await h.module.store.setAutoPilot(userId: "lb", enabled: true, now: h.clock.now())
            let kg = try await Self.calibratingRoutine(h, user: "kg")
            try await h.complete(
                H.workout("k1", user: "kg", template: kg, target: (8, 2, nil), sets: [(60, 8, nil), (60, 8, nil), (60, 7, nil)]))
            let item = try #require(try await h.recommendations("kg").first)
            let change = try #require(item.changes.first)
            #expect(item.scope == .template && item.status == .pendingReview && change.action == .calibrate, "\(item)")
            #expect(change.fromWeightKg == nil && change.sets.map(\.toWeightKg) == [60, 60, 60], "a set logged as planned plans the same")
            _ = try await h.module.review.review(userId: "kg", id: item.id, action: .accept)
            #expect(try await h.plans.template(userId: "kg", id: kg.id).exercises[0].sets.map(\.targetWeightKg) == [60, 60, 60])

            // 135 lb × 8 at RIR 1 (one rep less in reserve than planned): 8 at RIR 2 is 130 lb, on the 5 lb grid.
            let lb = try await Self.calibratingRoutine(h, user: "lb")
            try await h.complete(H.workout("l1", user: "lb", template: lb, target: (8, 2, nil), sets: [(61.235, 8, 1)]))
            let applied = try #require(try await h.recommendations("lb").first)
            #expect(applied.status == .applied, "auto-pilot applies a calibration")
            let weights = try await h.plans.template(userId: "lb", id: lb.id).exercises[0].sets.map(\.targetWeightKg)
            #expect(weights == [58.967, 58.967, 58.967] && WeightUnit.pounds.text(kilograms: 58.967) == "130 lb", "\(weights)")
        }
    }

    static func stalled(_ h: RecommendationsHarness, _ lifts: [TrainingContext.LiftTrend]) async {
        await h.analytics.set(
            userId: "athlete",
            context: TrainingContext(weekStart: "2026-11-23", workoutsPerWeek: [], lastWorkouts: [], muscles: [], lifts: lifts))
    }

    @Test(arguments: TestDatabases.engines)
    func aWeeklyReviewsStallsProposeANewRepRangeOrADeloadOncePerBlock(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            let template = try await h.addRoutine(user: "athlete", weight: 100)
            await Self.stalled(
                h,
                [
                    .init(exerciseId: H.squat.id, name: H.squat.name, e1rmKg: 120, previousE1rmKg: 120),
                    .init(exerciseId: H.bench.id, name: H.bench.name, e1rmKg: 100, previousE1rmKg: 110),
                    .init(exerciseId: H.curl.id, name: H.curl.name, e1rmKg: 30, previousE1rmKg: 25),
                ])
            await h.analytics.set(
                userId: "athlete", exerciseId: H.bench.id,
                weeks: [
                    ExerciseWeek(
                        weekStart: "2026-11-16", e1rmKg: 100, topWeightKg: 80, bestSet: .init(weightKg: 80, reps: 8), volumeKg: 1920,
                        sets: 3,
                        reps: 24)
                ])
            try await h.module.analyst.writeWeeklyReview(.init(userId: "athlete", weekStart: "2026-11-16"))
            let items = try await h.recommendations("athlete")
            #expect(items.count == 2 && items.allSatisfy { $0.workoutId == nil }, "\(items)")
            // The flat squat, planned by the routine: 5 → 8 reps, 100 kg × 5 @ 2 brought to 8 @ 2 is 92.5 kg.
            let squat = try #require(items.first { $0.scope == .template })
            #expect(squat.target.templateId == template.id && squat.changes.map(\.action) == [.repRange], "\(squat)")
            #expect(squat.changes.first?.sets.count == 3)
            #expect(squat.changes.first?.toReps == 8 && squat.changes.first?.toWeightKg == 92.5, "\(squat)")
            // The falling bench, not planned: an exercise-scoped deload from its newest week's top weight.
            let bench = try #require(items.first { $0.scope == .exercise })
            #expect(
                bench.target.exerciseId == H.bench.id && bench.changes.first?.action == .deload && bench.changes.first?.toWeightKg == 72.5)
            let review = try await h.module.notes.summary(userId: "athlete", sections: [.weeklyReview], date: nil, limit: 1).weeklyReview
            #expect(review?.findings.contains { $0.hasPrefix("Stalled: ") } == true, "\(review as Any)")

            // Accepted, the squat trains 3 × 8 @ 92.5; the next review, a week on, proposes nothing again for either.
            _ = try await h.module.review.review(userId: "athlete", id: squat.id, action: .accept)
            let sets = try await h.plans.template(userId: "athlete", id: template.id).exercises[0].sets
            #expect(sets.map(\.targetReps) == [8, 8, 8] && sets.map(\.targetWeightKg) == [92.5, 92.5, 92.5])
            h.clock.advance(by: 7 * 86_400)
            try await h.module.analyst.writeWeeklyReview(.init(userId: "athlete", weekStart: "2026-11-23"))
            #expect(try await h.recommendations("athlete").count == 2, "one proposal per lift in 4 weeks")
        }
    }
}
