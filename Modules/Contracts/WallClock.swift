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

/// Random UUID-based identifiers (lower-case, no dashes: 32 URL-safe characters).
public struct RandomIDGenerator: IDGenerator {
    public init() {}
    public func makeID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
