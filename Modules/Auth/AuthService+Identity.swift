import Contracts
import Foundation
import Platform
import SQLKit

/// `signInWithIdp`'s answer: an existing account signed in, or a new one waiting for confirmation.
public struct IdentitySignInResult: Codable, Sendable, Equatable {
    public struct Pending: Codable, Sendable, Equatable {
        public var provider: String
        public var email: String
        public var name: String?
    }

    public var result: String
    public var user: UserView
    public var tokens: TokenPair
    public var pending: Pending?
}

/// `{providers}` after linking, unlinking or setting a password.
public struct ProvidersResult: Codable, Sendable, Equatable {
    public var providers: [String]
}

/// `{tokens}`.
public struct TokensResult: Codable, Sendable, Equatable {
    public var tokens: TokenPair
}

extension AuthService {
    /// Re-authentication attempts per account (wrong passwords and bad tokens alike).
    static let reauthenticatePerAccount = RateLimit(name: "auth.reauthenticate.account", limit: 10, window: 15 * 60)
    /// Re-authentication attempts per client address.
    static let reauthenticatePerAddress = RateLimit(name: "auth.reauthenticate.address", limit: 100, window: 15 * 60)

    func verifiedIdentity(_ provider: IdentityProvider, idToken: String, rawNonce: String?) async throws -> VerifiedIdentity {
        guard let identity else {
            throw ServiceError(.failedPrecondition, "Sign in with \(provider.displayName) is not available on this server.")
        }
        return try await identity.verify(provider, idToken: idToken, rawNonce: rawNonce)
    }

