import Contracts
import Foundation
import Platform

/// Analytics: training analytics kept from the training log (set facts, weekly exercise and muscle series,
/// weekly stats) and the queries the app, the coach and the analyst read them by; product analytics (`Product/`):
/// `trackEvents`, server-side events from domain events, milestones, the funnel, and the `ProductEventSink`
/// other modules record through.
public struct AnalyticsModule: Sendable {
    let database: Database
    let updater: TrainingAnalyticsUpdater
    let queries: TrainingQueries
    public let product: ProductAnalytics

    public init(
        database: Database, accounts: any AccountDirectory, log: any TrainingLog, catalog: any ExerciseCatalog, clock: any WallClock,
        ids: any IDGenerator = RandomIDGenerator(), settings: AnalyticsSettings = AnalyticsSettings()
    ) {
        self.database = database
        self.updater = TrainingAnalyticsUpdater(database: database, accounts: accounts, log: log, catalog: catalog)
        self.queries = TrainingQueries(database: database, accounts: accounts, clock: clock)
        self.product = ProductAnalytics(database: database, clock: clock, ids: ids, accounts: accounts, settings: settings)
    }

    public static var migrations: [Migration] { AnalyticsMigrations.training + ProductAnalytics.migrations }

    /// The training analytics the coach and the analyst read.
    public var trainingAnalytics: any TrainingAnalytics { queries }

    /// Recomputes one user's training analytics from their whole history; `progress` is told the workouts read.
    public func rebuild(userId: String, progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        try await updater.rebuild(userId: userId, progress: progress)
    }

    /// Rebuilds every user with a history, in id order after `after` (to resume); `progress` hears each user done.
    /// Answers how many users were rebuilt.
    @discardableResult
    public func rebuildAll(after: String? = nil, progress: @escaping @Sendable (String) -> Void = { _ in }) async throws -> Int {
        var last = after
        var count = 0
        while true {
            let users = try await updater.log.usersWithHistory(after: last, limit: 500)
            for user in users {
                try await updater.rebuild(userId: user)
                count += 1
                progress(user)
            }
            guard let next = users.last, users.count == 500 else { return count }
            last = next
        }
    }

    /// Users with a history (for a progress total).
    public func usersWithHistory() async throws -> Int {
        var last: String?
        var count = 0
        while true {
            let users = try await updater.log.usersWithHistory(after: last, limit: 1000)
            count += users.count
            guard let next = users.last, users.count == 1000 else { return count }
            last = next
        }
    }

    /// Brings one workout's analytics up to date with the training log (what the event handlers do).
    public func refresh(userId: String, workoutId: String) async throws {
        try await updater.refresh(userId: userId, workoutId: workoutId)
    }

    /// Each change to the history refreshes the workout it names: completed, edited and deleted alike, since the
    /// refresh reads what the log holds now.
    var trainingHandlers: [EventHandler] {
        let updater = self.updater
        return [
            .on(WorkoutCompleted.self, name: "analytics.workout_completed") { event, _ in
                try await updater.refresh(userId: event.userId, workoutId: event.workoutId)
            },
            .on(WorkoutEdited.self, name: "analytics.workout_edited") { event, _ in
                try await updater.refresh(userId: event.userId, workoutId: event.workoutId)
            },
            .on(WorkoutDeleted.self, name: "analytics.workout_deleted") { event, _ in
                try await updater.refresh(userId: event.userId, workoutId: event.workoutId)
            },
        ]
    }

    public var eraser: AnalyticsUserDataEraser { AnalyticsUserDataEraser(database: database, users: updater.users, product: product) }

    public var plugin: ModulePlugin {
        ModulePlugin(
            name: ModuleName.analytics, migrations: Self.migrations,
            endpoints: AnalyticsEndpoints(queries: queries).all + product.endpoints(),
            eventHandlers: trainingHandlers + product.eventHandlers, services: [product.retention.purger], eraser: eraser)
    }
}

/// Erases every Analytics row of the user in one transaction: training facts and series, product events and
/// milestones. It waits for an update of the user running in this process, and on PostgreSQL takes the user's
/// analytics lock, so an update that read the history before the deletion cannot write its rows back after it.
public struct AnalyticsUserDataEraser: UserDataEraser {
    public let module = ModuleName.analytics
    let database: Database
    let users: KeyedExclusion
    let product: ProductAnalytics

    public func eraseUserData(userId: String) async throws {
        let product = self.product
        try await users.run(userId) {
            try await database.transaction { tx in
                try await TrainingStore.lockUser(userId, tx: tx)
                try await TrainingStore.removeUser(userId, sql: tx.sql)
                try await product.eraseUserData(userId: userId, in: tx)
            }
        }
    }
}
