import Foundation

/// Tells the current time. Injected everywhere so tests control time.
public protocol WallClock: Sendable {
    /// The current instant. Never throws; successive calls never go backwards within one implementation.
    func now() -> Date
}

/// Makes unique, opaque identifiers.
public protocol IDGenerator: Sendable {
    /// A new identifier that was never returned before by this generator (URL-safe, at most 64 characters).
    func makeID() -> String
}

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// Random 128-bit identifiers from the system's secure generator, as 32 lower-case hex characters (the same
/// shape as a UUID without dashes). Built without Foundation string work: one is made on every request.
public struct RandomIDGenerator: IDGenerator {
    public init() {}
    public func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return String(unsafeUninitializedCapacity: 32) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for (offset, word) in [high, low].enumerated() {
                for nibble in 0..<16 {
                    let value = Int((word >> (60 - 4 * UInt64(nibble))) & 0xF)  // cannot trap: a nibble of the id's bits
                    buffer[offset * 16 + nibble] = digits.utf8Start[value]
                }
            }
            return 32
        }
    }
}
