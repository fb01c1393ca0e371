import Contracts
import Foundation
import Platform
import SQLKit

/// The allowed changes of `updateUser`; anything else in the body is refused.
public struct ProfileChanges: Sendable, Equatable {
    public var name: String??
    public var weekStartsOnMonday: Bool?
    public var timeZone: String??
    public var weightFormat: String??
    public var heightFormat: String??

    public static let writableFields = ["name", "week_starts_on_monday", "time_zone", "weight_format", "height_format"]
    static let weightFormats = ["kilograms", "pounds"]
    static let heightFormats = ["centimeter", "feet"]
}

extension AuthService {
    /// `user` as sign-in answers show it.
    func userView(userId: String) async throws -> UserView {
        guard
            let row = try await database.sql.raw(
                """
                SELECT u.id, u.email, u.email_verified, u.original_provider, p.name
                FROM auth_users u LEFT JOIN auth_profiles p ON p.user_id = u.id
                WHERE u.id = \(bind: userId) AND u.status = 'active'
                """
            ).first()
        else { throw ServiceError(.notFound, "This account no longer exists.") }
        return UserView(
            id: userId, email: try row.decode(column: "email", as: String.self),
            name: try row.decode(column: "name", as: String?.self),
            providers: try await providers(userId: userId).map(\.providerId),
            originalProvider: try row.decode(column: "original_provider", as: String.self),
            emailVerified: try row.decode(column: "email_verified", as: Int.self) != 0)
    }

    func providers(userId: String) async throws -> [AccountView.LinkedProvider] {
        try await database.sql.raw(
            "SELECT provider_id, email, linked_at FROM auth_providers WHERE user_id = \(bind: userId) ORDER BY linked_at, provider_id"
        ).all().map { row in
            AccountView.LinkedProvider(
                providerId: try row.decode(column: "provider_id", as: String.self),
                email: try row.decode(column: "email", as: String?.self),
                linkedAt: Date(millisecondsSince1970: try row.decode(column: "linked_at", as: Int64.self)))
        }
    }

    public func account(userId: String) async throws -> AccountView {
        guard
            let row = try await database.sql.raw(
                """
                SELECT email, email_verified, original_provider, created_at, last_sign_in_at
                FROM auth_users WHERE id = \(bind: userId) AND status = 'active'
                """
            ).first()
        else { throw ServiceError(.notFound, "This account no longer exists.") }
        return AccountView(
            userId: userId, email: try row.decode(column: "email", as: String.self),
            emailVerified: try row.decode(column: "email_verified", as: Int.self) != 0,
            providers: try await providers(userId: userId),
            originalProvider: try row.decode(column: "original_provider", as: String.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            lastSignInAt: try row.decode(column: "last_sign_in_at", as: Int64?.self).map(Date.init(millisecondsSince1970:)))
    }

    public func profile(userId: String) async throws -> UserProfile {
        guard
            let row = try await database.sql.raw(
                """
                SELECT u.email, u.original_provider, p.name, p.week_starts_on_monday, p.time_zone, p.weight_format,
                       p.height_format, p.created_at, p.updated_at
                FROM auth_users u JOIN auth_profiles p ON p.user_id = u.id
                WHERE u.id = \(bind: userId) AND u.status = 'active'
                """
            ).first()
        else { throw ServiceError(.notFound, "This account has no profile.") }
        return UserProfile(
            id: userId, email: try row.decode(column: "email", as: String.self),
            name: try row.decode(column: "name", as: String?.self),
            provider: try row.decode(column: "original_provider", as: String.self),
            weekStartsOnMonday: try row.decode(column: "week_starts_on_monday", as: Int.self) != 0,
            timeZone: try row.decode(column: "time_zone", as: String?.self),
            weightFormat: try row.decode(column: "weight_format", as: String?.self),
            heightFormat: try row.decode(column: "height_format", as: String?.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(millisecondsSince1970: try row.decode(column: "updated_at", as: Int64.self)))
    }

    /// Applies the allowed profile changes and returns the profile.
    public func updateProfile(userId: String, changes: ProfileChanges) async throws -> UserProfile {
        var assignments: [SQLQueryString] = []
        if let name = changes.name { assignments.append("name = \(bind: try Validation.name(name))") }
        if let monday = changes.weekStartsOnMonday { assignments.append("week_starts_on_monday = \(bind: monday ? 1 : 0)") }
        if let zone = changes.timeZone { assignments.append("time_zone = \(bind: try Validation.timeZone(zone))") }
        if let weight = changes.weightFormat {
            assignments.append(
                "weight_format = \(bind: try Validation.oneOf(weight, ProfileChanges.weightFormats, field: "weight_format"))")
        }
        if let height = changes.heightFormat {
            assignments.append(
                "height_format = \(bind: try Validation.oneOf(height, ProfileChanges.heightFormats, field: "height_format"))")
        }
        if !assignments.isEmpty {
            let now = clock.now().millisecondsSince1970
            assignments.append("updated_at = \(bind: now)")
            let setClause = assignments.joined(separator: ", ")
            let found = try await database.transaction { tx in
                try await tx.sql.raw("UPDATE auth_profiles SET \(setClause) WHERE user_id = \(bind: userId) RETURNING user_id").all()
            }
            guard !found.isEmpty else { throw ServiceError(.notFound, "This account has no profile.") }
        }
        return try await profile(userId: userId)
    }

    /// Records (or refreshes) one of the user's devices. The account's email must be verified
    /// (`FAILED_PRECONDITION` otherwise): a device receives the account's notifications.
    public func registerDevice(userId: String, deviceId: String, platform: String, pushToken: String?, appVersion: String?) async throws {
        let deviceId = try Validation.token(deviceId, field: "device_id", maxLength: 128)
        guard let platform = try Validation.oneOf(platform.lowercased(), ["ios", "android", "web"], field: "platform") else { return }
        let pushToken = try pushToken.map { try Validation.token($0, field: "push_token", maxLength: 4096) }
        let appVersion = try appVersion.map { try Validation.token($0, field: "app_version", maxLength: 64) }
        let now = clock.now().millisecondsSince1970
        try await database.transaction { tx in
            try await Self.requireVerifiedEmail(userId: userId, sql: tx.sql)
            try await tx.sql.raw(
                """
                INSERT INTO auth_devices (user_id, device_id, platform, push_token, app_version, created_at, updated_at)
                VALUES (\(bind: userId), \(bind: deviceId), \(bind: platform), \(bind: pushToken), \(bind: appVersion), \(bind: now), \(bind: now))
                ON CONFLICT (user_id, device_id) DO UPDATE SET platform = excluded.platform, push_token = excluded.push_token,
                    app_version = excluded.app_version, updated_at = excluded.updated_at
                """
            ).run()
        }
    }
}
