import Contracts
import Foundation
import Platform
import SQLKit

/// Removes every Auth row of a user: devices, refresh tokens, sessions, linked providers, profile, queued and
/// sent mail, one-time codes, the Apple token, and the account. The deletion ticket is the deletion's own: it
/// goes at the end of its second pass (`AuthService.runDeletion`).
/// Account deletion runs it last, after every other module's eraser.
public struct AuthUserDataEraser: UserDataEraser {
    public let module = ModuleName.auth
    let database: Database
    let statusCache: SessionStatusCache

    init(database: Database, statusCache: SessionStatusCache) {
        self.database = database
        self.statusCache = statusCache
    }

    public func eraseUserData(userId: String) async throws {
        statusCache.revoke(userId: userId)
        let engine = database.engine
        try await database.transaction { tx in
            // The account's row first, as everything that changes its codes or sessions takes it.
            try await AuthService.lockAccount(userId, engine: engine, in: tx)
            for table in [
                "auth_devices", "auth_refresh_tokens", "auth_sessions", "auth_providers", "auth_profiles", "auth_mail_outbox", "auth_codes",
                "auth_apple_tokens",
            ] {
                try await tx.sql.raw("DELETE FROM \(ident: table) WHERE user_id = \(bind: userId)").run()
            }
            try await tx.sql.raw("DELETE FROM auth_users WHERE id = \(bind: userId)").run()
        }
    }
}
