import Contracts
import Foundation
import Platform
import SQLKit

/// Reads and writes `analytics_product_events` and `analytics_product_milestones`. Every write runs inside the
/// caller's transaction, so an event and the milestone it makes commit together or not at all.
enum ProductEventStore {
    static let insertEvent = FixedSQL(
        """
        INSERT INTO analytics_product_events (id, user_id, name, params, occurred_at, received_at, install_id, source)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING RETURNING id
        """)
    static let insertMilestone = FixedSQL(
        """
        INSERT INTO analytics_product_milestones (user_id, milestone, reached_at, event_id)
        VALUES (?, ?, ?, ?) ON CONFLICT (user_id, milestone) DO NOTHING RETURNING user_id
        """)

    /// Stores `event` unless an event with its id is stored already, and, when it is new and the first of its
    /// name to reach the user's milestone, the milestone and its `first_…` event. Returns true when `event` was new.
    ///
    /// Exactly once per user: the milestone row's key is (user, milestone) and the insert does nothing on a
    /// conflict. On PostgreSQL a second transaction inserting the same key waits for the first and then finds
    /// it; SQLite has one writer. A redelivered event finds its own id and stops before the milestone.
    @discardableResult
    static func insert(_ event: ProductEvent, in tx: Transaction) async throws -> Bool {
        guard try await insertRow(event, in: tx) else { return false }
        if let milestone = ProductEventTaxonomy.definition(named: event.name)?.milestone {
            let reached = try await tx.sql.first(
                insertMilestone(
                    SQLValue(event.userId), SQLValue(milestone), SQLValue(event.occurredAt.millisecondsSince1970), SQLValue(event.id)))
            if reached != nil {
                try await insertRow(
                    ProductEvent(
                        id: ProductEvent.milestoneId(userId: event.userId, milestone: milestone), userId: event.userId, name: milestone,
                        params: [:], occurredAt: event.occurredAt, receivedAt: event.receivedAt, installId: event.installId,
                        source: .server),
                    in: tx)
            }
        }
        return true
    }

    @discardableResult
    private static func insertRow(_ event: ProductEvent, in tx: Transaction) async throws -> Bool {
        let inserted = try await tx.sql.first(
            insertEvent(
                SQLValue(event.id), SQLValue(event.userId), SQLValue(event.name), SQLValue(try encode(event.params)),
                SQLValue(event.occurredAt.millisecondsSince1970), SQLValue(event.receivedAt.millisecondsSince1970),
                SQLValue(event.installId), SQLValue(event.source.rawValue)))
        return inserted != nil
    }

    /// The user's latest events, newest first (milestones included).
    static func recent(userId: String, limit: Int, sql: any SQLDatabase) async throws -> [ProductEvent] {
        try await sql.raw(
            """
            SELECT id, user_id, name, params, occurred_at, received_at, install_id, source FROM analytics_product_events
            WHERE user_id = \(bind: userId) ORDER BY occurred_at DESC, id DESC LIMIT \(bind: limit)
            """
        ).all().map(decode)
    }

    /// The user's milestones and when each was reached.
    static func milestones(userId: String, sql: any SQLDatabase) async throws -> [String: Date] {
        var reached: [String: Date] = [:]
        for row in try await sql.raw(
            "SELECT milestone, reached_at FROM analytics_product_milestones WHERE user_id = \(bind: userId)"
        ).all() {
            reached[try row.decode(column: "milestone", as: String.self)] = Date(
                millisecondsSince1970: try row.decode(column: "reached_at", as: Int64.self))
        }
        return reached
    }

    /// Removes every product event and milestone of the user.
    static func erase(userId: String, in tx: Transaction) async throws {
        for table in tables {
            try await tx.sql.raw("DELETE FROM \(ident: table) WHERE user_id = \(bind: userId)").run()
        }
    }

    /// Every table of product analytics that holds a user's rows (each has `user_id`).
    static let tables = ["analytics_product_events", "analytics_product_milestones"]

    static func encode(_ params: [String: ProductEventValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(params), as: UTF8.self)
    }

    static func decode(_ row: any SQLRow) throws -> ProductEvent {
        ProductEvent(
            id: try row.decode(column: "id", as: String.self), userId: try row.decode(column: "user_id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            params: try JSONDecoder().decode(
                [String: ProductEventValue].self, from: Data(try row.decode(column: "params", as: String.self).utf8)),
            occurredAt: Date(millisecondsSince1970: try row.decode(column: "occurred_at", as: Int64.self)),
            receivedAt: Date(millisecondsSince1970: try row.decode(column: "received_at", as: Int64.self)),
            installId: try row.decode(column: "install_id", as: String?.self),
            source: ProductEventSource(rawValue: try row.decode(column: "source", as: String.self)) ?? .client)
    }
}
