import Analytics
import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

struct TrainingAnalyticsFixture: Sendable {
    /// Gives the user three logged squat sets of 100 kg × 5 this week (and nothing else).
    var train: @Sendable (_ userId: String) async throws -> Void
}

/// The `TrainingAnalytics` contract: the user's own numbers only, oldest week first, sets paged without overlap,
/// bad arguments refused naming the field, a bounded context.
func trainingAnalyticsConformance(_ analytics: some TrainingAnalytics, fixture: TrainingAnalyticsFixture) async throws {
    try await fixture.train("u1")
    let squat = try await analytics.exerciseProgress(userId: "u1", exerciseId: "Barbell_Squat", weeks: 4)
    #expect(squat.count == 1 && squat.first?.sets == 3 && squat.first?.topWeightKg == 100)
    #expect(try await analytics.exerciseProgress(userId: "u2", exerciseId: "Barbell_Squat", weeks: 4).isEmpty, "another user's numbers")
    let bests = try await analytics.exerciseBests(userId: "u1", weeks: 12)
    #expect(bests.map(\.exerciseId) == ["Barbell_Squat"] && bests.first?.lastWeekStart == squat.first?.weekStart, "\(bests)")
    #expect(abs((bests.first?.e1rmKg ?? 0) - 116.67) < 0.05, "Epley: 100 × (1 + 5 / 30)")
    #expect(try await analytics.exerciseBests(userId: "u2", weeks: 12).isEmpty, "another user's numbers")
    #expect(try await analytics.weeklyStats(userId: "u1", weeks: 1).first?.sets == 3)
    #expect(try await analytics.muscleProgress(userId: "u1", muscle: "quadriceps", weeks: 2).first?.sets == 3)
    // A group lifters name is the sum of its muscles, week by week; its sets are its muscles' sets.
    var muscles = 0.0
    for muscle in MuscleGroups.muscles(for: "legs") {
        muscles += try await analytics.muscleProgress(userId: "u1", muscle: muscle, weeks: 2).first?.sets ?? 0
    }
    let legs = try await analytics.muscleProgress(userId: "u1", muscle: "Legs", weeks: 2)
    #expect(legs.count == 1 && legs.first?.sets == muscles && muscles >= 3, "\(legs)")
    #expect(try await analytics.trainingSets(userId: "u1", query: TrainingSetQuery(muscle: "legs", limit: 10)).items.count == 3)
    #expect(try await analytics.trainingSets(userId: "u1", query: TrainingSetQuery(muscle: "arms", limit: 10)).items.isEmpty)
    var seen = 0
    var cursor: String?
    repeat {
        let page = try await analytics.trainingSets(userId: "u1", query: TrainingSetQuery(limit: 2, cursor: cursor))
        seen += page.items.count
        cursor = page.nextCursor
    } while cursor != nil
    #expect(seen == 3)
    #expect(try JSONCoding.encode(try await analytics.trainingContext(userId: "u1")).count <= 2048)
    for (field, call) in [
        ("weeks", { _ = try await analytics.weeklyStats(userId: "u1", weeks: 0) }),
        ("weeks", { _ = try await analytics.exerciseProgress(userId: "u1", exerciseId: "Barbell_Squat", weeks: 261) }),
        ("weeks", { _ = try await analytics.exerciseBests(userId: "u1", weeks: 0) }),
        ("limit", { _ = try await analytics.trainingSets(userId: "u1", query: TrainingSetQuery(limit: 201)) }),
        ("cursor", { _ = try await analytics.trainingSets(userId: "u1", query: TrainingSetQuery(cursor: "forged")) }),
    ] as [(String, () async throws -> Void)] {
        do {
            try await call()
            Issue.record("accepted a bad \(field)")
        } catch let error as ServiceError {
            #expect(error.code == .invalidArgument && error.details["field"] == field)
        }
    }
}

@Suite struct TrainingAnalyticsConformanceTests {
    @Test func fake() async throws {
        let analytics = FakeTrainingAnalytics()
        try await trainingAnalyticsConformance(
            analytics,
            fixture: TrainingAnalyticsFixture { userId in
                let week = "2026-11-23"
                await analytics.set(
                    userId: userId, exerciseId: "Barbell_Squat",
                    weeks: [
                        ExerciseWeek(
                            weekStart: week, e1rmKg: 116.7, topWeightKg: 100, bestSet: .init(weightKg: 100, reps: 5), volumeKg: 1500,
                            sets: 3,
                            reps: 15)
                    ])
                await analytics.set(userId: userId, muscle: "quadriceps", weeks: [MuscleWeek(weekStart: week, sets: 3, volumeKg: 1500)])
                await analytics.set(
                    userId: userId,
                    stats: [
                        WeeklyStats(
                            weekStart: week, workouts: 1, sets: 3, reps: 15, volumeKg: 1500, durationMin: 60,
                            setsByMuscle: ["quadriceps": 3])
                    ])
                let set = TrainingSet(
                    workoutId: "w", exerciseId: "Barbell_Squat", exerciseName: "Barbell Squat", date: "2026-11-24", weekStart: week,
                    weightKg: 100,
                    reps: 5, rir: nil, e1rmKg: 116.7, volumeKg: 500, working: true, primaryMuscles: ["quadriceps"], secondaryMuscles: [])
                await analytics.set(userId: userId, sets: [set, set, set])
            })
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("analytics", AnalyticsModule.migrations)]) { db in
            let accounts = FakeAccountDirectory()
            let log = FakeTrainingLog()
            let clock = FakeWallClock()
            let module = AnalyticsModule(
                database: db, accounts: accounts, log: log, catalog: FakeExerciseCatalog(WorkoutsFixtures.catalog), clock: clock)
            try await trainingAnalyticsConformance(
                module.trainingAnalytics,
                fixture: TrainingAnalyticsFixture { userId in
                    for user in ["u1", "u2"] {
                        await accounts.add(
                            AccountSummary(
                                userId: user, email: "\(user)@example.com", emailVerified: true, providers: [.password],
                                originalProvider: "email",
                                createdAt: Date()))
                    }
                    let end = clock.now()
                    let sets = (0..<3).map { WorkoutSet(id: "s\($0)", setIndex: $0, weightKg: 100, reps: 5, completedAt: end) }
                    await log.record(
                        CompletedWorkout(
                            id: "w", userId: userId, name: nil, sourceTemplateId: nil, sourceRoutineId: nil,
                            startTime: end.addingTimeInterval(-3600),
                            endTime: end,
                            exercises: [WorkoutExercise(instanceId: "i", exerciseId: "Barbell_Squat", name: "Barbell Squat", sets: sets)],
                            analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: 3, reps: 15, volume: 1500), exercises: [], muscles: []),
                            createdAt: end, updatedAt: end))
                    try await module.refresh(userId: userId, workoutId: "w")
                })
        }
    }
}
