import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Recommendations

/// From a completed workout to a recommendation: which scope, which weight, auto-pilot, the premium gates,
/// review, conflicts and expiry.
@Suite struct AnalystRecommendationTests {
    typealias H = RecommendationsHarness

    @Test(arguments: TestDatabases.engines)
    func metTargetsMakeATemplateRecommendationWithTheExactWeightAndAcceptApplyIt(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            let template = try await h.addRoutine(user: "athlete", weight: 100)
            try await h.complete(
                H.workout("w1", user: "athlete", template: template, target: (5, 2, 100), sets: [(100, 5, 2), (100, 6, 3), (100, 5, 2)]))
            let items = try await h.recommendations("athlete")
            let item = try #require(items.first)
            #expect(items.count == 1 && item.scope == .template && item.status == .pendingReview)
            #expect(item.target.templateId == template.id && item.target.templateVersion == 1)
            #expect(item.changes.map(\.toWeightKg) == [102.5] && item.changes.first?.action == .progress)
            #expect(item.changes.first?.sets.map(\.toWeightKg) == [102.5, 102.5, 102.5])
            #expect(item.expiresAt == item.createdAt.addingTimeInterval(7 * 86_400))
            let insight = try await h.module.notes.summary(userId: "athlete", sections: [.insights], date: nil, limit: 5).insights
            #expect(insight.map(\.id) == ["pw-w1"] && insight.first?.headline.contains("ready to progress") == true, "\(insight)")

            // The job run again (a redelivery) makes nothing new.
            _ = try await h.jobs.requeueIfFailed(id: "pw:w1", in: try await h.database.transaction { $0 })
            try await h.module.analyst.analyseWorkout(.init(userId: "athlete", workoutId: "w1"))
            #expect(try await h.recommendations("athlete").count == 1)

            let accepted = try await h.module.review.review(userId: "athlete", id: item.id, action: .accept)
            #expect(accepted.status == .accepted && accepted.reviewedAt != nil)
            let changed = try await h.plans.template(userId: "athlete", id: template.id)
            #expect(changed.version == 2 && changed.exercises[0].sets.map(\.targetWeightKg) == [102.5, 102.5, 102.5])
            // Accepting again answers the same, and applies nothing twice.
            #expect(try await h.module.review.review(userId: "athlete", id: item.id, action: .accept).status == .accepted)
            #expect(try await h.plans.template(userId: "athlete", id: template.id).version == 2)
            let events = await h.events.events(userId: "athlete")
            #expect(events.map(\.name) == ["recommendation_action"] && events.first?.params["action"] == .string("accept"))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func autoPilotAppliesTemplateRecommendationsAtOnce(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            try await h.module.store.setAutoPilot(userId: "athlete", enabled: true, now: h.clock.now())
            let template = try await h.addRoutine(user: "athlete", exercise: H.curl, weight: 12.5, reps: 10, rir: 1)
            try await h.complete(
                H.workout(
                    "w1", user: "athlete", exercise: H.curl, template: template, target: (10, 1, 12.5),
                    sets: [(12.5, 10, 1), (12.5, 10, 2)]))
            let item = try #require(try await h.recommendations("athlete").first)
            #expect(item.status == .applied && item.changes.first?.toWeightKg == 13.75, "12.5 kg +5 % = 13.125, nearest 1.25")
            let changed = try await h.plans.template(userId: "athlete", id: template.id)
            #expect(changed.exercises[0].sets.map(\.targetWeightKg) == [13.75, 13.75, 13.75])
            await #expect(throws: ServiceError.self) {
                _ = try await h.module.review.review(userId: "athlete", id: item.id, action: .reject)
            }
            #expect(await h.events.events(userId: "athlete").first?.params["action"] == .string("auto_applied"))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aFreeUserGetsNoAnalysisAndNoRecommendation(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("free", premium: false)
            let template = try await h.addRoutine(user: "free", weight: 100)
            try await h.complete(H.workout("w1", user: "free", template: template, target: (5, 2, 100), sets: [(100, 5, 2)]))
            #expect(try await h.recommendations("free").isEmpty)
            #expect(try await h.module.notes.summary(userId: "free", sections: Set(AnalysisSection.allCases), date: nil, limit: 5).isEmpty)
            #expect(try await h.jobs.job(id: "pw:w1")?.status == .done, "the job ends without reading the free user's training")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func withoutARoutineTheRecommendationIsForTheExerciseAndAcceptOnlyAcknowledges(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            try await h.complete(
                H.workout("w1", user: "athlete", exercise: H.bench, target: (8, nil, nil), sets: [(60, 8, nil), (80, 8, nil)]))
            let item = try #require(try await h.recommendations("athlete").first)
            #expect(item.scope == .exercise && item.target.exerciseId == H.bench.id && item.target.templateId == nil)
            #expect(item.changes.first?.fromWeightKg == 80 && item.changes.first?.toWeightKg == 82.5, "the heaviest set done, +2.5 %")
            #expect(try await h.module.review.review(userId: "athlete", id: item.id, action: .accept).status == .accepted)
            #expect(try await h.plans.templates(userId: "athlete").isEmpty)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func twoMissedSessionsInARowDeload(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            let template = try await h.addRoutine(user: "athlete", weight: 100)
            try await h.complete(
                H.workout("w1", user: "athlete", template: template, target: (5, 2, 100), sets: [(100, 5, 2), (100, 3, 0)], daysAgo: 3))
            #expect(try await h.recommendations("athlete").isEmpty, "one missed session holds the weight")
            try await h.complete(
                H.workout("w2", user: "athlete", template: template, target: (5, 2, 100), sets: [(100, 4, 0), (100, nil, nil)], daysAgo: 1))
            let item = try #require(try await h.recommendations("athlete").first)
            #expect(item.changes.first?.action == .deload && item.changes.first?.toWeightKg == 90)
            // Reps met but harder than planned (RIR below target, or not logged): hold.
            try await h.complete(
                H.workout("w3", user: "athlete", template: template, target: (5, 2, 90), sets: [(90, 5, 1), (90, 5, nil)]))
            #expect(try await h.recommendations("athlete").count == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aTemplateChangedSinceIsAConflictAndNothingIsApplied(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            let template = try await h.addRoutine(user: "athlete", weight: 100)
            try await h.complete(H.workout("w1", user: "athlete", template: template, target: (5, 2, 100), sets: [(100, 5, 2)]))
            let item = try #require(try await h.recommendations("athlete").first)
            let edited = try await h.plans.applyTemplateChanges(
                userId: "athlete", templateId: template.id, expectedVersion: 1,
                exercises: [PlannedExercise(exerciseId: H.squat.id, sets: [TemplateSet(targetReps: 3, targetRir: 1, targetWeightKg: 110)])])
            await expectCode(.conflict, "the template changed since") {
                _ = try await h.module.review.review(userId: "athlete", id: item.id, action: .accept)
            }
            #expect(try await h.plans.template(userId: "athlete", id: template.id) == edited, "nothing applied")
            #expect(try await h.recommendations("athlete").first?.status == .pendingReview, "still there to reject")
            #expect(try await h.module.review.review(userId: "athlete", id: item.id, action: .reject).status == .rejected)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aDowngradedUserCannotReviewAndAnotherUsersIdIsNotFound(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            await h.addUser("other")
            let template = try await h.addRoutine(user: "athlete", weight: 60)
            try await h.complete(H.workout("w1", user: "athlete", template: template, target: (5, 2, 60), sets: [(60, 5, 2)]))
            let item = try #require(try await h.recommendations("athlete").first)
            await expectCode(.notFound, "another user's recommendation") {
                _ = try await h.module.review.review(userId: "other", id: item.id, action: .accept)
            }
            await h.premium.revoke(userId: "athlete")
            await expectCode(.premiumRequired, "premium lapsed") {
                _ = try await h.module.review.review(userId: "athlete", id: item.id, action: .accept)
            }
            #expect(try await h.plans.template(userId: "athlete", id: template.id).version == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func pendingRecommendationsExpireAfterSevenDays(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            try await h.complete(H.workout("w1", user: "athlete", target: (5, nil, nil), sets: [(100, 5, nil)]))
            let item = try #require(try await h.recommendations("athlete").first)
            h.clock.advance(by: 7 * 86_400 - 1)
            let first = try await h.module.sweep()
            #expect(first.expired == 0)
            h.clock.advance(by: 1)
            let swept = try await h.module.sweep()
            #expect(swept.expired == 1, "the recommendation expires after 7 days")
            #expect(first.removed + swept.removed == 1, "the insight (7 days from the workout's end) is deleted")
            #expect(try await h.recommendations("athlete", status: .expired).map(\.id) == [item.id])
            await expectCode(.failedPrecondition, "an expired recommendation") {
                _ = try await h.module.review.review(userId: "athlete", id: item.id, action: .accept)
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aNewerRecommendationForATemplateSupersedesThePendingOne(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("athlete")
            let template = try await h.addRoutine(user: "athlete", weight: 100)
            try await h.complete(H.workout("w1", user: "athlete", template: template, target: (5, 2, 100), sets: [(100, 5, 2)], daysAgo: 2))
            h.clock.advance(by: 60)
            try await h.complete(H.workout("w2", user: "athlete", template: template, target: (5, 2, 100), sets: [(100, 5, 3)]))
            let items = try await h.recommendations("athlete")
            #expect(items.map(\.status) == [.pendingReview, .expired], "\(items.map(\.workoutId))")
            #expect(items.first?.workoutId == "w2")
        }
    }
}
