import Contracts
import Crypto
import Foundation
import Platform
import SQLKit

/// What every Workouts service shares: storage, time, ids and the catalog.
struct WorkoutsContext: Sendable {
    let database: Database
    let clock: any WallClock
    let ids: any IDGenerator
    let catalog: SQLExerciseCatalog

    /// ` FOR UPDATE` on PostgreSQL (row lock inside a transaction); SQLite already has the single writer.
    var forUpdate: SQLQueryString { database.engine == .postgres ? " FOR UPDATE" : "" }

    /// Loads a user's document from `table`, or throws `NOT_FOUND` (also for another user's id).
    func document<D: Decodable>(
        _ type: D.Type, table: String, id: String, userId: String, sql: any SQLDatabase, lock: Bool = false, what: String
    ) async throws -> D {
        let lockClause: SQLQueryString = lock ? forUpdate : ""
        guard
            let text = try await sql.raw(
                "SELECT document FROM \(ident: table) WHERE id = \(bind: id) AND user_id = \(bind: userId)\(lockClause)"
            ).first(decodingColumn: "document", as: String.self)
        else { throw ServiceError(.notFound, "That \(what) does not exist.", details: ["id": id]) }
        return try JSONCoding.load(D.self, from: text)
    }

    /// Runs `body` once per idempotency key: a repeat with the same request returns the first response and
    /// changes nothing; the same key with a different request is `CONFLICT`. Must run inside `tx`.
    func idempotent<R: Codable & Sendable>(
        _ tx: Transaction, userId: String, key: String?, operation: String, request: some Encodable,
        _ body: () async throws -> R
    ) async throws -> R {
        guard let key else { return try await body() }
        guard !key.isEmpty, key.count <= 128 else {
            throw ServiceError.invalidArgument(field: "idempotency_key", reason: "must be 1 to 128 characters")
        }
        let hash = Self.requestHash(operation: operation, request: try JSONCoding.encodeToString(request))
        if let row = try await tx.sql.raw(
            "SELECT request_hash, response FROM workouts_idempotency WHERE user_id = \(bind: userId) AND idempotency_key = \(bind: key)"
        ).first() {
            guard try row.decode(column: "request_hash", as: String.self) == hash else {
                throw ServiceError(
                    .conflict, "This idempotency key was already used for a different request.", details: ["idempotency_key": key])
            }
            return try JSONCoding.load(R.self, from: try row.decode(column: "response", as: String.self))
        }
        let response = try await body()
        try await tx.sql.raw(
            """
            INSERT INTO workouts_idempotency (user_id, idempotency_key, operation, request_hash, response, created_at)
            VALUES (\(bind: userId), \(bind: key), \(bind: operation), \(bind: hash), \(bind: try JSONCoding.store(response)),
                    \(bind: clock.now().millisecondsSince1970))
            """
        ).run()
        return response
    }

    static func requestHash(operation: String, request: String) -> String {
        SHA256.hash(data: Data("\(operation)\n\(request)".utf8)).hexString
    }

    /// Every referenced exercise, or `INVALID_ARGUMENT` naming the first unknown one.
    func exercises(_ ids: [(field: String, id: String)]) async throws -> [String: Exercise] {
        let found = try await catalog.exercises(ids: ids.map(\.id))
        for reference in ids where found[reference.id] == nil {
            throw ServiceError.invalidArgument(
                field: reference.field, reason: "unknown exercise", message: "There is no exercise with id '\(reference.id)'.")
        }
        return found
    }
}

/// Shared validation of names and numbers.
enum WorkoutsValidation {
    static func name(_ value: String, field: String = "name") throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100 else {
            throw ServiceError.invalidArgument(field: field, reason: "must be 1 to 100 characters")
        }
        return trimmed
    }

    static func description(_ value: String?) throws -> String? {
        guard let value else { return nil }
        guard value.count <= 2000 else { throw ServiceError.invalidArgument(field: "description", reason: "longer than 2000 characters") }
        return value
    }

    static func reps(_ value: Int?, field: String) throws -> Int? {
        guard let value else { return nil }
        guard (0...1000).contains(value) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be from 0 to 1000", message: "Reps must be between 0 and 1000.")
        }
        return value
    }

    static func rir(_ value: Int?, field: String) throws -> Int? {
        guard let value else { return nil }
        guard (0...10).contains(value) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be from 0 to 10", message: "RIR must be between 0 and 10.")
        }
        return value
    }

    static func weight(_ value: Double?, field: String) throws -> Double? {
        guard let value else { return nil }
        guard value.isFinite, (0...1000).contains(value) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be from 0 to 1000 kg", message: "Weight must be between 0 and 1000 kg.")
        }
        return value
    }

    static func limit(_ value: Int?, default fallback: Int = 20) throws -> Int {
        guard let value else { return fallback }
        guard (1...100).contains(value) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
        return value
    }
}
