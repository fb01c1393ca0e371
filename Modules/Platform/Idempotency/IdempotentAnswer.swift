import Foundation

/// What an idempotent write answers: its JSON as first sent (stored with the key, so a repeat gets the same
/// bytes), and the value itself when this call produced it.
public struct IdempotentAnswer<R: Codable & Sendable>: Sendable {
    /// `response_format` of answers kept as the API JSON (1: storage documents, as Workouts kept them before).
    static var apiFormat: Int { 2 }

    /// The answer's JSON, as first sent.
    public let json: [UInt8]
    private let fresh: R?

    /// A value this call produced (encoded once, for the answer and the store).
    public init(fresh value: R) throws {
        json = try JSONCoding.bytes(value)
        fresh = value
    }

    /// An answer stored earlier.
    public init(json: [UInt8]) {
        self.json = json
        fresh = nil
    }

    /// The answer as a value (read back from its JSON for a repeat).
    public func value() throws -> R {
        if let fresh { return fresh }
        return try JSONCoding.makeDecoder().decode(R.self, from: Data(json))
    }

    /// The answer for the HTTP envelope, sent as it is.
    public var encoded: EncodedJSON { EncodedJSON(bytes: json) }
}
