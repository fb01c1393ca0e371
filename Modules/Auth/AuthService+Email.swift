import Contracts
import Crypto
import Foundation
import Platform
import SQLKit

/// `changeEmail`'s answer.
public struct EmailChangeStarted: Codable, Sendable, Equatable {
    public var verificationSentTo: String

    enum CodingKeys: String, CodingKey { case verificationSentTo = "verification_sent_to" }
}

/// `applyEmailChange`'s answer.
public struct EmailChanged: Codable, Sendable, Equatable {
    public var email: String
}

/// What a one-time code is for.
enum CodePurpose: String {
    case emailChange = "email_change"
    case passwordReset = "password_reset"
    /// Proves the address a password sign-up gave (`new_email` holds it).
    case emailVerification = "email_verification"

    /// How long a code works.
    var lifetime: TimeInterval {
        switch self {
        case .emailChange, .emailVerification: 24 * 3600
        case .passwordReset: 3600
        }
    }
}

extension AuthService {
    /// Email-change requests per account.
    static let emailChangePerAccount = RateLimit(name: "auth.email_change.account", limit: 5, window: 3600)
    /// Email-change requests per client address.
    static let emailChangePerAddress = RateLimit(name: "auth.email_change.address", limit: 20, window: 3600)
    /// Password-reset requests per email address (counted whether or not an account has it).
    static let resetPerEmail = RateLimit(name: "auth.reset.email", limit: 5, window: 3600)
    /// Password-reset requests per client address.
    static let resetPerAddress = RateLimit(name: "auth.reset.address", limit: 20, window: 3600)
    /// Code redemptions (reset, email change, email verification) per client address.
    static let codePerAddress = RateLimit(name: "auth.code.address", limit: 30, window: 15 * 60)

    /// A new one-time code: 256 random bits, base64url. Only its SHA-256 is stored.
    static func makeCode() -> (code: String, hash: String) {
        let code = SessionStore.randomToken()
        return (code, codeHash(code))
    }

    static func codeHash(_ code: String) -> String {
        SHA256.hash(data: Data("povver-code:\(code)".utf8)).hexString
    }

    /// Locks the account's row for the rest of `tx` on PostgreSQL (SQLite's single writer already runs one write at
    /// a time), and tells whether the account exists. Whatever mints, spends or discards an account's one-time
    /// codes, or changes its sign-in methods, takes this lock first: they then queue in one order (no deadlock
    /// between two of them), and a code minted at the moment the account is secured is either discarded by it
    /// or refused because the session asking for it has ended. Returns the account's status, nil when there is
    /// no such account.
    @discardableResult
    func lockAccount(_ userId: String, in tx: Transaction) async throws -> String? {
        try await Self.lockAccount(userId, engine: database.engine, in: tx)
    }

    @discardableResult
    static func lockAccount(_ userId: String, engine: SQLEngine, in tx: Transaction) async throws -> String? {
        let lock: SQLQueryString = engine == .postgres ? " FOR UPDATE" : ""
        return try await tx.sql.raw("SELECT status FROM auth_users WHERE id = \(bind: userId)\(lock)").first(
            decodingColumn: "status", as: String.self)
    }

    /// Stores a code for `userId` (replacing any earlier unused code of the same purpose) in `tx`.
    func storeCode(_ purpose: CodePurpose, userId: String, newEmail: String?, in tx: Transaction) async throws -> String {
        try await lockAccount(userId, in: tx)
        let (code, hash) = Self.makeCode()
        let now = clock.now()
        try await tx.sql.raw(
            "DELETE FROM auth_codes WHERE user_id = \(bind: userId) AND purpose = \(bind: purpose.rawValue) AND used_at IS NULL"
        ).run()
        try await tx.sql.raw(
            """
            INSERT INTO auth_codes (code_hash, purpose, user_id, new_email, created_at, expires_at)
            VALUES (\(bind: hash), \(bind: purpose.rawValue), \(bind: userId), \(bind: newEmail), \(bind: now.millisecondsSince1970),
                    \(bind: now.addingTimeInterval(purpose.lifetime).millisecondsSince1970))
            """
        ).run()
        return code
    }

    /// Ends every unused one-time code of `userId` in `tx`. Called wherever the account is secured or its
    /// address changes (a new password, every session ended, another email): a reset link or a pending email
    /// change asked for before — perhaps by whoever the user is locking out — must not outlive that, and a reset
    /// code sent to the old address must not reach the account once it has another.
    static func discardCodes(userId: String, in tx: Transaction) async throws {
        try await tx.sql.raw("DELETE FROM auth_codes WHERE user_id = \(bind: userId) AND used_at IS NULL").run()
    }

