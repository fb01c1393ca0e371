import Contracts
import Foundation
import Platform
import SQLKit

/// What every Workouts service shares: storage, time, ids, the catalog and the idempotency records.
struct WorkoutsContext: Sendable {
    let database: Database
    let clock: any WallClock
    let ids: any IDGenerator
    let catalog: SQLExerciseCatalog
    let idempotency: IdempotencyStore

    /// ` FOR UPDATE` on PostgreSQL (row lock inside a transaction); SQLite already has the single writer.
    var forUpdate: SQLQueryString { database.engine == .postgres ? " FOR UPDATE" : "" }

    /// Loads a user's document from `table`, or throws `NOT_FOUND` (also for another user's id).
    func document<D: Decodable>(
        _ type: D.Type, table: String, id: String, userId: String, sql: any SQLDatabase, lock: Bool = false, what: String
    ) async throws -> D {
        let lockClause: SQLQueryString = lock ? forUpdate : ""
        guard
            WorkoutsValidation.couldBeStored(id),
            let text = try await sql.raw(
                "SELECT document FROM \(ident: table) WHERE id = \(bind: id) AND user_id = \(bind: userId)\(lockClause)"
            ).first(decodingColumn: "document", as: String.self)
        else { throw ServiceError(.notFound, "That \(what) does not exist.", details: ["\(what)_id": id]) }
        return try JSONCoding.load(D.self, from: text)
    }
}
