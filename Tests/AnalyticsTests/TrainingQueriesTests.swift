import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Analytics

/// Paging through sets, and the coach's summary staying small on a long history.
@Suite struct TrainingQueriesTests {
    typealias H = AnalyticsHarness

    @Test(arguments: TestDatabases.engines)
    func pagesOfSetsNeverOverlapOrSkipAndFiltersApply(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("u1")
            for day in 0..<6 {
                try await h.complete(
                    H.workout(
                        "w\(day)", user: "u1", start: H.now.addingTimeInterval(-Double(day) * 86_400 - 7200),
                        [(H.squat, [.init(weight: 100, reps: 5), .init(weight: 100, reps: 5)]), (H.pullup, [.init(weight: nil, reps: 8)])]))
            }
            let queries = h.module.trainingAnalytics
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(limit: 4, cursor: cursor))
                seen += page.items.map { "\($0.workoutId)/\($0.exerciseId)/\($0.weightKg)" }
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen.count == 18)
            #expect(seen.first?.hasPrefix("w0/") == true && seen.last?.hasPrefix("w5/") == true)

            let pulls = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(exerciseId: H.pullup.id, limit: 100))
            #expect(pulls.items.count == 6 && pulls.items.allSatisfy { $0.weightKg == 0 && $0.working && $0.e1rmKg == 0 })
            let biceps = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(muscle: "Biceps", limit: 100))
            #expect(biceps.items.count == 6, "secondary muscles match too, in any case")
            let days = try await queries.trainingSets(
                userId: "u1", query: TrainingSetQuery(from: "2026-11-24", to: "2026-11-25", limit: 100))
            #expect(Set(days.items.map(\.date)) == ["2026-11-24", "2026-11-25"])
            #expect(try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(muscle: "", limit: 100)).items.count == 18)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theTrainingContextSaysWhatTheLastWeeksHeld(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("u1")
            func day(_ text: String) -> Date { ISO8601DateFormatter().date(from: "\(text)T10:00:00Z")! }
            try await h.complete(H.workout("old", user: "u1", start: day("2026-10-14"), [(H.bench, [.init(weight: 80, reps: 5)])]))
            try await h.complete(
                H.workout(
                    "w1", user: "u1", start: day("2026-11-17"),
                    [(H.bench, [.init(weight: 100, reps: 5), .init(weight: 100, reps: 5)]), (H.squat, [.init(weight: 120, reps: 5)])]))
            try await h.complete(
                H.workout(
                    "w2", user: "u1", start: day("2026-11-24"),
                    [(H.squat, Array(repeating: .init(weight: 140, reps: 3), count: 3)), (H.pullup, [.init(weight: nil, reps: 8)])]))
            try await h.complete(H.workout("w3", user: "u1", start: day("2026-11-25"), [(H.curl, [.init(weight: 20, reps: 10)])]))
            try await h.complete(H.workout("other", user: "u2", start: day("2026-11-25"), [(H.curl, [.init(weight: 50, reps: 10)])]))

            let context = try await h.module.trainingAnalytics.trainingContext(userId: "u1")
            #expect(context.weekStart == "2026-11-23")
            #expect(context.workoutsPerWeek == [2, 1, 0, 0, 0], "this week first")
            #expect(
                context.lastWorkouts.map { "\($0.date) \($0.sets) \($0.volumeKg) \($0.exercises)" } == [
                    "2026-11-25 1 200.0 [\"Dumbbell Bicep Curl\"]", "2026-11-24 4 1260.0 [\"Barbell Squat\", \"Pullups\"]",
                    "2026-11-17 3 1600.0 [\"Barbell Bench Press - Medium Grip\", \"Barbell Squat\"]",
                ])
            #expect(
                context.lifts.map { "\($0.exerciseId) \($0.e1rmKg) \($0.previousE1rmKg.map { "\($0)" } ?? "-")" } == [
                    "Barbell_Squat 154.0 -", "Barbell_Bench_Press_-_Medium_Grip 116.7 93.3", "Dumbbell_Bicep_Curl 26.7 -",
                ], "most sets first; a lift with no load has no trend")
            #expect(context.muscles.first.map { "\($0.muscle) \($0.sets) \($0.previousAverage)" } == "quadriceps 3.0 0.3")
            #expect(context.muscles.count == 8 && !context.muscles.contains { $0.muscle == "chest" }, "the eight most worked this week")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theTrainingContextStaysUnderTwoKilobytesOnFiveYears(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("u1", timeZone: "Europe/Berlin")
            let names = (0..<12).map { index in
                Exercise(
                    id: "Long_\(index)", name: "An Exercise With A Name Far Longer Than Any Real One Number \(index)", category: "strength",
                    primaryMuscles: ["muscle \(index % 9)"], secondaryMuscles: ["muscle \((index + 4) % 9)"])
            }
            let module = AnalyticsModule(
                database: h.database, accounts: h.accounts, log: h.log, catalog: FakeExerciseCatalog(names + H.exercises), clock: h.clock)
            var random = SeededRandomNumberGenerator(seed: 5)
            // Five years, three workouts a week, six exercises of three sets each.
            for index in 0..<(5 * 52 * 3) {
                let start = H.now.addingTimeInterval(-Double(index) * 2.3 * 86_400 - 3600)
                let exercises = (0..<6).map { _ in
                    (
                        names.randomElement(using: &random)!,
                        (0..<3).map { _ in H.PlannedSet(weight: Double(Int.random(in: 20...200, using: &random)), reps: 8) }
                    )
                }
                await h.log.record(H.workout("w\(index)", user: "u1", start: start, exercises))
            }
            try await module.rebuild(userId: "u1")
            let context = try await module.trainingAnalytics.trainingContext(userId: "u1")
            let size = try JSONCoding.encode(context).count
            #expect(size <= 2048, "\(size) bytes")
            #expect(context.lastWorkouts.count == 3 && context.lifts.count == 5 && context.muscles.count == 8)
            #expect(context.workoutsPerWeek.count == 5)
            #expect(context.lastWorkouts.allSatisfy { $0.exercises.count <= 4 && $0.sets == 18 })
        }
    }
}
