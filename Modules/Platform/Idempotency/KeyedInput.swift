import Foundation

/// A write request: its fields and an optional `idempotency_key`, so that a client retrying a write whose
/// answer it lost gets the first answer (not a second template, a `CONFLICT` with its own patch's version, or
/// `NOT_FOUND` for what it deleted).
public struct KeyedInput<Request: Decodable & Sendable>: Decodable, Sendable {
    public var request: Request
    public var idempotencyKey: String?

    private enum Keys: String, CodingKey {
        case idempotencyKey = "idempotency_key"
    }

    public init(from decoder: any Decoder) throws {
        request = try Request(from: decoder)
        idempotencyKey = try decoder.container(keyedBy: Keys.self).decodeIfPresent(String.self, forKey: .idempotencyKey)
    }
}
