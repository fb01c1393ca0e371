import Contracts
import Foundation

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
