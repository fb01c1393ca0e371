import Contracts
import Foundation
import Logging
import Platform

/// Recommendations: the training analyst (post-workout insights, daily briefs, weekly reviews, on the job queue)
/// and auto-pilot recommendations (progression rules, review, expiry). Reads training data through the Analytics
/// contract (and the trimmed workout through the training log), changes templates only through the Workouts
/// contract, and asks `PremiumGate` at each of the three gates of docs/recommendations.md.
public struct RecommendationsModule: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: RecommendationsSettings
    let logger: Logger
    public let notes: AnalysisNotes
    let store: RecommendationStore
    let premium: any PremiumGate
    let analyst: Analyst
    let review: RecommendationReview
    let scheduler: AnalystScheduler
    let backfiller: AnalystBackfill
    let jobs: JobQueue
    let timer: any Clock<Duration>

    public init(
        platform: PlatformServices, settings: RecommendationsSettings, log: any TrainingLog, analytics: any TrainingAnalytics,
        plans: any PlanLibrary, accounts: any AccountDirectory, premium: any PremiumGate, events: any ProductEventSink
    ) {
        let database = platform.database
        let clock = platform.clock
        self.database = database
        self.clock = clock
        self.settings = settings
        self.logger = platform.logger
        self.premium = premium
        self.jobs = platform.jobs
        self.timer = platform.timer
        let notes = AnalysisNotes(database: database, clock: clock)
        let store = RecommendationStore(database: database)
        self.notes = notes
        self.store = store
        self.analyst = Analyst(
            database: database, clock: clock, notes: notes, store: store, log: log, analytics: analytics, plans: plans, accounts: accounts,
            premium: premium, events: events, logger: platform.logger)
        self.review = RecommendationReview(database: database, clock: clock, store: store, plans: plans, premium: premium, events: events)
        self.scheduler = AnalystScheduler(
            jobs: platform.jobs, clock: clock, log: log, accounts: accounts, premium: premium, settings: settings)
        self.backfiller = AnalystBackfill(jobs: platform.jobs, clock: clock, log: log, accounts: accounts)
    }

    public static var migrations: [Migration] { RecommendationsMigrations.all }

    /// The live `TrainingAnalysisSummaries` the coach reads.
    public var summaries: any TrainingAnalysisSummaries { notes }

    /// A completed workout (not an imported one: history is the backfill's) queues its analysis, for premium users
    /// only: a free user's training is not read (gate 1). A deleted workout takes its insight, its judged sessions
    /// and its pending recommendations with it.
    var handlers: [EventHandler] {
        let premium = self.premium
        let jobs = self.jobs
        let database = self.database
        let notes = self.notes
        let store = self.store
        return [
            .on(WorkoutCompleted.self, name: "recommendations.workout_completed") { event, _ in
                guard event.imported != true, try await premium.isPremium(userId: event.userId) else { return }
                try await jobs.enqueue(try AnalystJobs.job(postWorkout: .init(userId: event.userId, workoutId: event.workoutId)))
            },
            .on(WorkoutDeleted.self, name: "recommendations.workout_deleted") { event, _ in
                try await database.transaction { tx in
                    try await notes.remove(userId: event.userId, id: "pw-\(event.workoutId)", in: tx)
                    try await store.forget(userId: event.userId, workoutId: event.workoutId, in: tx)
                }
            },
        ]
    }

    /// The analyst's jobs: at most 3 attempts, 5 → 30 minutes apart.
    public var jobDefinitions: [JobDefinition] {
        let analyst = self.analyst
        let scheduler = self.scheduler
        return [
            JobDefinition(kind: AnalystJobs.postWorkout, lease: 120, timeout: 600, retry: AnalystJobs.retry) { job in
                try await analyst.analyseWorkout(try JSONCoding.load(AnalystJobs.PostWorkout.self, from: job.payload))
            },
            JobDefinition(kind: AnalystJobs.dailyBrief, lease: 120, timeout: 600, retry: AnalystJobs.retry) { job in
                try await analyst.writeDailyBrief(try JSONCoding.load(AnalystJobs.DailyBrief.self, from: job.payload))
            },
            JobDefinition(kind: AnalystJobs.weeklyReview, lease: 120, timeout: 600, retry: AnalystJobs.retry) { job in
                try await analyst.writeWeeklyReview(try JSONCoding.load(AnalystJobs.WeeklyReview.self, from: job.payload))
            },
            JobDefinition(kind: AnalystJobs.schedule, lease: 300, timeout: 3600, retry: AnalystJobs.retry) { _ in
                try await scheduler.pass()
            },
        ]
    }

    /// The scheduler's tick and the daily sweep (run hourly so nothing outlives its TTL by more than an hour):
    /// pending recommendations past 7 days expire; notes past their TTL are deleted. Both are safe on every replica.
    var services: [PeriodicTask] {
        let scheduler = self.scheduler
        let store = self.store
        let notes = self.notes
        let clock = self.clock
        let logger = self.logger
        return [
            PeriodicTask(name: "analyst_scheduler", interval: settings.schedulerInterval, clock: timer, logger: logger) {
                try await scheduler.tick()
            },
            PeriodicTask.purge(
                name: "recommendations_sweep", interval: .seconds(3600), clock: timer, logger: logger,
                message: "expired recommendations and analysis notes"
            ) {
                try await store.expireDue(now: clock.now()) + notes.purgeExpired()
            },
        ]
    }

    // MARK: Operations (the CLI, tests)

    /// Runs the expiry sweep now; answers the recommendations expired and notes removed.
    public func sweep() async throws -> (expired: Int, removed: Int) {
        (try await store.expireDue(now: clock.now()), try await notes.purgeExpired())
    }

    /// One scheduler pass now (what the queued tick runs); answers how many jobs were new.
    @discardableResult
    public func schedule(progress: @Sendable (String) -> Void = { _ in }) async throws -> Int {
        try await scheduler.pass(progress: progress)
    }

    /// Queues the analysis of the user's last `months` months; `progress` hears (workouts seen, jobs new).
    public func backfill(userId: String, months: Int, progress: @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> (
        workouts: Int, weeks: Int, queued: Int
    ) {
        let result = try await backfiller.run(userId: userId, months: months, progress: progress)
        return (result.workouts, result.weeks, result.queued)
    }

    public var eraser: RecommendationsUserDataEraser { RecommendationsUserDataEraser(store: store) }

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: ModuleName.recommendations, migrations: Self.migrations,
            endpoints: Endpoint.linking(RecommendationsEndpoints(module: self).all, RecommendationsEndpoints.links),
            eventHandlers: handlers, jobs: jobDefinitions, services: services, eraser: eraser)
    }
}

/// Erases the user's Recommendations rows (notes, judged sessions, recommendations, settings) in one transaction;
/// the user's queued jobs go with Platform's own eraser.
public struct RecommendationsUserDataEraser: UserDataEraser {
    public let module = ModuleName.recommendations
    let store: RecommendationStore

    public func eraseUserData(userId: String) async throws {
        try await store.erase(userId: userId)
    }
}
