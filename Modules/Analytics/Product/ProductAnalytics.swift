import Contracts
import Foundation
import Platform

/// Product analytics: the typed event taxonomy, `trackEvents`, server-side events from other modules' domain
/// events, milestones (once per user) and the activation funnel. Plugged into `AnalyticsModule` with its
/// migrations, endpoints, event handlers, sink contract and eraser.
public struct ProductAnalytics: Sendable {
    let database: Database
    let ingestion: ProductEventIngestion
    let handlers: ProductEventHandlers
    /// What other modules record server-side product events through (`Contract.productEvents`).
    public let sink: SQLProductEventSink
    public let funnel: ProductFunnel
    let retention: ProductEventRetention

    /// `accounts` says when each account was created (no event is accepted from long before); `settings` the
    /// events' retention and how many a user may send per hour.
    public init(
        database: Database, clock: any WallClock, ids: any IDGenerator, accounts: any AccountDirectory,
        settings: AnalyticsSettings = AnalyticsSettings()
    ) {
        self.database = database
        self.ingestion = ProductEventIngestion(
            database: database, clock: clock, ids: ids, accounts: accounts, eventsPerHour: settings.trackEventsPerHour)
        self.handlers = ProductEventHandlers(database: database, clock: clock)
        self.sink = SQLProductEventSink(database: database, clock: clock)
        self.funnel = ProductFunnel(database: database)
        self.retention = ProductEventRetention(
            database: database, clock: clock, period: TimeInterval(settings.productEventRetentionDays) * 86_400)
    }

    /// Versions 101 and up of the module `analytics`.
    public static let migrations = ProductMigrations.all

    public var eventHandlers: [EventHandler] { handlers.all }

    /// Removes the events past their retention (what the module's purger runs every ten minutes); returns how many.
    @discardableResult
    public func purgeExpiredEvents() async throws -> Int { try await retention.purgeExpired() }

    /// Every table of product analytics that holds a user's rows.
    public static var tables: [String] { ProductEventStore.tables }

    /// The user's latest events, newest first, milestones included (`limit` from 1 to 1000).
    public func recentEvents(userId: String, limit: Int) async throws -> [ProductEvent] {
        guard (1...1000).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 1000") }
        return try await database.readTransaction { sql in try await ProductEventStore.recent(userId: userId, limit: limit, sql: sql) }
    }

    /// The milestones the user reached and when.
    public func milestones(userId: String) async throws -> [String: Date] {
        try await database.readTransaction { sql in try await ProductEventStore.milestones(userId: userId, sql: sql) }
    }

    /// Removes the user's product events and milestones in `tx` (the analytics eraser's transaction).
    public func eraseUserData(userId: String, in tx: Transaction) async throws {
        try await ProductEventStore.erase(userId: userId, in: tx)
    }
}
