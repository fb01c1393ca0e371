import Contracts
import Foundation
import Platform
import SQLKit

/// Subscription's rows, read and written inside the caller's transaction (or on the pooled handle for reads).
struct SubscriptionStore: Sendable {
    let engine: SQLEngine

    /// ` FOR UPDATE` on PostgreSQL (row lock inside a transaction); SQLite already has the single writer.
    var forUpdate: SQLQueryString { engine == .postgres ? " FOR UPDATE" : "" }

    func state(userId: String, sql: any SQLDatabase, lock: Bool = false) async throws -> SubscriptionState? {
        let lockClause: SQLQueryString = lock ? forUpdate : ""
        guard let row = try await sql.raw("SELECT * FROM subscription_state WHERE user_id = \(bind: userId)\(lockClause)").first() else {
            return nil
        }
        return try Self.state(row)
    }

    /// The state row of a user, created (free, with the user's token) when missing. Locks it on PostgreSQL.
    func ensureState(userId: String, at date: Date, sql: any SQLDatabase) async throws -> (state: SubscriptionState, created: Bool) {
        if let existing = try await state(userId: userId, sql: sql, lock: true) { return (existing, false) }
        let initial = SubscriptionState.initial(userId: userId, at: date)
        let millis = date.millisecondsSince1970
        try await sql.raw(
            """
            INSERT INTO subscription_state (user_id, app_account_token, tier, status, created_at, updated_at)
            VALUES (\(bind: userId), \(bind: initial.appAccountToken), \(bind: initial.tier.rawValue), \(bind: initial.status.rawValue),
                    \(bind: millis), \(bind: millis))
            ON CONFLICT (user_id) DO NOTHING
            """
        ).run()
        guard let stored = try await state(userId: userId, sql: sql, lock: true) else {
            throw ServiceError(.internalError, "The subscription row vanished while it was created.")
        }
        return (stored, true)
    }

