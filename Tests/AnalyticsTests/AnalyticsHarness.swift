import Analytics
import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport

/// Analytics composed from its definition on a fresh database, with fake neighbours: a training log, accounts and a catalog a test fills.
struct AnalyticsHarness {
    let database: Database
    let accounts: FakeAccountDirectory
    let log: FakeTrainingLog
    let clock: FakeWallClock
    let module: AnalyticsModule

    static let squat = Exercise(
        id: "Barbell_Squat", name: "Barbell Squat", category: "strength", primaryMuscles: ["quadriceps"],
        secondaryMuscles: ["calves", "glutes", "hamstrings", "lower back"])
    static let bench = Exercise(
        id: "Barbell_Bench_Press_-_Medium_Grip", name: "Barbell Bench Press - Medium Grip", category: "strength", primaryMuscles: ["chest"],
        secondaryMuscles: ["shoulders", "triceps"])
    static let curl = Exercise(
        id: "Dumbbell_Bicep_Curl", name: "Dumbbell Bicep Curl", category: "strength", primaryMuscles: ["biceps"],
        secondaryMuscles: ["forearms"])
    static let pullup = Exercise(
        id: "Pullups", name: "Pullups", category: "strength", primaryMuscles: ["lats"], secondaryMuscles: ["biceps"])
    static let exercises = [squat, bench, curl, pullup]

    /// The harness's "now": Thursday 26 November 2026, noon UTC.
    static let now = ISO8601DateFormatter().date(from: "2026-11-26T12:00:00Z")!

    static func with(_ engine: SQLEngine, _ body: (AnalyticsHarness) async throws -> Void) async throws {
        try await TestDatabases.with(engine) { database in
            let accounts = FakeAccountDirectory()
            let log = FakeTrainingLog()
            let clock = FakeWallClock(now)
            let composition = try await TestComposition.build(
                AnalyticsModule.definition(),
                neighbours: [
                    ProvidedContract(Contract.accountDirectory, accounts), ProvidedContract(Contract.trainingLog, log),
                    ProvidedContract(Contract.exerciseCatalog, FakeExerciseCatalog(exercises)),
                ], platform: TestComposition.platform(database, clock: clock))
            let module = try composition.module(AnalyticsModule.self)
            try await body(AnalyticsHarness(database: database, accounts: accounts, log: log, clock: clock, module: module))
        }
    }

    func addUser(_ id: String, timeZone: String? = "UTC", weekStartsOnMonday: Bool = true) async {
        await accounts.add(
            AccountSummary(
                userId: id, email: "\(id)@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                createdAt: Date(timeIntervalSince1970: 0), timeZone: timeZone, weekStartsOnMonday: weekStartsOnMonday))
    }

    /// A set as a test writes it: weight, reps, RIR, and whether it was logged.
    struct PlannedSet {
        var weight: Double?
        var reps: Int?
        var rir: Int? = nil
        var logged = true
    }

    static func workout(
        _ id: String, user: String, start: Date, minutes: Double = 60, _ exercises: [(Exercise, [PlannedSet])]
    ) -> CompletedWorkout {
        let end = start.addingTimeInterval(minutes * 60)
        let entries = exercises.enumerated().map { index, entry in
            WorkoutExercise(
                instanceId: "\(id)-i\(index)", exerciseId: entry.0.id, name: entry.0.name,
                sets: entry.1.enumerated().map { setIndex, set in
                    WorkoutSet(
                        id: "s\(setIndex)", setIndex: setIndex, weightKg: set.weight, reps: set.reps, rir: set.rir,
                        completedAt: set.logged ? end : nil)
                })
        }
        return CompletedWorkout(
            id: id, userId: user, name: "W \(id)", sourceTemplateId: nil, sourceRoutineId: nil, startTime: start, endTime: end,
            exercises: entries, analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: 0, reps: 0, volume: 0), exercises: [], muscles: []),
            createdAt: end, updatedAt: end)
    }

    func complete(_ workout: CompletedWorkout) async throws {
        await log.record(workout)
        try await module.refresh(userId: workout.userId, workoutId: workout.id)
    }

    func edit(_ workout: CompletedWorkout) async throws {
        await log.replace(workout)
        try await module.refresh(userId: workout.userId, workoutId: workout.id)
    }

    func delete(_ workout: CompletedWorkout) async throws {
        await log.remove(id: workout.id)
        try await module.refresh(userId: workout.userId, workoutId: workout.id)
    }

    /// Every training row of the user, table by table in key order, as text: two states are equal row for row
    /// when their dumps are.
    func dump(_ userId: String) async throws -> [String] {
        let tables: [(String, String, [(String, Kind)])] = [
            (
                "analytics_workouts", "workout_id",
                [("workout_id", .text), ("day", .text), ("week_start", .text), ("ended_at", .int), ("duration_seconds", .int)]
            ),
            (
                "analytics_set_facts", "workout_id, position",
                [
                    ("workout_id", .text), ("position", .int), ("instance_id", .text), ("set_id", .text), ("exercise_id", .text),
                    ("exercise_name", .text), ("day", .text), ("week_start", .text), ("ended_at", .int), ("weight_kg", .double),
                    ("reps", .int), ("rir", .optionalInt), ("e1rm_kg", .double), ("volume_kg", .double), ("working", .int),
                    ("primary_muscles", .text), ("secondary_muscles", .text),
                ]
            ),
            (
                "analytics_exercise_weeks", "exercise_id, week_start",
                [
                    ("exercise_id", .text), ("week_start", .text), ("exercise_name", .text), ("e1rm_kg", .double),
                    ("top_weight_kg", .double),
                    ("best_weight_kg", .double),
                    ("best_reps", .int), ("volume_kg", .double), ("sets", .int), ("reps", .int),
                ]
            ),
            (
                "analytics_muscle_weeks", "muscle, week_start",
                [("muscle", .text), ("week_start", .text), ("sets", .double), ("volume_kg", .double)]
            ),
            (
                "analytics_weekly_stats", "week_start",
                [
                    ("week_start", .text), ("workouts", .int), ("sets", .int), ("reps", .int), ("volume_kg", .double),
                    ("duration_min", .int),
                    ("sets_by_muscle", .text),
                ]
            ),
        ]
        var lines: [String] = []
        for (table, order, columns) in tables {
            let rows = try await database.sql.raw(
                "SELECT * FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId) ORDER BY \(unsafeRaw: order)"
            ).all()
            for row in rows {
                var fields = [table]
                for (column, kind) in columns {
                    switch kind {
                    case .text: fields.append(try row.decode(column: column, as: String.self))
                    case .int: fields.append(String(try row.decode(column: column, as: Int64.self)))
                    case .optionalInt: fields.append(try row.decode(column: column, as: Int64?.self).map(String.init) ?? "null")
                    case .double: fields.append(String(try row.decode(column: column, as: Double.self)))
                    }
                }
                lines.append(fields.joined(separator: " | "))
            }
        }
        return lines
    }

    enum Kind { case text, int, optionalInt, double }
}
