import Foundation

/// How an account signs in: Firebase-style provider ids.
public enum SignInProvider: String, Sendable, Codable, CaseIterable {
    case password
    case google = "google.com"
    case apple = "apple.com"
}

/// What other modules may know about an account.
public struct AccountSummary: Sendable, Equatable {
    public var userId: String
    public var email: String
    public var emailVerified: Bool
    public var providers: [SignInProvider]
    /// `email`, `google.com` or `apple.com`: the seeds' Firestore `provider` value.
    public var originalProvider: String
    public var createdAt: Date
    /// The user's IANA time zone (`Europe/Berlin`), nil when never given: days and weeks are then UTC.
    public var timeZone: String?
    /// Whether the user's weeks start on Monday (the default) rather than Sunday.
    public var weekStartsOnMonday: Bool
    /// The name the user gave, if any.
    public var name: String?
    /// How the user reads weights, as Auth stores it: `kilograms` or `pounds` (nil when never chosen; kilograms
    /// then). `weightUnit` reads it.
    public var weightFormat: String?

    public init(
        userId: String, email: String, emailVerified: Bool, providers: [SignInProvider],
        originalProvider: String, createdAt: Date, timeZone: String? = nil, weekStartsOnMonday: Bool = true,
        name: String? = nil, weightFormat: String? = nil
    ) {
        self.userId = userId
        self.email = email
        self.emailVerified = emailVerified
        self.providers = providers
        self.originalProvider = originalProvider
        self.createdAt = createdAt
        self.timeZone = timeZone
        self.weekStartsOnMonday = weekStartsOnMonday
        self.name = name
        self.weightFormat = weightFormat
    }
}

/// Looks accounts up. Provided by Auth; used by the service lane (does this user exist?) and by modules that
/// need an account's email or providers.
public protocol AccountDirectory: Sendable {
    /// The active account with this id, or nil when there is none (never created, deleted, or being deleted).
    /// Throws only on storage failure.
    func account(userId: String) async throws -> AccountSummary?
}