    /// Signs in with a Google or Apple ID token. A known identity signs in (`existing_user`); an unknown one
    /// becomes a pending account (`new_user`) that must be confirmed; an unknown identity whose email belongs
    /// to another account is refused with `ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL`, and nothing is created.
    public func signInWithIdentity(
        provider rawProvider: String, idToken: String, rawNonce: String?, name rawName: String?, timeZone rawTimeZone: String?,
        authorizationCode: String? = nil, clientAddress: String? = nil
    ) async throws -> IdentitySignInResult {
        try Validation.identityRequest(idToken: idToken, rawNonce: rawNonce, authorizationCode: authorizationCode)
        let provider = try IdentityProvider.parse(rawProvider)
        let name = try Validation.name(rawName)
        let timeZone = try Validation.timeZone(rawTimeZone)
        if let limiter, let clientAddress { try await limiter.hit(Self.signInPerAddress, key: clientAddress) }
        let verified = try await verifiedIdentity(provider, idToken: idToken, rawNonce: rawNonce)
        let now = clock.now()
        let newUserId = ids.makeID()
        let sessions = self.sessions

        enum Outcome: Sendable {
            case existing(userId: String, sessionId: String, refreshToken: String)
            case pending(userId: String, email: String, name: String?, sessionId: String, refreshToken: String)
        }
        let outcome = try await database.transaction { tx -> Outcome in
            /// Signs in to the account this identity is linked to; nil when it is linked to none.
            func signInLinked() async throws -> Outcome? {
                guard
                    let row = try await tx.sql.raw(
                        """
                        SELECT u.id, u.status, u.email, u.pending_name FROM auth_providers p JOIN auth_users u ON u.id = p.user_id
                        WHERE p.provider_id = \(bind: provider.rawValue) AND p.provider_uid = \(bind: verified.subject)
                        """
                    ).first()
                else { return nil }
                let userId = try row.decode(column: "id", as: String.self)
                switch AccountStatus(rawValue: try row.decode(column: "status", as: String.self)) {
                case .active:
                    try await tx.sql.raw(
                        "UPDATE auth_users SET last_sign_in_at = \(bind: now.millisecondsSince1970) WHERE id = \(bind: userId)"
                    ).run()
                    if let timeZone {
                        try await tx.sql.raw(
                            """
                            UPDATE auth_profiles SET time_zone = \(bind: timeZone), updated_at = \(bind: now.millisecondsSince1970)
                            WHERE user_id = \(bind: userId) AND time_zone IS NULL
                            """
                        ).run()
                    }
                    let (sessionId, refreshToken) = try await sessions.open(userId: userId, authTime: now, in: tx)
                    return .existing(userId: userId, sessionId: sessionId, refreshToken: refreshToken)
                case .pending:
                    // Signing in again before confirming: still pending. A name given now is kept if none was.
                    var pendingName = try row.decode(column: "pending_name", as: String?.self)
                    if pendingName == nil, let given = name ?? verified.name {
                        pendingName = given
                        try await tx.sql.raw("UPDATE auth_users SET pending_name = \(bind: given) WHERE id = \(bind: userId)").run()
                    }
                    let (sessionId, refreshToken) = try await sessions.open(userId: userId, authTime: now, in: tx)
                    return .pending(
                        userId: userId, email: try row.decode(column: "email", as: String.self), name: pendingName, sessionId: sessionId,
                        refreshToken: refreshToken)
                case .deleting, nil:
                    throw ServiceError(.invalidCredential, details: ["reason": "account is being deleted"])
                }
            }
            if let linked = try await signInLinked() { return linked }
            guard let email = verified.email else {
                throw ServiceError(.invalidCredential, details: ["reason": "the provider shared no email address"])
            }
            // An address the provider has not verified proves nothing: taking it would let anyone who types
            // another person's address into a provider account hold that address here first, and the owner's
            // later password reset would hand them an account the impostor's sign-in still opens.
            guard verified.emailVerified else {
                throw ServiceError(
                    .invalidCredential,
                    "The email address of that \(provider.displayName) account is not verified. Verify it there first, or sign up with email and password.",
                    details: ["reason": "the provider has not verified the email address"])
            }
            let pendingName = name ?? verified.name
            let inserted = try await tx.sql.raw(
                """
                INSERT INTO auth_users (id, email, email_normalized, email_verified, password_hash, original_provider, status, created_at,
                                        last_sign_in_at, pending_name)
                VALUES (\(bind: newUserId), \(bind: email), \(bind: email), \(bind: verified.emailVerified ? 1 : 0), NULL,
                        \(bind: provider.rawValue), 'pending', \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970),
                        \(bind: pendingName))
                ON CONFLICT (email_normalized) DO NOTHING
                RETURNING id
                """
            ).all()
            guard !inserted.isEmpty else {
                // The address has an account. On PostgreSQL it may be this very identity's, created by a sign-in
                // that ran at the same moment (a double tap, a retry): the insert waited for it to commit, and
                // this second look sees it, so both sign in to one account. SQLite's single writer already
                // ordered them, and the first look found it.
                if let linked = try await signInLinked() { return linked }
                // No automatic linking (docs/product.md): sign in the original way, then link in Settings.
                throw ServiceError(.accountExistsWithDifferentCredential, details: ["provider": provider.rawValue])
            }
            try await tx.sql.raw(
                """
                INSERT INTO auth_providers (provider_id, provider_uid, user_id, email, linked_at)
                VALUES (\(bind: provider.rawValue), \(bind: verified.subject), \(bind: newUserId), \(bind: email), \(bind: now.millisecondsSince1970))
                """
            ).run()
            let (sessionId, refreshToken) = try await sessions.open(userId: newUserId, authTime: now, in: tx)
            return .pending(userId: newUserId, email: email, name: pendingName, sessionId: sessionId, refreshToken: refreshToken)
        }
        if provider == .apple {
            let userId: String
            switch outcome {
            case .existing(let id, _, _), .pending(let id, _, _, _, _): userId = id
            }
            await keepAppleToken(userId: userId, authorizationCode: authorizationCode, clientID: verified.audience)
        }
        switch outcome {
        case .existing(let userId, let sessionId, let refreshToken):
            return IdentitySignInResult(
                result: "existing_user", user: try await userView(userId: userId),
                tokens: try await tokenPair(userId: userId, sessionId: sessionId, authTime: now, refreshToken: refreshToken), pending: nil)
        case .pending(let userId, let email, let name, let sessionId, let refreshToken):
            return IdentitySignInResult(
                result: "new_user",
                user: UserView(
                    id: userId, email: email, name: name, providers: [provider.rawValue], originalProvider: provider.rawValue,
                    emailVerified: verified.emailVerified),
                tokens: try await tokenPair(userId: userId, sessionId: sessionId, authTime: now, refreshToken: refreshToken),
                pending: .init(provider: provider.rawValue, email: email, name: name))
        }
    }

