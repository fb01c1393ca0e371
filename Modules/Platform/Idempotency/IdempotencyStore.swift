import Contracts
import Foundation
import SQLKit

/// Writes that run once per idempotency key: a repeat with the same request gets the first answer, byte for
/// byte, and changes nothing; the same key with a different request is `CONFLICT`. Keys belong to a user.
///
/// The answers are kept in `table`, a table of the module that uses the store (each module owns its tables),
/// created with the columns `tableStatements` lists, for `retentionPeriod` (`purger` removes older ones).
///
///     let idempotency = IdempotencyStore(table: "coach_idempotency", lockClass: 74_301, database: database, clock: clock)
///     let answer = try await idempotency.write(userId: userId, key: input.idempotencyKey, operation: "applyAction", request: input.request) { tx in
///         try await apply(input.request, sql: tx.sql)
///     }
///     return answer.encoded  // the HTTP envelope carries the stored bytes as they are
///
/// A write that must lock its own rows before the key is looked up (so that a retry racing its original waits for
/// it) runs `run(in:)` inside its transaction instead, with the key and fingerprint computed before it.
public struct IdempotencyStore: Sendable {
    /// The table the answers are kept in.
    public let table: String
    /// The first key of the PostgreSQL advisory lock of a key (`lockKey`): a number of this table's own, so
    /// that a module's write never waits for another module's write that happens to use the same key.
    public let lockClass: Int32
    let database: Database
    let clock: any WallClock
    let lockKeyStatement: FixedSQL
    let storedAnswer: FixedSQL
    let storeAnswer: FixedSQL
    let deleteExpired: FixedSQL

    /// `table`: a table created with `tableStatements` (lower-case letters, digits and `_`, prefixed with the
    /// module's name). `lockClass`: a number no other advisory lock of the server uses.
    public init(table: String, lockClass: Int32, database: Database, clock: any WallClock) {
        // cannot trap: table names are constants of the code
        precondition(Self.isPlainName(table), "An idempotency table is named with lower-case letters, digits and _: \(table)")
        self.table = table
        self.lockClass = lockClass
        self.database = database
        self.clock = clock
        lockKeyStatement = FixedSQL("SELECT pg_advisory_xact_lock(\(lockClass), hashtext(?::text || chr(10) || ?::text))")
        storedAnswer = FixedSQL("SELECT request_hash, response, response_format FROM \(table) WHERE user_id = ? AND idempotency_key = ?")
        storeAnswer = FixedSQL(
            """
            INSERT INTO \(table) (user_id, idempotency_key, operation, request_hash, response, response_format, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        deleteExpired = Self.deleteExpired(from: table)
    }

    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Runs `body` once per idempotency key: a repeat with the same request returns the first answer, byte for
    /// byte, and changes nothing; the same key with a different request is `CONFLICT`. Must run inside `tx`.
    /// `key` and `fingerprint` come from `checkKey` and `requestFingerprint`, computed before the
    /// transaction (they need no database). A nil `key` runs `body` with no idempotency.
    ///
    /// `prefetched`: the stored answer's columns (`request_hash`, `response`, `response_format`, NULL when there
    /// is none) already read along with something else, to spare the lookup.
    ///
    /// On PostgreSQL, requests of one user with the same key wait for each other, whatever their operation (a
    /// transaction advisory lock, `lockKey`, taken here unless the caller already holds it: `keyLocked`). Without
    /// it a retry racing its original would run the body too and fail on the key's row, or answer a version
    /// `CONFLICT` or `NOT_FOUND` caused by its own original, instead of the first result; and a key reused at the
    /// same moment for another write would fail on the key's row instead of being `CONFLICT` naming the key. The
    /// key is locked before any row, by every keyed write, so the two kinds of locks never wait in a cycle. SQLite's
    /// single writer already serializes all of this.
    public func run<R: Codable & Sendable>(
        in tx: Transaction, userId: String, key: String?, operation: String, fingerprint: String, prefetched: (any SQLRow)? = nil,
        keyLocked: Bool = false, _ body: () async throws -> R
    ) async throws -> IdempotentAnswer<R> {
        guard let key else { return try IdempotentAnswer(fresh: try await body()) }
        if !keyLocked { try await lockKey(in: tx, userId: userId, key: key) }
        let row: (any SQLRow)?
        if let prefetched { row = prefetched } else { row = try await tx.sql.first(storedAnswer(SQLValue(userId), SQLValue(key))) }
        if let row, let hash = try row.decode(column: "request_hash", as: String?.self) {
            guard hash == fingerprint else {
                throw ServiceError(
                    .conflict, "This idempotency key was already used for a different request.", details: ["idempotency_key": key])
            }
            let stored = try row.decode(column: "response", as: String.self)
            if try row.decode(column: "response_format", as: Int.self) == IdempotentAnswer<R>.apiFormat {
                return IdempotentAnswer(json: Array(stored.utf8))
            }
            // Kept by an earlier version as a storage document (dates as milliseconds).
            return try IdempotentAnswer(fresh: JSONCoding.load(R.self, from: stored))
        }
        let answer = try IdempotentAnswer(fresh: try await body())
        try await tx.sql.run(
            storeAnswer(
                SQLValue(userId), SQLValue(key), SQLValue(operation), SQLValue(fingerprint),
                SQLValue(String(decoding: answer.json, as: UTF8.self)),
                SQLValue(IdempotentAnswer<R>.apiFormat), SQLValue(clock.now().millisecondsSince1970)))
        return answer
    }

    /// A write in a transaction of its own, idempotent under `key` (checked here; nil: no idempotency):
    /// `body` runs only when the key has no stored answer yet. For the writes that lock their row in `body` or
    /// have none (creates, changes and deletes of documents).
    public func write<R: Codable & Sendable>(
        userId: String, key: String?, operation: String, request: some Encodable,
        _ body: @escaping @Sendable (Transaction) async throws -> R
    ) async throws -> IdempotentAnswer<R> {
        let key = try Self.checkKey(key)
        let fingerprint = try Self.requestFingerprint(operation: operation, request: request)
        let store = self
        return try await database.transaction { tx in
            try await store.run(in: tx, userId: userId, key: key, operation: operation, fingerprint: fingerprint) {
                try await body(tx)
            }
        }
    }

    /// Takes the transaction-scoped PostgreSQL advisory lock on one user's idempotency key (see `run`); nothing on
    /// SQLite. For a write that locks its key before its own rows and then calls `run` with `keyLocked`.
    public func lockKey(in tx: Transaction, userId: String, key: String) async throws {
        guard tx.engine == .postgres else { return }
        try await tx.sql.run(lockKeyStatement(SQLValue(userId), SQLValue(key)))
    }
}
