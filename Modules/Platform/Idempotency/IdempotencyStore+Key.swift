import Contracts
import Foundation

extension IdempotencyStore {
    /// An idempotency key as a client sent it: the key, or `INVALID_ARGUMENT` when it is empty or longer than 128
    /// characters. Characters are counted as code points (as JSON Schema's `maxLength` counts them), not as what a
    /// reader sees as one: a letter may carry any number of combining marks, and a key stands in an index that
    /// PostgreSQL bounds in bytes. A key holding NUL is refused too: PostgreSQL cannot store it in a text column.
    public static func checkKey(_ key: String?) throws -> String? {
        guard let key else { return nil }
        guard !key.isEmpty, key.unicodeScalars.count <= 128 else {
            throw ServiceError.invalidArgument(field: "idempotency_key", reason: "must be 1 to 128 characters")
        }
        guard !key.utf8.contains(0) else {
            throw ServiceError.invalidArgument(field: "idempotency_key", reason: "must not contain the NUL character")
        }
        return key
    }
}
