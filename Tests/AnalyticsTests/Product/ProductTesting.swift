import Analytics
import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport

/// Product analytics on a fresh database of `engine`, with a clock the test moves.
enum ProductTesting {
    /// `accounts` says when each account was created (none known: events of the last 30 days are accepted).
    static func with(
        _ engine: SQLEngine, settings: AnalyticsSettings = AnalyticsSettings(), accounts: FakeAccountDirectory = FakeAccountDirectory(),
        _ body: @escaping @Sendable (Database, ProductAnalytics, FakeWallClock) async throws -> Void
    ) async throws {
        try await TestDatabases.with(engine, migrate: [("analytics", ProductAnalytics.migrations)]) { db in
            let clock = FakeWallClock()
            try await body(
                db, ProductAnalytics(database: db, clock: clock, ids: RandomIDGenerator(), accounts: accounts, settings: settings), clock)
        }
    }

    /// The names of the user's stored events, sorted.
    static func names(_ userId: String, in db: Database) async throws -> [String] {
        try await db.sql.raw("SELECT name FROM analytics_product_events WHERE user_id = \(bind: userId)")
            .all(decodingColumn: "name", as: String.self).sorted()
    }

    static func count(_ table: String, in db: Database) async throws -> Int {
        try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first(decodingColumn: "n", as: Int.self) ?? 0
    }
}
