import Contracts
import Foundation

/// `tokens` in every sign-in answer.
public struct TokenPair: Codable, Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresIn: Int
    public var tokenType: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
    }
}

/// `user` in sign-in answers.
public struct UserView: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    public var name: String?
    public var providers: [String]
    public var originalProvider: String
    public var emailVerified: Bool

    enum CodingKeys: String, CodingKey {
        case id, email, name, providers
        case originalProvider = "original_provider"
        case emailVerified = "email_verified"
    }
}

/// `{user, tokens}`.
public struct SignInResult: Codable, Sendable, Equatable {
    public var user: UserView
    public var tokens: TokenPair
}

/// The profile `getUser` / `updateUser` answer (the seeds' `users/{uid}` document).
public struct UserProfile: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    public var name: String?
    /// The seeds' Firestore `provider`: `email`, `google.com` or `apple.com`. Never writable.
    public var provider: String
    public var weekStartsOnMonday: Bool
    public var timeZone: String?
    public var weightFormat: String?
    public var heightFormat: String?
    public var createdAt: Date
    public var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, email, name, provider
        case weekStartsOnMonday = "week_starts_on_monday"
        case timeZone = "time_zone"
        case weightFormat = "weight_format"
        case heightFormat = "height_format"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// `getAccount`'s answer.
public struct AccountView: Codable, Sendable, Equatable {
    public struct LinkedProvider: Codable, Sendable, Equatable {
        public var providerId: String
        public var email: String?
        public var linkedAt: Date

        enum CodingKeys: String, CodingKey {
            case providerId = "provider_id"
            case email
            case linkedAt = "linked_at"
        }
    }

    public var userId: String
    public var email: String
    public var emailVerified: Bool
    public var providers: [LinkedProvider]
    public var originalProvider: String
    public var createdAt: Date
    public var lastSignInAt: Date?

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case email
        case emailVerified = "email_verified"
        case providers
        case originalProvider = "original_provider"
        case createdAt = "created_at"
        case lastSignInAt = "last_sign_in_at"
    }
}

/// An empty `data` object.
public struct Empty: Codable, Sendable, Equatable {
    public init() {}
}
