import Analytics
import AsyncHTTPClient
import Contracts
import Fakes
import Foundation
import Logging
import NIOPosix
import Platform
import Recommendations
import SQLKit
import TestSupport
import Workouts

// The training analyst on a generated five-year history (≈1,500 workouts) of one premium user: post-workout
// analyses per second with one and two workers, getAnalysisSummary latency at 32 concurrent callers, and a 3-month
// backfill (queue + run). SQLite by default; PostgreSQL when POVVER_BENCH_POSTGRES_URL is set.
// Usage: recommendations-bench [analyses]
let analyses = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 400
let logger: Logger = {
    var logger = Logger(label: "recommendations-bench")
    logger.logLevel = .error
    return logger
}()

let location: DatabaseLocation
if let url = ProcessInfo.processInfo.environment["POVVER_BENCH_POSTGRES_URL"] {
    location = .postgres(url: url, schema: nil)
} else {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("recommendations-bench-\(UUID().uuidString).sqlite").path
    location = .sqliteFile(path: path)
}
let database = try await Database.open(location, logger: logger)
try await Migrator(database: database, logger: logger).migrate([
    Migrator.platformMigrations, ("workouts", WorkoutsModule.migrations), ("analytics", AnalyticsModule.migrations),
    ("recommendations", RecommendationsModule.migrations),
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
let platform = PlatformServices(
    database: database, clock: clock, ids: RandomIDGenerator(), logger: logger, metrics: ServerMetrics(), http: .shared,
    threadPool: .singleton, mail: MailService(transport: LogMailTransport(logger: logger), from: "bench@example.com"))
let recommendations = RecommendationsModule(
    platform: platform, settings: RecommendationsSettings(), log: workouts.trainingLog, analytics: analytics.trainingAnalytics,
    plans: workouts.planLibrary, accounts: accounts, premium: FakePremiumGate(premium: [userId]), events: FakeProductEventSink())

// Five years of history, imported as a Strong export (the generator stands in for years of use), then analytics.
// The generator ends its history a thirtieth of the span before `now`: shifted so the last workout was yesterday.
let history = HistoryGenerator(userId: userId, years: 5).workouts(now: Date().addingTimeInterval(5 * 365 * 86_400 / 30 - 86_400))
let imported = try await workouts.importer.importFile(
    userId: userId, format: "strong_csv", content: HistoryGenerator.strongCSV(history), weightUnit: "kg", timeZone: "UTC")
try await analytics.rebuild(userId: userId)
if case .postgres = location { try await database.sql.raw("ANALYZE").run() }
print("engine: \(database.engine.rawValue); history: \(imported.imported) workouts, \(imported.sets) sets over 5 years")

/// The newest `count` workouts' ids.
var ids: [String] = []
var cursor: String?
repeat {
    let page = try await workouts.trainingLog.completedWorkouts(
        userId: userId, endedFrom: nil, endedBefore: nil, limit: 500, cursor: cursor)
    ids += page.workouts.map(\.id)
    cursor = page.nextCursor
} while cursor != nil
let newest = Array(ids.suffix(analyses))

/// Removes every analyst row and job, so each measurement starts from nothing.
func reset() async throws {
    try await recommendations.eraser.eraseUserData(userId: userId)
    try await database.transaction { tx in try await tx.sql.raw("DELETE FROM platform_jobs WHERE kind LIKE 'recommendations.%'").run() }
}

/// Runs every due analyst job with `count` workers at once; answers the seconds taken.
func drain(workers count: Int) async throws -> Double {
    try await Latency.time {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                let worker = JobWorker(
                    name: "bench-\(index)", queue: platform.jobs, definitions: recommendations.jobDefinitions, logger: logger)
                group.addTask { while try await worker.runOnce() {} }
            }
            try await group.waitForAll()
        }
    }
}

for workers in [1, 2] {
    try await reset()
    for id in newest {
        try await platform.jobs.enqueue(
            NewJob(
                id: "pw:\(id)", kind: "recommendations.POST_WORKOUT", payload: #"{"user_id":"\#(userId)","workout_id":"\#(id)"}"#,
                runAt: Date().addingTimeInterval(-1), maxAttempts: 3, userId: userId))
    }
    let elapsed = try await drain(workers: workers)
    print(
        String(
            format: "post-workout analyses, %d worker%@  %5d in %6.2f s   %7.1f jobs/s   %6.2f ms each", workers, workers == 1 ? " " : "s",
            newest.count, elapsed, Double(newest.count) / elapsed, elapsed / Double(newest.count) * 1000))
}

// A 3-month backfill of the five-year user: queueing, then running (one worker).
try await reset()
var queued = 0
let queueTime = try await Latency.time { queued = try await recommendations.backfill(userId: userId, months: 3).queued }
let runTime = try await drain(workers: 1)
print(String(format: "3-month backfill                 %d jobs: queued in %6.1f ms, run in %6.2f s", queued, queueTime * 1000, runTime))

let summaries = recommendations.summaries
let sample = try await summaries.summary(userId: userId, sections: Set(AnalysisSection.allCases), date: nil, limit: 5)
for callers in [1, 8, 32] {
    let (p50, p99) = try await Latency.percentiles(callers: callers, calls: 6400 / callers) {
        _ = try await summaries.summary(userId: userId, sections: Set(AnalysisSection.allCases), date: nil, limit: 5)
    }
    print(
        String(
            format: "getAnalysisSummary (all sections, %d insights, %d bytes) %2d callers: p50 %6.3f ms   p99 %6.3f ms",
            sample.insights.count,
            try JSONCoding.encode(sample).count, callers, p50, p99))
}

try await reset()
try await analytics.eraser.eraseUserData(userId: userId)
try await workouts.eraser.eraseUserData(userId: userId)
await database.shutdown()
if case .sqliteFile(let path) = location {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}
