import Analytics
import Contracts
import Fakes
import Foundation
import Logging
import Platform
import SQLKit
import TestSupport
import Workouts

// Training analytics on a generated five-year history (≈1,500 workouts, ≈40,000 sets) of one user: reading the
// history through TrainingLog, a full rebuild, the incremental update of one completed workout, and query latency
// at 32 concurrent callers. SQLite by default; PostgreSQL when POVVER_BENCH_POSTGRES_URL is set.
// Usage: analytics-bench [years]
let years = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 5
var logger = Logger(label: "analytics-bench")
logger.logLevel = .error

let location: DatabaseLocation
if let url = ProcessInfo.processInfo.environment["POVVER_BENCH_POSTGRES_URL"] {
    location = .postgres(url: url, schema: nil)
} else {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("analytics-bench-\(UUID().uuidString).sqlite").path
    location = .sqliteFile(path: path)
}
let database = try await Database.open(location, logger: logger)
try await Migrator(database: database, logger: logger).migrate([
    Migrator.platformMigrations, ("workouts", WorkoutsModule.migrations), ("analytics", AnalyticsModule.migrations),
])
let userId = "bench-\(UUID().uuidString.prefix(8))"
let clock = SystemClock()
let workouts = WorkoutsModule(database: database, clock: clock, ids: RandomIDGenerator())
let accounts = FakeAccountDirectory([
    AccountSummary(
        userId: userId, email: "bench@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
        createdAt: Date(), timeZone: "Europe/Berlin")
])
let analytics = AnalyticsModule(database: database, accounts: accounts, log: workouts.trainingLog, catalog: workouts.catalog, clock: clock)

/// Stores workouts in the history table as Workouts archives them (the generator stands in for years of use).
func archive(_ batch: [CompletedWorkout]) async throws {
    try await database.transaction { tx in
        for workout in batch {
            try await tx.sql.raw(
                """
                INSERT INTO workouts_history (id, user_id, end_time, document, created_at, updated_at)
                VALUES (\(bind: workout.id), \(bind: workout.userId), \(bind: workout.endTime.millisecondsSince1970),
                    \(bind: try JSONCoding.encodeToString(workout)), \(bind: workout.createdAt.millisecondsSince1970),
                    \(bind: workout.updatedAt.millisecondsSince1970))
                """
            ).run()
        }
    }
}

let history = HistoryGenerator(userId: userId, years: years).workouts(now: Date().addingTimeInterval(-7 * 86_400))
let setCount = history.reduce(0) { $0 + $1.exercises.reduce(0) { $0 + $1.sets.count } }
print("engine: \(database.engine.rawValue); history: \(history.count) workouts, \(setCount) sets over \(years) years")
try await archive(history)

var read = 0
let readTime = try await Latency.time {
    var cursor: String?
    repeat {
        let page = try await workouts.trainingLog.completedWorkouts(
            userId: userId, endedFrom: nil, endedBefore: nil, limit: 500, cursor: cursor)
        read += page.workouts.count
        cursor = page.nextCursor
    } while cursor != nil
}
print(String(format: "history through TrainingLog    %8.1f ms   %6.2f µs per set", readTime * 1000, readTime / Double(setCount) * 1e6))

var rebuilds: [Double] = []
for _ in 0..<3 { rebuilds.append(try await Latency.time { try await analytics.rebuild(userId: userId) }) }
print(String(format: "full rebuild (best of 3)       %8.1f ms", rebuilds.min()! * 1000))

// The incremental path: 50 new workouts, each archived then refreshed as its event's handler does.
let fresh = HistoryGenerator(userId: userId, years: 1, seed: 7).workouts(now: Date()).suffix(50).map { workout -> CompletedWorkout in
    var workout = workout
    workout.id = "new-" + workout.id
    return workout
}
var updates: [Double] = []
for workout in fresh {
    try await archive([workout])
    updates.append(try await Latency.time { try await analytics.refresh(userId: userId, workoutId: workout.id) })
}
updates.sort()
print(
    String(
        format: "incremental update per workout  median %6.2f ms   p99 %6.2f ms", updates[updates.count / 2] * 1000,
        updates[updates.count * 99 / 100] * 1000))

/// Query latency at 32 concurrent callers, printed per query.
func measureQueries(_ queries: any TrainingAnalytics, userId: String) async throws {
    let cases: [(String, @Sendable () async throws -> Void)] = [
        (
            "getExerciseProgress (12 weeks)",
            { _ = try await queries.exerciseProgress(userId: userId, exerciseId: "Barbell_Squat", weeks: 12) }
        ),
        ("getTrainingContext", { _ = try await queries.trainingContext(userId: userId) }),
    ]
    for (label, body) in cases {
        let (p50, p99) = try await Latency.percentiles(callers: 32, calls: 100, body)
        print(String(format: "%-30@ 32 callers: p50 %6.2f ms   p99 %6.2f ms", label as NSString, p50, p99))
    }
}

let queries = analytics.trainingAnalytics
if case .postgres = location {
    // Statistics as autovacuum keeps them in steady state: without them the planner takes the freshly loaded tables
    // for empty ones and the numbers swing by a hundred times between runs.
    try await database.sql.raw("ANALYZE").run()
}
try await measureQueries(queries, userId: userId)
let context = try await queries.trainingContext(userId: userId)
print("training context: \(try JSONCoding.encode(context).count) bytes")

// The same history as a Strong export, imported for a second user (one transaction, names through the catalog).
let importer = "bench-import-\(UUID().uuidString.prefix(8))"
let csv = HistoryGenerator.strongCSV(history)
var summary: WorkoutImporter.Summary?
let importTime = try await Latency.time {
    summary = try await workouts.importer.importFile(
        userId: importer, format: "strong_csv", content: csv, weightUnit: "kg", timeZone: "UTC")
}
print(
    String(
        format: "Strong import (%.1f MB)           %8.1f ms   %d workouts, %d sets, %d names unmatched", Double(csv.utf8.count) / 1e6,
        importTime * 1000, summary?.imported ?? 0, summary?.sets ?? 0, summary?.unmatched.count ?? 0))
try await workouts.eraser.eraseUserData(userId: importer)

try await analytics.eraser.eraseUserData(userId: userId)
try await workouts.eraser.eraseUserData(userId: userId)
await database.shutdown()
if case .sqliteFile(let path) = location {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
