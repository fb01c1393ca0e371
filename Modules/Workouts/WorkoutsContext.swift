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
            WorkoutsValidation.couldBeStored(id),
            let text = try await sql.raw(
                "SELECT document FROM \(ident: table) WHERE id = \(bind: id) AND user_id = \(bind: userId)\(lockClause)"
            ).first(decodingColumn: "document", as: String.self)
        else { throw ServiceError(.notFound, "That \(what) does not exist.", details: ["\(what)_id": id]) }
        return try JSONCoding.load(D.self, from: text)
    }

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

    /// Every referenced exercise, or `INVALID_ARGUMENT` naming the first unknown one.
    func exercises(_ ids: [(field: String, id: String)]) async throws -> [String: Exercise] {
        let found = try await catalog.exercises(ids: ids.map(\.id))
        for reference in ids where found[reference.id] == nil {
            throw Self.unknownExercise(field: reference.field, id: reference.id)
        }
        return found
    }

    static func unknownExercise(field: String, id: String) -> ServiceError {
        ServiceError.invalidArgument(field: field, reason: Self.unknownExerciseReason, message: "There is no exercise with id '\(id)'.")
    }

    static let unknownExerciseReason = "unknown exercise"

    /// Runs `lookup` (which checks the catalog for the exercises a change names, before the transaction), keeping
    /// an unknown exercise back instead of throwing it: the write reports it once the document it changes is found,
    /// so another user's document is `NOT_FOUND` whatever the body names. Any other refusal is thrown at once.
    static func deferringUnknownExercise<T>(_ lookup: () async throws -> T) async throws -> Result<T, ServiceError> {
        do {
            return .success(try await lookup())
        } catch let error as ServiceError where error.code == .invalidArgument && error.details["reason"] == unknownExerciseReason {
            return .failure(error)
        }
    }
}

/// What an idempotent write answers: its JSON as first sent (stored with the key, so a repeat gets the same
/// bytes), and the value itself when this call produced it.
struct IdempotentAnswer<R: Codable & Sendable>: Sendable {
    /// `workouts_idempotency.response_format` of answers kept as the API JSON (1: storage documents, before).
    static var apiFormat: Int { 2 }

    let json: [UInt8]
    private let fresh: R?

    init(fresh value: R) throws {
        json = try JSONCoding.bytes(value)
        fresh = value
    }

    init(json: [UInt8]) {
        self.json = json
        fresh = nil
    }

    /// The answer as a value (read back from its JSON for a repeat).
    func value() throws -> R {
        if let fresh { return fresh }
        return try JSONCoding.makeDecoder().decode(R.self, from: Data(json))
    }

    /// The answer for the HTTP envelope, sent as it is.
    var encoded: EncodedJSON { EncodedJSON(bytes: json) }
}

/// A write request: its fields and an optional `idempotency_key`, so that a client retrying a write whose
/// answer it lost gets the first answer (not a second template, a `CONFLICT` with its own patch's version, or
/// `NOT_FOUND` for what it deleted).
struct KeyedInput<Request: Decodable & Sendable>: Decodable, Sendable {
    var request: Request
    var idempotencyKey: String?

    private enum Keys: String, CodingKey {
        case idempotencyKey = "idempotency_key"
    }

    init(from decoder: any Decoder) throws {
        request = try Request(from: decoder)
        idempotencyKey = try decoder.container(keyedBy: Keys.self).decodeIfPresent(String.self, forKey: .idempotencyKey)
    }
}

/// Idempotency keys as clients send them.
enum IdempotencyKey {
    /// The key, or `INVALID_ARGUMENT` when it is empty or longer than 128 characters. Characters are counted
    /// as code points (as JSON Schema's `maxLength` counts them), not as what a reader sees as one: a letter may
    /// carry any number of combining marks, and a key stands in an index that PostgreSQL bounds in bytes.
    static func check(_ key: String?) throws -> String? {
        guard let key else { return nil }
        guard !key.isEmpty, key.unicodeScalars.count <= 128 else {
            throw ServiceError.invalidArgument(field: "idempotency_key", reason: "must be 1 to 128 characters")
        }
        try WorkoutsValidation.refuseNUL(key, field: "idempotency_key")
        return key
    }
}

/// Shared validation of names and numbers.
enum WorkoutsValidation {
    /// The most exercises a template or a workout holds.
    static let maxExercises = 50

    /// Throws unless a workout of `count` exercises can take one more.
    static func roomForAnotherExercise(_ count: Int, field: String, reason: String = "at most 50 exercises") throws {
        guard count < maxExercises else { throw ServiceError.invalidArgument(field: field, reason: reason) }
    }

    /// False for text no write could have stored (it holds NUL): the contracts pass ids from the coach's tools
    /// unchecked, and PostgreSQL fails on NUL even in a comparison, so such an id is answered as not found.
    static func couldBeStored(_ text: String) -> Bool { !text.utf8.contains(0) }

    /// Text with the NUL character is refused here too, not only at the HTTP edge: the contracts (the coach's
    /// tools) reach these checks without it, and PostgreSQL cannot store NUL in a text column (a template name
    /// goes into the active workout's `name` column when a workout starts from it).
    static func refuseNUL(_ value: String, field: String) throws {
        guard couldBeStored(value) else { throw ServiceError.invalidArgument(field: field, reason: "must not contain the NUL character") }
    }

    /// Lengths are counted in Unicode code points, as the OpenAPI document's `maxLength` counts them (a client
    /// checking a name against the schema is never refused here): "👍🏽" is two.
    static func name(_ value: String, field: String = "name") throws -> String {
        try refuseNUL(value, field: field)
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 100 else {
            throw ServiceError.invalidArgument(field: field, reason: "must be 1 to 100 characters")
        }
        return trimmed
    }

    /// A description as stored: a blank one is none (null, like every empty optional field), so a patch sending
    /// `""` removes the description (a patch applies it whenever the field was sent).
    static func description(_ value: String?) throws -> String? {
        guard let value else { return nil }
        try refuseNUL(value, field: "description")
        guard value.unicodeScalars.count <= 2000 else { throw ServiceError.invalidArgument(field: "description", reason: "longer than 2000 characters") }
        return isBlank(value) ? nil : value
    }

    /// Whether a description is blank (empty or whitespace only), and so stored as none.
    static func isBlank(_ description: String) -> Bool { description.allSatisfy(\.isWhitespace) }

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
        return try weight(value, field: field) as Double
    }

    /// A weight from 0 to 1000 kg. Negative zero is zero: it passes the range check, but would be answered as `-0`
    /// and stored differently by each engine (SQLite keeps a whole REAL as an integer, dropping the sign).
    static func weight(_ value: Double, field: String) throws -> Double {
        guard value.isFinite, (0...1000).contains(value) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be from 0 to 1000 kg", message: "Weight must be between 0 and 1000 kg.")
        }
        return value == 0 ? 0 : value
    }

    static func limit(_ value: Int?, default fallback: Int = 20) throws -> Int {
        guard let value else { return fallback }
        guard (1...100).contains(value) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
        return value
    }
}