    func save(_ state: SubscriptionState, sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE subscription_state SET tier = \(bind: state.tier.rawValue), status = \(bind: state.status.rawValue),
                expires_at = \(bind: state.expiresAt?.millisecondsSince1970), auto_renew_enabled = \(bind: state.autoRenewEnabled.map { $0 ? 1 : 0 }),
                product_id = \(bind: state.productId), original_transaction_id = \(bind: state.originalTransactionId),
                override = \(bind: state.override), updated_at = \(bind: state.updatedAt.millisecondsSince1970)
            WHERE user_id = \(bind: state.userId)
            """
        ).run()
    }

    /// The user a notification is about: by its `appAccountToken` when it carries one (nil while that user has no
    /// row), else by original transaction id.
    func userId(appAccountToken: String?, originalTransactionId: String?, sql: any SQLDatabase) async throws -> String? {
        if let token = appAccountToken {
            // A token names its user, whoever the transaction was first applied to: a purchase made on the same
            // Apple ID by another account (a new one whose row is not there yet) keeps its original transaction
            // id, and must wait as an orphan for the user it names (`claimOrphans`) rather than go to the first.
            return try await sql.raw("SELECT user_id FROM subscription_state WHERE app_account_token = \(bind: token)")
                .first(decodingColumn: "user_id", as: String.self)
        }
        guard let originalTransactionId else { return nil }
        // Every applied transaction id is recorded here (a state's `original_transaction_id` always is).
        return try await sql.raw(
            "SELECT user_id FROM subscription_transactions WHERE original_transaction_id = \(bind: originalTransactionId)"
        ).first(decodingColumn: "user_id", as: String.self)
    }

    /// The last `signedDate` applied for an original transaction, locked on PostgreSQL.
    func lastSignedDate(originalTransactionId: String, sql: any SQLDatabase) async throws -> Int64? {
        try await sql.raw(
            "SELECT last_signed_date FROM subscription_transactions WHERE original_transaction_id = \(bind: originalTransactionId)\(forUpdate)"
        ).first(decodingColumn: "last_signed_date", as: Int64.self)
    }

    func recordApplied(originalTransactionId: String, userId: String, signedDate: Int64, sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO subscription_transactions (original_transaction_id, user_id, last_signed_date)
            VALUES (\(bind: originalTransactionId), \(bind: userId), \(bind: signedDate))
            ON CONFLICT (original_transaction_id) DO UPDATE SET user_id = excluded.user_id, last_signed_date = excluded.last_signed_date
            """
        ).run()
    }

    /// A new audit row. With a `notificationUUID` already recorded it inserts nothing and answers false
    /// (the duplicate check and the insert are one statement, so concurrent deliveries cannot both pass).
    func insertEvent(_ row: EventRow, sql: any SQLDatabase) async throws -> Bool {
        let inserted = try await sql.raw(
            """
            INSERT INTO subscription_events (id, user_id, source, notification_uuid, notification_type, subtype, original_transaction_id,
                app_account_token, signed_date, outcome, status_after, tier_after, document, received_at)
            VALUES (\(bind: row.id), \(bind: row.userId), \(bind: row.source), \(bind: row.notificationUUID), \(bind: row.notificationType),
                \(bind: row.subtype), \(bind: row.originalTransactionId), \(bind: row.appAccountToken), \(bind: row.signedDate),
                \(bind: row.outcome.rawValue), \(bind: row.statusAfter), \(bind: row.tierAfter), \(bind: row.document),
                \(bind: row.receivedAt.millisecondsSince1970))
            ON CONFLICT DO NOTHING
            RETURNING id
            """
        ).first()
        return inserted != nil
    }

    func updateEvent(id: String, userId: String?, outcome: SubscriptionEventOutcome, state: SubscriptionState?, sql: any SQLDatabase)
        async throws
    {
        try await sql.raw(
            """
            UPDATE subscription_events SET user_id = \(bind: userId), outcome = \(bind: outcome.rawValue),
                status_after = \(bind: state?.status.rawValue), tier_after = \(bind: state?.tier.rawValue)
            WHERE id = \(bind: id)
            """
        ).run()
    }

    /// Orphaned notifications that name this token or one of these original transactions, oldest first.
    func orphans(appAccountToken: String, originalTransactionIds: [String], sql: any SQLDatabase) async throws -> [(
        id: String, document: String
    )] {
        let transactionClause: SQLQueryString =
            originalTransactionIds.isEmpty ? "" : " OR original_transaction_id IN (\(binds: originalTransactionIds))"
        let rows = try await sql.raw(
            """
            SELECT id, document FROM subscription_events
            WHERE user_id IS NULL AND outcome = 'orphaned' AND (app_account_token = \(bind: appAccountToken)\(transactionClause))
            ORDER BY signed_date, id\(forUpdate)
            """
        ).all()
        return try rows.map { (try $0.decode(column: "id", as: String.self), try $0.decode(column: "document", as: String.self)) }
    }

    func originalTransactionIds(userId: String, sql: any SQLDatabase) async throws -> [String] {
        try await sql.raw("SELECT original_transaction_id FROM subscription_transactions WHERE user_id = \(bind: userId)")
            .all(decodingColumn: "original_transaction_id", as: String.self)
    }

    func events(userId: String, limit: Int, sql: any SQLDatabase) async throws -> [SubscriptionEvent] {
        try await sql.raw(
            """
            SELECT * FROM subscription_events WHERE user_id = \(bind: userId)
            ORDER BY received_at DESC, id DESC LIMIT \(unsafeRaw: String(max(1, min(limit, 1000))))
            """
        ).all().map { row in
            SubscriptionEvent(
                id: try row.decode(column: "id", as: String.self), source: try row.decode(column: "source", as: String.self),
                notificationType: try row.decode(column: "notification_type", as: String?.self),
                subtype: try row.decode(column: "subtype", as: String?.self),
                notificationUUID: try row.decode(column: "notification_uuid", as: String?.self),
                originalTransactionId: try row.decode(column: "original_transaction_id", as: String?.self),
                signedDate: try row.decode(column: "signed_date", as: Int64?.self).map(Date.init(millisecondsSince1970:)),
                outcome: SubscriptionEventOutcome(rawValue: try row.decode(column: "outcome", as: String.self)) ?? .recorded,
                statusAfter: try row.decode(column: "status_after", as: String?.self),
                tierAfter: try row.decode(column: "tier_after", as: String?.self),
                receivedAt: Date(millisecondsSince1970: try row.decode(column: "received_at", as: Int64.self)))
        }
    }

    static func state(_ row: any SQLRow) throws -> SubscriptionState {
        let status = SubscriptionStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .free
        return SubscriptionState(
            userId: try row.decode(column: "user_id", as: String.self),
            tier: SubscriptionTier(rawValue: try row.decode(column: "tier", as: String.self)) ?? status.tier,
            status: status,
            expiresAt: try row.decode(column: "expires_at", as: Int64?.self).map(Date.init(millisecondsSince1970:)),
            autoRenewEnabled: try row.decode(column: "auto_renew_enabled", as: Int64?.self).map { $0 != 0 },
            productId: try row.decode(column: "product_id", as: String?.self),
            originalTransactionId: try row.decode(column: "original_transaction_id", as: String?.self),
            override: try row.decode(column: "override", as: String?.self),
            appAccountToken: try row.decode(column: "app_account_token", as: String.self),
            updatedAt: Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self)))
    }
}

/// An audit row as written.
struct EventRow: Sendable {
    var id: String
    var userId: String?
    var source: String
    var notificationUUID: String?
    var notificationType: String?
    var subtype: String?
    var originalTransactionId: String?
    var appAccountToken: String?
    var signedDate: Int64?
    var outcome: SubscriptionEventOutcome
    var statusAfter: String?
    var tierAfter: String?
    var document: String
    var receivedAt: Date
}
