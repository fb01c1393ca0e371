import Contracts
import Fakes
import Foundation
import Platform
import TestSupport

@testable import Recommendations

/// Recommendations composed from its definition on a fresh database, with fake neighbours a test fills: the training log, analytics, plans,
/// accounts, the premium gate and the product event sink; a worker the test drains instead of waiting.
struct RecommendationsHarness {
    let database: Database
    let clock: FakeWallClock
    let log: FakeTrainingLog
    let analytics: FakeTrainingAnalytics
    let plans: FakePlanLibrary
    let accounts: FakeAccountDirectory
    let premium: FakePremiumGate
    let events: FakeProductEventSink
    let module: RecommendationsModule
    let jobs: JobQueue
    let worker: JobWorker

    static let squat = Exercise(
        id: "Barbell_Squat", name: "Barbell Squat", category: "strength", primaryMuscles: ["quadriceps"],
        secondaryMuscles: ["glutes", "hamstrings"])
    static let bench = Exercise(
        id: "Barbell_Bench_Press_-_Medium_Grip", name: "Barbell Bench Press - Medium Grip", category: "strength", primaryMuscles: ["chest"],
        secondaryMuscles: ["shoulders", "triceps"])
    static let curl = Exercise(
        id: "Dumbbell_Bicep_Curl", name: "Dumbbell Bicep Curl", category: "strength", primaryMuscles: ["biceps"], secondaryMuscles: [])
    static let exercises = [squat, bench, curl]

    /// Thursday 26 November 2026, noon UTC.
    static let now = ISO8601DateFormatter().date(from: "2026-11-26T12:00:00Z")!

    static func with(
        _ engine: SQLEngine, settings: RecommendationsSettings = RecommendationsSettings(),
        _ body: (RecommendationsHarness) async throws -> Void
    ) async throws {
        try await TestDatabases.with(engine) { database in
            let clock = FakeWallClock(now)
            let platform = TestComposition.platform(database, clock: clock)
            let log = FakeTrainingLog()
            let analytics = FakeTrainingAnalytics()
            let plans = FakePlanLibrary(catalog: exercises, clock: clock, ids: SequentialIDGenerator(prefix: "plan"))
            let accounts = FakeAccountDirectory()
            let premium = FakePremiumGate()
            let events = FakeProductEventSink()
            let composition = try await TestComposition.build(
                RecommendationsModule.definition(settings: settings),
                neighbours: [
                    ProvidedContract(Contract.trainingLog, log), ProvidedContract(Contract.trainingAnalytics, analytics),
                    ProvidedContract(Contract.planLibrary, plans), ProvidedContract(Contract.accountDirectory, accounts),
                    ProvidedContract(Contract.premiumGate, premium), ProvidedContract(Contract.productEvents, events),
                ], platform: platform)
            let module = try composition.module(RecommendationsModule.self)
            let worker = JobWorker(
                name: "test-worker", queue: platform.jobs, definitions: composition.jobs, logger: TestDatabases.logger)
            try await body(
                RecommendationsHarness(
                    database: database, clock: clock, log: log, analytics: analytics, plans: plans, accounts: accounts, premium: premium,
                    events: events, module: module, jobs: platform.jobs, worker: worker))
        }
    }

    /// `weightFormat` as Auth stores it (`kilograms`, `pounds`), nil when the user never chose.
    func addUser(
        _ id: String, premium isPremium: Bool = true, timeZone: String = "UTC", weekStartsOnMonday: Bool = true, weightFormat: String? = nil
    ) async {
        await accounts.add(
            AccountSummary(
                userId: id, email: "\(id)@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                createdAt: Date(timeIntervalSince1970: 0), timeZone: timeZone, weekStartsOnMonday: weekStartsOnMonday,
                weightFormat: weightFormat))
        if isPremium { await premium.grant(userId: id) }
    }

    /// A routine of one template: `sets` sets of the exercise at `weight` for `reps` at `rir`.
    func addRoutine(user: String, exercise: Exercise = squat, weight: Double, reps: Int = 5, rir: Int? = 2, sets: Int = 3) async throws
        -> WorkoutTemplate
    {
        let plan = RoutinePlan(
            name: "Strength",
            templates: [
                TemplatePlan(
                    name: "Day A",
                    exercises: [
                        PlannedExercise(
                            exerciseId: exercise.id,
                            sets: Array(repeating: TemplateSet(targetReps: reps, targetRir: rir, targetWeightKg: weight), count: sets))
                    ])
            ])
        return try await plans.createRoutine(userId: user, plan: plan).templates[0]
    }

    /// A completed workout of one exercise, ended `daysAgo` before now: each set as (weight, reps, rir), against the
    /// template's targets when given.
    static func workout(
        _ id: String, user: String, exercise: Exercise = squat, template: WorkoutTemplate? = nil,
        target: (reps: Int, rir: Int?, weight: Double?)?,
        sets: [(Double, Int?, Int?)], daysAgo: Double = 0
    ) -> CompletedWorkout {
        let end = now.addingTimeInterval(-daysAgo * 86_400 - 60)
        let entries = [
            WorkoutExercise(
                instanceId: "\(id)-i0", exerciseId: exercise.id, name: exercise.name,
                sets: sets.enumerated().map { index, set in
                    WorkoutSet(
                        id: "s\(index)", setIndex: index, targetReps: target?.reps, targetRir: target?.rir, targetWeightKg: target?.weight,
                        weightKg: set.0, reps: set.1, rir: set.2, completedAt: set.1 == nil ? nil : end)
                })
        ]
        return CompletedWorkout(
            id: id, userId: user, name: "Day A", sourceTemplateId: template?.id, sourceRoutineId: nil,
            startTime: end.addingTimeInterval(-3600),
            endTime: end, exercises: entries,
            analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: sets.count, reps: 0, volume: 0), exercises: [], muscles: []),
            createdAt: end, updatedAt: end)
    }

    /// Records the workout and runs its analysis as a completed workout's event would queue it.
    func complete(_ workout: CompletedWorkout) async throws {
        await log.record(workout)
        try await jobs.enqueue(try AnalystJobs.job(postWorkout: .init(userId: workout.userId, workoutId: workout.id)))
        try await worker.drain()
    }

    func recommendations(_ user: String, status: RecommendationStatus? = nil) async throws -> [Recommendation] {
        try await module.store.list(userId: user, status: status, limit: 100, cursor: nil).items
    }
}