    /// Confirms a pending account: its profile is created (with the name given at sign-in) and
    /// `AccountCreated` is published. Confirming an account already confirmed answers the same.
    public func confirmAccountCreation(userId: String, timeZone rawTimeZone: String?) async throws -> UserView {
        let timeZone = try Validation.timeZone(rawTimeZone)
        let now = clock.now()
        try await database.transaction { [self] tx in
            guard
                let row = try await tx.sql.raw("SELECT status, pending_name, original_provider FROM auth_users WHERE id = \(bind: userId)")
                    .first()
            else { throw ServiceError(.notFound, "This account no longer exists.") }
            let status = try row.decode(column: "status", as: String.self)
            if status == AccountStatus.active.rawValue { return }
            guard status == AccountStatus.pending.rawValue else { throw ServiceError(.notFound, "This account no longer exists.") }
            guard
                try await tx.sql.raw(
                    "UPDATE auth_users SET status = 'active', pending_name = NULL WHERE id = \(bind: userId) AND status = 'pending' RETURNING id"
                ).first() != nil
            else {
                // PostgreSQL: a concurrent request confirmed the account (answered the same) or removed it (the
                // purge, a cancel) since it was read; either way there is nothing more to create.
                if try await lockAccount(userId, in: tx) == AccountStatus.active.rawValue { return }
                throw ServiceError(.notFound, "This account no longer exists.")
            }
            try await tx.sql.raw(
                """
                INSERT INTO auth_profiles (user_id, name, week_starts_on_monday, time_zone, created_at, updated_at)
                VALUES (\(bind: userId), \(bind: try row.decode(column: "pending_name", as: String?.self)), 1, \(bind: timeZone),
                        \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
                """
            ).run()
            let provider = try row.decode(column: "original_provider", as: String.self)
            try await tx.publish(
                AccountCreated(userId: userId, provider: provider, occurredAt: now), id: "account-created:\(userId)", occurredAt: now)
        }
        return try await userView(userId: userId)
    }

    /// Cancels a pending account: the identity, its provider link, its sessions and any Apple token kept at
    /// sign-in (revoked at Apple first) are removed.
    public func cancelAccountCreation(userId: String) async throws {
        let cache = sessions.statusCache
        let removed = try await database.transaction { [self] tx -> Bool in
            // Read under the account's lock: a confirmation or the purge cannot come between the read and the removal.
            guard let status = try await lockAccount(userId, in: tx) else { return false }  // already gone: harmless
            guard status == AccountStatus.pending.rawValue, try await Self.removeUnconfirmed(userId: userId, sql: tx.sql) else {
                throw ServiceError(.failedPrecondition, "This account is already confirmed. Delete it from Settings instead.")
            }
            return true
        }
        cache.revoke(userId: userId)
        if removed { await dropAppleToken(userId: userId) }
    }

    /// Deletes a pending account and everything hanging off it, if it is still pending (a confirmation may have
    /// come since it was found). The account's row goes first, only while pending: on PostgreSQL that locks it, so a
    /// confirmation either committed before (nothing is removed) or finds it gone. Returns whether it was removed.
    static func removeUnconfirmed(userId: String, sql: any SQLDatabase) async throws -> Bool {
        guard try await sql.raw("DELETE FROM auth_users WHERE id = \(bind: userId) AND status = 'pending' RETURNING id").first() != nil
        else {
            return false
        }
        // Most of these also go by the foreign keys' cascade; the refresh tokens name the user directly.
        try await sql.raw("DELETE FROM auth_refresh_tokens WHERE user_id = \(bind: userId)").run()
        try await sql.raw("DELETE FROM auth_sessions WHERE user_id = \(bind: userId)").run()
        try await sql.raw("DELETE FROM auth_providers WHERE user_id = \(bind: userId)").run()
        try await sql.raw("DELETE FROM auth_devices WHERE user_id = \(bind: userId)").run()
        return true
    }

