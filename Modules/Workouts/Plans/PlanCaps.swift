import Contracts
import Foundation
import Platform
import SQLKit

/// How many templates and routines one account may keep, so that no list answer (and no coach context) can grow
/// without bound, and the pages the plan lists answer in.
enum PlanCaps {
    static let templates = 500
    static let routines = 100

    /// The first key of the PostgreSQL advisory lock a user's plan creations take (no other lock uses it).
    static let lockClass = 7_428_401

    /// Throws `FAILED_PRECONDITION` (details `limit`) when the user keeps `limit` rows in `table` already. On
    /// PostgreSQL it takes the user's plan lock for the rest of the transaction first, so two creations at once
    /// cannot both pass at the limit (SQLite's single writer serialises them anyway).
    static func requireRoom(
        in table: String, what: String, limit: Int, userId: String, engine: SQLEngine, sql: any SQLDatabase
    ) async throws {
        if engine == .postgres {
            try await sql.raw("SELECT pg_advisory_xact_lock(\(literal: lockClass), hashtext(\(bind: userId)))").run()
        }
        let count =
            try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
        guard count < limit else {
            throw ServiceError(
                .failedPrecondition, "You have \(limit) \(what)s, the most one account keeps. Delete one to make another.",
                details: ["limit": "\(limit)"])
        }
    }

    /// A page of rows ordered by (created_at, id): `limit` rows after `cursor` (the last page's `nextCursor`), and the
    /// cursor of the next page when more follow.
    static func page(
        of table: String, userId: String, limit: Int, maximum: Int, cursor: String?, sql: any SQLDatabase
    ) async throws -> (documents: [String], nextCursor: String?) {
        guard (1...maximum).contains(limit) else {
            throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to \(maximum)")
        }
        let after: SQLQueryString =
            try KeysetCursor.parse(cursor).map {
                "AND (created_at > \(bind: $0.milliseconds) OR (created_at = \(bind: $0.milliseconds) AND id > \(bind: $0.id)))"
            } ?? ""
        let rows = try await sql.raw(
            """
            SELECT id, created_at, document FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId) \(after)
            ORDER BY created_at, id LIMIT \(bind: limit + 1)
            """
        ).all()
        let documents = try rows.prefix(limit).map { try $0.decode(column: "document", as: String.self) }
        guard rows.count > limit, let last = rows.prefix(limit).last else { return (documents, nil) }
        let next = KeysetCursor(
            milliseconds: try last.decode(column: "created_at", as: Int64.self), id: try last.decode(column: "id", as: String.self))
        return (documents, next.encoded())
    }
}
