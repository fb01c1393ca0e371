import Contracts
import Foundation
import Platform
import SQLKit

/// Auth's `AccountDirectory` over its tables.
public struct SQLAccountDirectory: AccountDirectory {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func account(userId: String) async throws -> AccountSummary? {
        guard
            let row = try await database.sql.raw(
                """
                SELECT u.email, u.email_verified, u.original_provider, u.created_at, p.time_zone, p.week_starts_on_monday,
                    p.name, p.weight_format
                FROM auth_users u LEFT JOIN auth_profiles p ON p.user_id = u.id
                WHERE u.id = \(bind: userId) AND u.status = 'active'
                """
            ).first()
        else { return nil }
        let providers = try await database.sql.raw(
            "SELECT provider_id FROM auth_providers WHERE user_id = \(bind: userId) ORDER BY linked_at, provider_id"
        ).all(decodingColumn: "provider_id", as: String.self).compactMap(SignInProvider.init(rawValue:))
        return AccountSummary(
            userId: userId, email: try row.decode(column: "email", as: String.self),
            emailVerified: try row.decode(column: "email_verified", as: Int.self) != 0, providers: providers,
            originalProvider: try row.decode(column: "original_provider", as: String.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            timeZone: try row.decode(column: "time_zone", as: String?.self),
            weekStartsOnMonday: try row.decode(column: "week_starts_on_monday", as: Int?.self) != 0,
            name: try row.decode(column: "name", as: String?.self), weightFormat: try row.decode(column: "weight_format", as: String?.self))
    }
}