    /// Removes accounts left unconfirmed for more than `age`. Returns how many went.
    public func purgeUnconfirmed(olderThan age: TimeInterval = 24 * 3600) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-age).millisecondsSince1970
        let cache = sessions.statusCache
        let ids = try await database.sql.raw(
            "SELECT id FROM auth_users WHERE status = 'pending' AND created_at < \(bind: cutoff)"
        ).all(decodingColumn: "id", as: String.self)
        var removed = 0
        for userId in ids where try await database.transaction({ tx in try await Self.removeUnconfirmed(userId: userId, sql: tx.sql) }) {
            cache.revoke(userId: userId)
            await dropAppleToken(userId: userId)
            removed += 1
        }
        return removed
    }

    /// Sensitive operations need a sign-in within the recent-login window; the service lane never has one.
    func requireRecentLogin(_ principal: Principal) throws {
        guard principal.sessionId != nil, clock.now().timeIntervalSince(principal.authTime) <= recentLoginWindow else {
            throw ServiceError(.requiresRecentLogin)
        }
    }

    /// Links a Google or Apple account to the caller's account: a new way in, so it needs a verified email
    /// (`FAILED_PRECONDITION` otherwise: whoever signed up with someone else's address must not leave a way in
    /// behind for when its owner takes it back) and a recent login.
    public func linkProvider(
        principal: Principal, provider rawProvider: String, idToken: String, rawNonce: String?, authorizationCode: String? = nil
    ) async throws -> ProvidersResult {
        let userId = principal.userId
        try Validation.identityRequest(idToken: idToken, rawNonce: rawNonce, authorizationCode: authorizationCode)
        let provider = try IdentityProvider.parse(rawProvider)
        // Before the token is looked at: an Apple nonce is not spent, nor an authorization code exchanged.
        try await Self.requireVerifiedEmail(userId: userId, sql: database.sql)
        try requireRecentLogin(principal)
        let verified = try await verifiedIdentity(provider, idToken: idToken, rawNonce: rawNonce)
        let now = clock.now()
        try await database.transaction { [self] tx in
            // The account's row first, as everything changing its sign-in methods takes it (`lockAccount`).
            try await lockAccount(userId, in: tx)
            if let owner = try await tx.sql.raw(
                """
                SELECT user_id FROM auth_providers WHERE provider_id = \(bind: provider.rawValue) AND provider_uid = \(bind: verified.subject)
                """
            ).first(decodingColumn: "user_id", as: String.self) {
                guard owner == userId else {
                    throw ServiceError(
                        .credentialAlreadyInUse, "This \(provider.displayName) account is already linked to a different Povver account.",
                        details: ["provider": provider.rawValue])
                }
                throw Self.alreadyLinked(provider.rawValue)
            }
            let mine = try await tx.sql.raw(
                "SELECT provider_id FROM auth_providers WHERE user_id = \(bind: userId) AND provider_id = \(bind: provider.rawValue)"
            ).first()
            guard mine == nil else { throw Self.alreadyLinked(provider.rawValue) }
            try await tx.sql.raw(
                """
                INSERT INTO auth_providers (provider_id, provider_uid, user_id, email, linked_at)
                VALUES (\(bind: provider.rawValue), \(bind: verified.subject), \(bind: userId), \(bind: verified.email), \(bind: now.millisecondsSince1970))
                """
            ).run()
        }
        if provider == .apple { await keepAppleToken(userId: userId, authorizationCode: authorizationCode, clientID: verified.audience) }
        return ProvidersResult(providers: try await providers(userId: userId).map(\.providerId))
    }

    static func alreadyLinked(_ provider: String) -> ServiceError {
        ServiceError(.providerAlreadyLinked, "This sign-in method is already linked to your account.", details: ["provider": provider])
    }

    /// Unlinks a sign-in method; never the last one. Needs a recent login.
    public func unlinkProvider(principal: Principal, provider: String) async throws -> ProvidersResult {
        guard SignInProvider(rawValue: provider) != nil else {
            throw ServiceError.invalidArgument(field: "provider", reason: "must be password, google.com or apple.com")
        }
        try requireRecentLogin(principal)
        let userId = principal.userId
        try await database.transaction { [self] tx in
            // Two unlinks at once (Google from one device, the password from another) would each count two
            // methods and each remove one, leaving none: the account's row orders them.
            try await lockAccount(userId, in: tx)
            let linked = try await tx.sql.raw("SELECT provider_id FROM auth_providers WHERE user_id = \(bind: userId)")
                .all(decodingColumn: "provider_id", as: String.self)
            guard linked.contains(provider) else {
                throw ServiceError(.noSuchProvider, "That sign-in method is not linked to your account.", details: ["provider": provider])
            }
            guard linked.count > 1 else {
                throw ServiceError(.lastSignInMethod, "You can't remove your only sign-in method. Link another one first.")
            }
            try await tx.sql.raw("DELETE FROM auth_providers WHERE user_id = \(bind: userId) AND provider_id = \(bind: provider)").run()
            if provider == SignInProvider.password.rawValue {
                try await tx.sql.raw("UPDATE auth_users SET password_hash = NULL WHERE id = \(bind: userId)").run()
                // A pending email change (a password account's) or reset asked for before must not outlive it.
                try await Self.discardCodes(userId: userId, in: tx)
            }
        }
        if provider == IdentityProvider.apple.rawValue { await dropAppleToken(userId: userId) }
        return ProvidersResult(providers: try await providers(userId: userId).map(\.providerId))
    }

    /// Adds a password to an account that signs in with Google or Apple only (recent login required: a new way in).
    public func setPassword(principal: Principal, password: String) async throws -> ProvidersResult {
        try requireRecentLogin(principal)
        try Validation.newPassword(password)
        let hash = try await hasher.hash(password)
        let userId = principal.userId
        let now = clock.now()
        try await database.transaction { tx in
            guard
                let email = try await tx.sql.raw("SELECT email FROM auth_users WHERE id = \(bind: userId)").first(
                    decodingColumn: "email", as: String.self)
            else { throw ServiceError(.notFound, "This account no longer exists.") }
            let inserted = try await tx.sql.raw(
                """
                INSERT INTO auth_providers (provider_id, provider_uid, user_id, email, linked_at)
                VALUES ('password', \(bind: userId), \(bind: userId), \(bind: email), \(bind: now.millisecondsSince1970))
                ON CONFLICT (provider_id, provider_uid) DO NOTHING RETURNING provider_id
                """
            ).all()
            guard !inserted.isEmpty else { throw Self.alreadyLinked(SignInProvider.password.rawValue) }
            try await tx.sql.raw(
                """
                UPDATE auth_users SET password_hash = \(bind: hash), password_changed_at = \(bind: now.millisecondsSince1970)
                WHERE id = \(bind: userId)
                """
            ).run()
        }
        return ProvidersResult(providers: try await providers(userId: userId).map(\.providerId))
    }

    /// Changes the password (recent login, the current password): every other session and every unused
    /// one-time code (reset, email change) ends, and this session continues with fresh tokens.
    public func changePassword(principal: Principal, currentPassword: String, newPassword: String) async throws -> TokensResult {
        try Validation.presentedPassword(currentPassword, field: "current_password")
        try Validation.newPassword(newPassword, field: "new_password")
        try requireRecentLogin(principal)
        let userId = principal.userId
        let stored = try await database.sql.raw("SELECT password_hash FROM auth_users WHERE id = \(bind: userId)")
            .first(decodingColumn: "password_hash", as: String?.self)
        guard let stored, stored != nil else {
            throw ServiceError(.noSuchProvider, "Your account has no password yet. Set one instead.", details: ["provider": "password"])
        }
        if let limiter { try await limiter.hit(Self.reauthenticatePerAccount, key: userId) }
        guard try await hasher.verify(currentPassword, against: stored) else { throw ServiceError(.wrongPassword) }
        let hash = try await hasher.hash(newPassword)
        let now = clock.now()
        let sessions = self.sessions
        let (sessionId, refreshToken) = try await database.transaction { tx in
            try await tx.sql.raw(
                """
                UPDATE auth_users SET password_hash = \(bind: hash), password_changed_at = \(bind: now.millisecondsSince1970)
                WHERE id = \(bind: userId)
                """
            ).run()
            try await sessions.revokeAll(userId: userId, reason: "password_changed", in: tx)
            try await Self.discardCodes(userId: userId, in: tx)
            return try await sessions.open(userId: userId, authTime: now, in: tx)
        }
        return TokensResult(tokens: try await tokenPair(userId: userId, sessionId: sessionId, authTime: now, refreshToken: refreshToken))
    }

    /// Proves again who the caller is (password, Google or Apple linked to this account) and answers fresh
    /// tokens with a new `auth_time`; the session they replace ends.
    public func reauthenticate(
        principal: Principal, provider: String, password: String?, idToken: String?, rawNonce: String?, clientAddress: String? = nil
    ) async throws -> TokensResult {
        let userId = principal.userId
        try Validation.identityRequest(idToken: idToken, rawNonce: rawNonce)
        if let password { try Validation.presentedPassword(password) }
        guard principal.sessionId != nil else { throw ServiceError(.permissionDenied, "Only the user can sign in again.") }
        if let limiter {
            try await limiter.hit(Self.reauthenticatePerAccount, key: userId)
            if let clientAddress { try await limiter.hit(Self.reauthenticatePerAddress, key: clientAddress) }
        }
        if provider == SignInProvider.password.rawValue {
            guard let password else { throw ServiceError.invalidArgument(field: "password", reason: "required with provider password") }
            try Validation.presentedPassword(password)
            let stored =
                try await database.sql.raw("SELECT password_hash FROM auth_users WHERE id = \(bind: userId)")
                .first(decodingColumn: "password_hash", as: String?.self) ?? nil
            guard stored != nil else {
                throw ServiceError(.noSuchProvider, "Your account has no password.", details: ["provider": "password"])
            }
            guard try await hasher.verify(password, against: stored) else { throw ServiceError(.wrongPassword) }
        } else {
            let identityProvider = try IdentityProvider.parse(provider)
            guard let idToken else { throw ServiceError.invalidArgument(field: "id_token", reason: "required with provider \(provider)") }
            let verified = try await verifiedIdentity(identityProvider, idToken: idToken, rawNonce: rawNonce)
            let owner = try await database.sql.raw(
                """
                SELECT user_id FROM auth_providers WHERE provider_id = \(bind: identityProvider.rawValue) AND provider_uid = \(bind: verified.subject)
                """
            ).first(decodingColumn: "user_id", as: String.self)
            guard owner == userId else {
                throw ServiceError(.invalidCredential, details: ["reason": "not this account's \(identityProvider.displayName) account"])
            }
        }
        let now = clock.now()
        let sessions = self.sessions
        let (sessionId, refreshToken) = try await database.transaction { [self] tx in
            // The account's row before its sessions', as every change of them takes them (`lockAccount`).
            try await lockAccount(userId, in: tx)
            if let old = principal.sessionId { try await sessions.revoke(sessionId: old, reason: "reauthenticated", in: tx) }
            try await tx.sql.raw("UPDATE auth_users SET last_sign_in_at = \(bind: now.millisecondsSince1970) WHERE id = \(bind: userId)")
                .run()
            return try await sessions.open(userId: userId, authTime: now, in: tx)
        }
        return TokensResult(tokens: try await tokenPair(userId: userId, sessionId: sessionId, authTime: now, refreshToken: refreshToken))
    }
}