    /// Spends a code in `tx`: the user and new email it was issued for, or `INVALID_CODE` when it is unknown,
    /// of another purpose, used, or expired.
    func spendCode(_ code: String, purpose: CodePurpose, in tx: Transaction) async throws -> (userId: String, newEmail: String?) {
        guard !code.isEmpty, code.utf8.count <= 128 else { throw ServiceError(.invalidCode) }
        let now = clock.now().millisecondsSince1970
        let hash = Self.codeHash(code)
        // The account's row before the code's (`lockAccount`).
        guard
            let owner = try await tx.sql.raw("SELECT user_id FROM auth_codes WHERE code_hash = \(bind: hash)")
                .first(decodingColumn: "user_id", as: String.self)
        else { throw ServiceError(.invalidCode) }
        try await lockAccount(owner, in: tx)
        guard
            let row = try await tx.sql.raw(
                """
                UPDATE auth_codes SET used_at = \(bind: now)
                WHERE code_hash = \(bind: hash) AND purpose = \(bind: purpose.rawValue) AND used_at IS NULL
                  AND expires_at > \(bind: now)
                RETURNING user_id, new_email
                """
            ).first()
        else { throw ServiceError(.invalidCode) }
        return (try row.decode(column: "user_id", as: String.self), try row.decode(column: "new_email", as: String?.self))
    }

    /// Starts an email change (password accounts, recent login): a code goes to the new address; the email
    /// changes only when `applyEmailChange` redeems it.
    public func changeEmail(principal: Principal, newEmail rawEmail: String, clientAddress: String? = nil) async throws
        -> EmailChangeStarted
    {
        let newEmail = try Validation.normalizedEmail(rawEmail, field: "new_email")
        let userId = principal.userId
        let linked = try await providers(userId: userId).map(\.providerId)
        guard linked.contains(SignInProvider.password.rawValue) else {
            let managing = linked.compactMap { IdentityProvider(rawValue: $0) }.first
            throw ServiceError(
                .emailManagedByProvider,
                "Changing email is not possible when signed in with \(managing?.displayName ?? "your sign-in provider").",
                details: managing.map { ["provider": $0.rawValue] } ?? [:])
        }
        try requireRecentLogin(principal)
        if let limiter {
            try await limiter.hit(Self.emailChangePerAccount, key: userId)
            if let clientAddress { try await limiter.hit(Self.emailChangePerAddress, key: clientAddress) }
        }
        let outbox = self.outbox
        try await database.transaction { tx in
            // Checked again under the account's lock: a password change, a sign-out everywhere or an unlink of the
            // password committing meanwhile would otherwise leave this code behind, redeemable without a session.
            try await lockAccount(userId, in: tx)
            guard
                let sessionId = principal.sessionId,
                try await tx.sql.raw(
                    "SELECT id FROM auth_sessions WHERE id = \(bind: sessionId) AND user_id = \(bind: userId) AND revoked_at IS NULL"
                )
                .first() != nil
            else { throw ServiceError(.unauthenticated, "Your session has ended. Please sign in again.") }
            guard
                try await tx.sql.raw("SELECT provider_id FROM auth_providers WHERE user_id = \(bind: userId) AND provider_id = 'password'")
                    .first() != nil
            else { throw ServiceError(.emailManagedByProvider) }
            guard let row = try await tx.sql.raw("SELECT email, email_verified FROM auth_users WHERE id = \(bind: userId)").first()
            else { throw ServiceError(.notFound, "This account no longer exists.") }
            let current = try row.decode(column: "email", as: String.self)
            guard current != newEmail else {
                throw ServiceError.invalidArgument(
                    field: "new_email", reason: "same as the current email", message: "This is already your email address.")
            }
            let taken = try await tx.sql.raw("SELECT id FROM auth_users WHERE email_normalized = \(bind: newEmail)").first()
            guard taken == nil else { throw ServiceError(.emailAlreadyInUse) }
            let code = try await storeCode(.emailChange, userId: userId, newEmail: newEmail, in: tx)
            try await outbox.enqueue(
                userId: userId, kind: "verify_new_email", to: newEmail, subject: "Confirm your new email for Povver",
                body: MailTexts.verifyNewEmail(code: code, unverifiedAccount: try row.decode(column: "email_verified", as: Int.self) == 0),
                in: tx)
        }
        return EmailChangeStarted(verificationSentTo: newEmail)
    }

