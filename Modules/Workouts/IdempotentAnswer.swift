import Foundation
import Platform

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
