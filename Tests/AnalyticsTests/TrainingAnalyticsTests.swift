import Contracts
import Foundation
import Platform
import TestSupport
import Testing

@testable import Analytics

/// Training analytics kept from the training log: exact numbers, redelivery, edits, deletes.
@Suite struct TrainingAnalyticsTests {
    typealias H = AnalyticsHarness
    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// Tuesday 24 November 2026: a warm-up and two work sets of squats, one set of bench.
    static func tuesday(_ user: String = "u1", squat: Double = 100) -> CompletedWorkout {
        H.workout(
            "w1", user: user, start: at("2026-11-24T10:00:00Z"),
            [
                (H.squat, [.init(weight: 40, reps: 5), .init(weight: squat, reps: 5, rir: 2), .init(weight: squat, reps: 5, rir: 1)]),
                (H.bench, [.init(weight: 80, reps: 8), .init(weight: 80, reps: 8, logged: false)]),
            ])
    }

    @Test(arguments: TestDatabases.engines)
    func aCompletedWorkoutMakesExactFactsAndWeeks(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("u1")
            try await h.complete(Self.tuesday())
            let queries = h.module.trainingAnalytics

            let squat = try await queries.exerciseProgress(userId: "u1", exerciseId: H.squat.id, weeks: 12)
            #expect(
                squat == [
                    ExerciseWeek(
                        weekStart: "2026-11-23", e1rmKg: 100 * (1 + 5.0 / 30), topWeightKg: 100, bestSet: .init(weightKg: 100, reps: 5),
                        volumeKg: 1000, sets: 2, reps: 10)
                ], "the 40 kg warm-up is not a working set")
            let bench = try await queries.exerciseProgress(userId: "u1", exerciseId: H.bench.id, weeks: 1)
            #expect(bench.map(\.sets) == [1], "the unlogged set does not count")
            #expect(bench.first?.e1rmKg == 80 * (1 + 8.0 / 30))

            #expect(
                try await queries.muscleProgress(userId: "u1", muscle: "quadriceps", weeks: 4) == [
                    .init(weekStart: "2026-11-23", sets: 2, volumeKg: 1000)
                ])
            #expect(
                try await queries.muscleProgress(userId: "u1", muscle: "glutes", weeks: 4) == [
                    .init(weekStart: "2026-11-23", sets: 1, volumeKg: 500)
                ])
            #expect(
                try await queries.muscleProgress(userId: "u1", muscle: "triceps", weeks: 4) == [
                    .init(weekStart: "2026-11-23", sets: 0.5, volumeKg: 320)
                ])

            let stats = try await queries.weeklyStats(userId: "u1", weeks: 2)
            #expect(
                stats == [
                    WeeklyStats(
                        weekStart: "2026-11-23", workouts: 1, sets: 4, reps: 23, volumeKg: 1840, durationMin: 60,
                        setsByMuscle: [
                            "quadriceps": 2, "calves": 1, "glutes": 1, "hamstrings": 1, "lower back": 1, "chest": 1, "shoulders": 0.5,
                            "triceps": 0.5,
                        ])
                ])

            let sets = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(limit: 10))
            #expect(sets.items.map(\.weightKg) == [80, 100, 100, 40], "newest first: the last set logged first")
            #expect(sets.items.map(\.working) == [true, true, true, false])
            #expect(sets.items.allSatisfy { $0.date == "2026-11-24" && $0.weekStart == "2026-11-23" })
            #expect(sets.nextCursor == nil)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func redeliveryEditsAndDeletesKeepEveryRowTrue(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("u1")
            let tuesday = Self.tuesday()
            let lastWeek = H.workout("w0", user: "u1", start: Self.at("2026-11-17T18:00:00Z"), [(H.squat, [.init(weight: 90, reps: 5)])])
            try await h.complete(lastWeek)
            try await h.complete(tuesday)
            let once = try await h.dump("u1")
            // The same event again (at-least-once delivery): nothing changes.
            try await h.module.refresh(userId: "u1", workoutId: tuesday.id)
            #expect(try await h.dump("u1") == once)

            try await h.edit(Self.tuesday(squat: 110))
            let squat = try await h.module.trainingAnalytics.exerciseProgress(userId: "u1", exerciseId: H.squat.id, weeks: 12)
            #expect(squat.map(\.topWeightKg) == [90, 110])
            #expect(squat.map(\.weekStart) == ["2026-11-16", "2026-11-23"])

            try await h.delete(tuesday)
            #expect(try await h.module.trainingAnalytics.weeklyStats(userId: "u1", weeks: 12).map(\.weekStart) == ["2026-11-16"])
            let afterDelete = try await h.dump("u1")
            #expect(!afterDelete.contains { $0.contains("2026-11-23") }, "a week left without workouts has no rows")
            // A late redelivery of the completion changes nothing: the log no longer holds the workout.
            try await h.module.refresh(userId: "u1", workoutId: tuesday.id)
            #expect(try await h.dump("u1") == afterDelete)

            try await h.module.rebuild(userId: "u1")
            #expect(try await h.dump("u1") == afterDelete)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func weeksFollowTheUsersTimeZoneAndWeekStart(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("ny", timeZone: "America/New_York", weekStartsOnMonday: false)
            // Monday 02:00 UTC is Sunday evening in New York: a Sunday, the first day of its week.
            try await h.complete(
                H.workout("w", user: "ny", start: Self.at("2026-11-23T02:00:00Z"), [(H.curl, [.init(weight: 12, reps: 10)])]))
            let sets = try await h.module.trainingAnalytics.trainingSets(userId: "ny", query: TrainingSetQuery())
            #expect(sets.items.map(\.date) == ["2026-11-22"])
            #expect(sets.items.map(\.weekStart) == ["2026-11-22"])
        }
    }

    @Test(arguments: TestDatabases.engines)
    func anotherUsersRowsAreNeitherReadNorTouched(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("u1")
            await h.addUser("u2")
            try await h.complete(Self.tuesday("u1"))
            let before = try await h.dump("u1")
            // u2 names u1's workout: the log has no such workout of u2's, so nothing is written or removed.
            try await h.module.refresh(userId: "u2", workoutId: "w1")
            #expect(try await h.dump("u1") == before)
            #expect(try await h.dump("u2").isEmpty)
            #expect(try await h.module.trainingAnalytics.weeklyStats(userId: "u2", weeks: 12).isEmpty)
            try await h.module.eraser.eraseUserData(userId: "u2")
            #expect(try await h.dump("u1") == before)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func queriesRefuseBadInputNamingTheField(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            await h.addUser("u1")
            let queries = h.module.trainingAnalytics
            let cases: [(String, @Sendable () async throws -> Void)] = [
                ("weeks", { _ = try await queries.weeklyStats(userId: "u1", weeks: 0) }),
                ("weeks", { _ = try await queries.exerciseProgress(userId: "u1", exerciseId: "x", weeks: 261) }),
                ("limit", { _ = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(limit: 0)) }),
                ("from", { _ = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(from: "2026-02-30")) }),
                ("to", { _ = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(to: "last week")) }),
                ("cursor", { _ = try await queries.trainingSets(userId: "u1", query: TrainingSetQuery(cursor: "bm90LWEtY3Vyc29y")) }),
            ]
            for (field, call) in cases {
                do {
                    try await call()
                    Issue.record("accepted a bad \(field)")
                } catch let error as ServiceError {
                    #expect(error.code == .invalidArgument)
                    #expect(error.details["field"] == field, "\(error.details)")
                }
            }
        }
    }
}
