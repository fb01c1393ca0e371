import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Recommendations

/// The analyst for a user who reads pounds: recommended weights on the pound grid, stored in kilograms, and notes
/// that give every weight in pounds.
@Suite struct PoundUserAnalystTests {
    typealias H = RecommendationsHarness

    @Test(arguments: TestDatabases.engines)
    func aTemplateStepsOnThePoundGridAndTheNoteSaysPounds(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("lifter", weightFormat: "pounds")
            // 225 lb as the fast lane stores it.
            let template = try await h.addRoutine(user: "lifter", weight: 102.06)
            try await h.complete(
                H.workout(
                    "w1", user: "lifter", template: template, target: (5, 2, 102.06),
                    sets: [(102.06, 5, 2), (102.06, 5, 2), (102.06, 5, 3)]))
            let item = try #require(try await h.recommendations("lifter").first)
            #expect(item.changes.map(\.toWeightKg) == [104.326], "230 lb, in kilograms to the gram")
            #expect(item.changes.first?.sets.map(\.toWeightKg) == [104.326, 104.326, 104.326])
            let insight = try #require(
                try await h.module.notes.summary(userId: "lifter", sections: [.insights], date: nil, limit: 1).insights.first)
            #expect(insight.findings.first?.hasSuffix("ready to progress. Next: 230 lb.") == true, "\(insight.findings)")
            #expect(!insight.findings.joined().contains(" kg"), "no kilograms in a pound user's note: \(insight.findings)")

            _ = try await h.module.review.review(userId: "lifter", id: item.id, action: .accept)
            #expect(
                try await h.plans.template(userId: "lifter", id: template.id).exercises[0].sets.map(\.targetWeightKg) == [
                    104.326, 104.326, 104.326,
                ])
            // The next session at 230 lb steps to 235 lb: the stored kilograms read back as the grid weight.
            let changed = try await h.plans.template(userId: "lifter", id: template.id)
            try await h.complete(
                H.workout(
                    "w2", user: "lifter", template: changed, target: (5, 2, 104.326), sets: [(104.326, 5, 2), (104.326, 5, 2)]))
            let next = try #require(try await h.recommendations("lifter", status: .pendingReview).first)
            #expect(next.changes.map(\.toWeightKg) == [106.594] && WeightUnit.pounds.text(kilograms: 106.594) == "235 lb")

            // The daily brief names the next planned weights in pounds.
            try await h.module.analyst.writeDailyBrief(.init(userId: "lifter", day: "2026-11-26"))
            let brief = try #require(
                try await h.module.notes.summary(userId: "lifter", sections: [.dailyBrief], date: nil, limit: 1).dailyBrief)
            #expect(brief.findings.contains { $0.contains("Barbell Squat 230 lb") }, "\(brief.findings)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func exerciseScopedStepsAndDeloadsArePoundsToo(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("lifter", weightFormat: "pounds")
            // 135 lb (61.23 kg) met: +2.5 % = 138.4, nearest 5 lb: 140 lb.
            try await h.complete(
                H.workout("w1", user: "lifter", exercise: H.bench, target: (8, nil, nil), sets: [(61.23, 8, nil), (61.23, 8, nil)]))
            let item = try #require(try await h.recommendations("lifter").first)
            #expect(item.scope == .exercise && item.changes.first?.fromWeightKg == 61.23 && item.changes.first?.toWeightKg == 63.503)

            // Two missed sessions of 225 lb deload 10 % to 205 lb (202.5 ties up).
            await h.addUser("tired", weightFormat: "pounds")
            let template = try await h.addRoutine(user: "tired", weight: 102.06)
            try await h.complete(
                H.workout("t1", user: "tired", template: template, target: (5, 2, 102.06), sets: [(102.06, 3, 0)], daysAgo: 3))
            try await h.complete(
                H.workout("t2", user: "tired", template: template, target: (5, 2, 102.06), sets: [(102.06, 4, 0)], daysAgo: 1))
            let deload = try #require(try await h.recommendations("tired").first)
            #expect(deload.changes.first?.action == .deload && deload.changes.first?.toWeightKg == 92.986)
            #expect(WeightUnit.pounds.text(kilograms: 92.986) == "205 lb")

            // A kilogram user with the same sets steps on the kilogram grid, as before.
            await h.addUser("metric", weightFormat: "kilograms")
            try await h.complete(
                H.workout("m1", user: "metric", exercise: H.bench, target: (8, nil, nil), sets: [(61.23, 8, nil)]))
            #expect(try await h.recommendations("metric").first?.changes.first?.toWeightKg == 62.5)
        }
    }
}
