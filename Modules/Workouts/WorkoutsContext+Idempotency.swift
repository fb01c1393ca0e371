import Contracts
import Crypto
import Foundation
import Platform
import SQLKit

extension WorkoutsContext {
    /// Runs `body` once per idempotency key: a repeat with the same request returns the first answer, byte for
    /// byte, and changes nothing; the same key with a different request is `CONFLICT`. Must run inside `tx`.
    /// `key` and `fingerprint` come from `IdempotencyKey.check` and `requestFingerprint`, computed before the
    /// transaction (they need no database).
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
    func idempotent<R: Codable & Sendable>(
        _ tx: Transaction, userId: String, key: String?, operation: String, fingerprint: String, prefetched: (any SQLRow)? = nil,
        keyLocked: Bool = false, _ body: () async throws -> R
    ) async throws -> IdempotentAnswer<R> {
        guard let key else { return try IdempotentAnswer(fresh: try await body()) }
        if !keyLocked, database.engine == .postgres { try await tx.sql.run(Self.lockKey(SQLValue(userId), SQLValue(key))) }
        let row: (any SQLRow)?
        if let prefetched { row = prefetched } else { row = try await tx.sql.first(Self.storedAnswer(SQLValue(userId), SQLValue(key))) }
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
            Self.storeAnswer(
                SQLValue(userId), SQLValue(key), SQLValue(operation), SQLValue(fingerprint), SQLValue(String(decoding: answer.json, as: UTF8.self)),
                SQLValue(IdempotentAnswer<R>.apiFormat), SQLValue(clock.now().millisecondsSince1970)))
        return answer
    }

    /// A write in a transaction of its own, idempotent under `key` (checked here; nil: no idempotency):
    /// `body` runs only when the key has no stored answer yet. For the writes that lock their row in `body` or
    /// have none (creates, the plan and history changes and deletes).
    func idempotentWrite<R: Codable & Sendable>(
        userId: String, key: String?, operation: String, request: some Encodable,
        _ body: @escaping @Sendable (Transaction) async throws -> R
    ) async throws -> IdempotentAnswer<R> {
        let key = try IdempotencyKey.check(key)
        let fingerprint = try Self.requestFingerprint(operation: operation, request: request)
        let context = self
        return try await database.transaction { tx in
            try await context.idempotent(tx, userId: userId, key: key, operation: operation, fingerprint: fingerprint) {
                try await body(tx)
            }
        }
    }

    /// A transaction-scoped PostgreSQL advisory lock on one user's idempotency key (see `idempotent`).
    static let lockKey = FixedSQL("SELECT pg_advisory_xact_lock(74102, hashtext(?::text || chr(10) || ?::text))")

    static let storedAnswer = FixedSQL(
        "SELECT request_hash, response, response_format FROM workouts_idempotency WHERE user_id = ? AND idempotency_key = ?")
    static let storeAnswer = FixedSQL(
        """
        INSERT INTO workouts_idempotency (user_id, idempotency_key, operation, request_hash, response, response_format, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """)

    /// The fingerprint a repeated request must match: SHA-256 of the operation and the request's canonical
    /// JSON (sorted keys, a negative zero written as 0), the same for the same request whatever the client's key
    /// order or spacing, and whether it wrote a weight of 0 as `0` or `-0` (both are stored as 0).
    static func requestFingerprint(operation: String, request: some Encodable) throws -> String {
        var hash = SHA256()
        hash.update(data: Array(operation.utf8))
        hash.update(data: [UInt8(ascii: "\n")])
        hash.update(data: withoutNegativeZeros(try JSONCoding.bytes(request)))
        return hash.finalize().hexString
    }

    /// `json` with the sign of every number that is zero (`-0`, `-0.0`, `-0e3`) dropped; strings are left as
    /// they are. `json` is the encoder's output: valid JSON, so a number outside a string starts with `-` or a digit.
    static func withoutNegativeZeros(_ json: [UInt8]) -> [UInt8] {
        guard json.contains(UInt8(ascii: "-")) else { return json }
        var result: [UInt8] = []
        result.reserveCapacity(json.count)
        var index = 0
        var inString = false
        while index < json.count {
            let byte = json[index]
            if inString {
                result.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < json.count {
                    result.append(json[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            guard byte == UInt8(ascii: "-") else {
                result.append(byte)
                index += 1
                continue
            }
            // A number: its mantissa (before any exponent) decides whether it is zero.
            var end = index + 1
            var zero = true
            var inExponent = false
            while end < json.count {
                let c = json[end]
                if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                    inExponent = true
                } else if c >= UInt8(ascii: "1") && c <= UInt8(ascii: "9") {
                    if !inExponent { zero = false }
                } else if c != UInt8(ascii: "0") && c != UInt8(ascii: ".") && c != UInt8(ascii: "+") && c != UInt8(ascii: "-") {
                    break
                }
                end += 1
            }
            result.append(contentsOf: json[(zero ? index + 1 : index)..<end])
            index = end
        }
        return result
    }
}