    /// Redeems an email-change code: the account's email becomes the new (now verified) address, the old
    /// address is told, and any other unused code of the account ends (a reset code went to the old address).
    /// When the old address had never been verified, this is the first proof of any: every other way in
    /// (`removeUnprovenAccess`) and every session end too.
    public func applyEmailChange(code: String, clientAddress: String? = nil) async throws -> EmailChanged {
        if let limiter, let clientAddress { try await limiter.hit(Self.codePerAddress, key: clientAddress) }
        let outbox = self.outbox
        let sessions = self.sessions
        let now = clock.now().millisecondsSince1970
        let (changed, removed) = try await database.transaction { tx -> (EmailChanged, RemovedAccess?) in
            let (userId, pendingEmail) = try await spendCode(code, purpose: .emailChange, in: tx)
            guard let newEmail = pendingEmail,
                let row = try await tx.sql.raw("SELECT email, email_verified, status FROM auth_users WHERE id = \(bind: userId)").first(),
                try row.decode(column: "status", as: String.self) == AccountStatus.active.rawValue
            else { throw ServiceError(.invalidCode) }
            let oldEmail = try row.decode(column: "email", as: String.self)
            let wasVerified = try row.decode(column: "email_verified", as: Int.self) != 0
            let taken = try await tx.sql.raw(
                "SELECT id FROM auth_users WHERE email_normalized = \(bind: newEmail) AND id <> \(bind: userId)"
            ).first()
            guard taken == nil else { throw ServiceError(.emailAlreadyInUse) }
            try await tx.sql.raw(
                """
                UPDATE auth_users SET email = \(bind: newEmail), email_normalized = \(bind: newEmail), email_verified = 1
                WHERE id = \(bind: userId)
                """
            ).run()
            try await tx.sql.raw(
                "UPDATE auth_providers SET email = \(bind: newEmail) WHERE user_id = \(bind: userId) AND provider_id = 'password'"
            ).run()
            try await tx.sql.raw("UPDATE auth_profiles SET updated_at = \(bind: now) WHERE user_id = \(bind: userId)").run()
            try await Self.discardCodes(userId: userId, in: tx)
            try await outbox.enqueue(
                userId: userId, kind: "email_changed", to: oldEmail, subject: "Your Povver email was changed",
                body: MailTexts.emailChanged(newEmail: newEmail), in: tx)
            guard !wasVerified else { return (EmailChanged(email: newEmail), nil) }
            let removed = try await removeUnprovenAccess(userId: userId, notify: newEmail, in: tx)
            try await sessions.revokeAll(userId: userId, reason: "email_first_verified", in: tx)
            return (EmailChanged(email: newEmail), removed)
        }
        await revokeRemovedAppleTokens(removed)
        return changed
    }

    /// Mails a reset code when an active account has this email. Answers the same — after the same checks and
    /// limits — whether or not one does.
    public func sendPasswordReset(email rawEmail: String, clientAddress: String? = nil) async throws {
        let email = try Validation.normalizedEmail(rawEmail)
        if let limiter {
            // The address first: a flood from one address uses up its own limit, not the victim's email's.
            if let clientAddress { try await limiter.hit(Self.resetPerAddress, key: clientAddress) }
            try await limiter.hit(Self.resetPerEmail, key: email)
        }
        let outbox = self.outbox
        try await database.transaction { tx in
            guard
                let row = try await tx.sql.raw(
                    "SELECT id, email, email_verified FROM auth_users WHERE email_normalized = \(bind: email) AND status = 'active'"
                ).first()
            else { return }
            let userId = try row.decode(column: "id", as: String.self)
            let code = try await storeCode(.passwordReset, userId: userId, newEmail: nil, in: tx)
            try await outbox.enqueue(
                userId: userId, kind: "password_reset", to: try row.decode(column: "email", as: String.self),
                subject: "Reset your Povver password",
                body: MailTexts.passwordReset(code: code, unverifiedAccount: try row.decode(column: "email_verified", as: Int.self) == 0),
                in: tx)
        }
    }

    /// Redeems a reset code: the new password is set (added, for an account that had none), the email counts
    /// as verified, and every session and every other unused code (a pending email change) ends. When the email
    /// had never been verified, every other way in goes too (`removeUnprovenAccess`): the account may have been
    /// set up by someone else with the address whose owner is taking it back.
    public func resetPassword(code: String, newPassword: String, clientAddress: String? = nil) async throws {
        try Validation.newPassword(newPassword, field: "new_password")
        if let limiter, let clientAddress { try await limiter.hit(Self.codePerAddress, key: clientAddress) }
        let hash = try await hasher.hash(newPassword)
        let now = clock.now().millisecondsSince1970
        let sessions = self.sessions
        let removed = try await database.transaction { tx -> RemovedAccess? in
            let (userId, _) = try await spendCode(code, purpose: .passwordReset, in: tx)
            guard
                let row = try await tx.sql.raw(
                    "SELECT email, email_verified FROM auth_users WHERE id = \(bind: userId) AND status = 'active'"
                )
                .first()
            else { throw ServiceError(.invalidCode) }
            let email = try row.decode(column: "email", as: String.self)
            try await tx.sql.raw(
                """
                UPDATE auth_users SET password_hash = \(bind: hash), password_changed_at = \(bind: now), email_verified = 1
                WHERE id = \(bind: userId)
                """
            ).run()
            try await tx.sql.raw(
                """
                INSERT INTO auth_providers (provider_id, provider_uid, user_id, email, linked_at)
                VALUES ('password', \(bind: userId), \(bind: userId), \(bind: email), \(bind: now))
                ON CONFLICT (provider_id, provider_uid) DO NOTHING
                """
            ).run()
            try await sessions.revokeAll(userId: userId, reason: "password_reset", in: tx)
            try await Self.discardCodes(userId: userId, in: tx)
            guard try row.decode(column: "email_verified", as: Int.self) == 0 else { return nil }
            return try await removeUnprovenAccess(userId: userId, notify: email, in: tx)
        }
        await revokeRemovedAppleTokens(removed)
    }
}
