import Contracts
import Foundation
import Logging
import Platform
import SQLKit

/// Email/password accounts and their sessions.
public struct AuthService: Sendable {
    let database: Database
    let tokens: AccessTokens
    let hasher: PasswordHasher
    let clock: any WallClock
    let ids: any IDGenerator
    let sessions: SessionStore
    let limiter: RateLimiter?
    /// Google and Apple ID-token checks; nil when the module was built without them (tests of other parts).
    let identity: ProviderTokenVerifier?
    /// How long after signing in sensitive operations are allowed (`POVVER_RECENT_LOGIN_SECONDS`).
    let recentLoginWindow: TimeInterval
    /// Emails (codes, notices) go here, in the transaction of the change they are about.
    let outbox: MailOutbox
    /// Apple's token endpoints; nil when the Apple client secret is not configured.
    let apple: AppleTokenClient?
    /// Seals Apple refresh tokens at rest.
    let sealer: TokenSealer
    /// Account deletions run as durable jobs.
    let jobs: JobQueue
    let logger: Logger

    /// Sign-in attempts per client address (see `AuthService+SignInLimits` for the per-account rules).
    static let signInPerAddress = RateLimit(name: "auth.sign_in.address", limit: 100, window: 15 * 60)
    /// Accounts created per client address.
    static let signUpPerAddress = RateLimit(name: "auth.sign_up.address", limit: 20, window: 60 * 60)

    init(
        database: Database, tokens: AccessTokens, hasher: PasswordHasher, clock: any WallClock, ids: any IDGenerator,
        statusCache: SessionStatusCache, rateLimits: Bool = true, identity: ProviderTokenVerifier? = nil,
        recentLoginWindow: TimeInterval = 300,
        outbox: MailOutbox, apple: AppleTokenClient? = nil, sealer: TokenSealer, refreshGrace: TimeInterval = 30,
        logger: Logger = Logger(label: "auth")
    ) {
        self.logger = logger
        self.outbox = outbox
        self.apple = apple
        self.sealer = sealer
        self.jobs = JobQueue(database: database, clock: clock)
        self.identity = identity
        self.recentLoginWindow = recentLoginWindow
        self.database = database
        self.tokens = tokens
        self.hasher = hasher
        self.clock = clock
        self.ids = ids
        self.sessions = SessionStore(clock: clock, ids: ids, statusCache: statusCache, sealer: sealer, refreshGrace: refreshGrace)
        self.limiter = rateLimits ? RateLimiter(database: database, clock: clock) : nil
    }

    /// Creates an email/password account with its profile and a first session, and mails a code that verifies
    /// its address (`verifyEmail`): until then the account cannot link Google or Apple or register a device.
    public func signUp(
        email rawEmail: String, password: String, name rawName: String?, timeZone rawTimeZone: String?, clientAddress: String? = nil
    ) async throws -> SignInResult {
        let email = try Validation.normalizedEmail(rawEmail)
        try Validation.newPassword(password)
        let name = try Validation.name(rawName)
        let timeZone = try Validation.timeZone(rawTimeZone)
        if let limiter, let clientAddress { try await limiter.hit(Self.signUpPerAddress, key: clientAddress) }
        let hash = try await hasher.hash(password)
        let userId = ids.makeID()
        let now = clock.now()
        let sessions = self.sessions
        let opened = try await database.transaction { [self] tx -> (String, String)? in
            let inserted = try await tx.sql.raw(
                """
                INSERT INTO auth_users (id, email, email_normalized, email_verified, password_hash, original_provider, status, created_at, last_sign_in_at, password_changed_at)
                VALUES (\(bind: userId), \(bind: email), \(bind: email), 0, \(bind: hash), 'email', 'active',
                        \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
                ON CONFLICT (email_normalized) DO NOTHING
                RETURNING id
                """
            ).all()
            guard !inserted.isEmpty else { return nil }
            try await tx.sql.raw(
                """
                INSERT INTO auth_providers (provider_id, provider_uid, user_id, email, linked_at)
                VALUES ('password', \(bind: userId), \(bind: userId), \(bind: email), \(bind: now.millisecondsSince1970))
                """
            ).run()
            try await tx.sql.raw(
                """
                INSERT INTO auth_profiles (user_id, name, week_starts_on_monday, time_zone, created_at, updated_at)
                VALUES (\(bind: userId), \(bind: name), 1, \(bind: timeZone), \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
                """
            ).run()
            try await tx.publish(
                AccountCreated(userId: userId, provider: "email", occurredAt: now), id: "account-created:\(userId)", occurredAt: now)
            try await mailEmailVerification(userId: userId, email: email, in: tx)
            return try await sessions.open(userId: userId, authTime: now, in: tx)
        }
        guard let (sessionId, refreshToken) = opened else { throw ServiceError(.emailAlreadyInUse) }
        return SignInResult(
            user: UserView(id: userId, email: email, name: name, providers: ["password"], originalProvider: "email", emailVerified: false),
            tokens: try await tokenPair(userId: userId, sessionId: sessionId, authTime: now, refreshToken: refreshToken))
    }

    /// Signs in with email and password. Unknown email and wrong password answer the same
    /// `INVALID_CREDENTIAL`, after the same amount of work.
    public func signIn(
        email rawEmail: String, password: String, timeZone rawTimeZone: String?, clientAddress: String? = nil
    ) async throws -> SignInResult {
        let email = try Validation.normalizedEmail(rawEmail)
        try Validation.presentedPassword(password)
        let timeZone = try Validation.timeZone(rawTimeZone)
        try await admitSignIn(email: email, clientAddress: clientAddress)
        let row = try await database.sql.raw(
            "SELECT id, password_hash, status FROM auth_users WHERE email_normalized = \(bind: email)"
        ).first()
        let storedHash = try row?.decode(column: "password_hash", as: String?.self)
        let matched = try await hasher.verify(password, against: storedHash)
        guard matched, let row, try row.decode(column: "status", as: String.self) == AccountStatus.active.rawValue else {
            try await recordSignInFailure(email: email, clientAddress: clientAddress)
            throw ServiceError(.invalidCredential)
        }
        let userId = try row.decode(column: "id", as: String.self)
        try await clearSignInFailures(email: email, clientAddress: clientAddress)
        let now = clock.now()
        let sessions = self.sessions
        let (sessionId, refreshToken) = try await database.transaction { tx in
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
            return try await sessions.open(userId: userId, authTime: now, in: tx)
        }
        return SignInResult(
            user: try await userView(userId: userId),
            tokens: try await tokenPair(userId: userId, sessionId: sessionId, authTime: now, refreshToken: refreshToken))
    }

    /// Rotates a refresh token. A token presented a second time revokes its whole session.
    public func refresh(refreshToken: String) async throws -> TokenPair {
        guard refreshToken.utf8.count <= 512 else { throw ServiceError(.unauthenticated) }
        let sessions = self.sessions
        let outcome = try await database.transaction { tx in try await sessions.rotate(refreshToken, in: tx) }
        switch outcome {
        case .rotated(let userId, let sessionId, let authTime, let next):
            return try await tokenPair(userId: userId, sessionId: sessionId, authTime: authTime, refreshToken: next)
        case .replayed:
            throw ServiceError(.unauthenticated, "This session was ended for your security. Please sign in again.")
        case .rejected:
            throw ServiceError(.unauthenticated, "Your session has expired. Please sign in again.")
        }
    }

    /// Ends the session of `refreshToken` (if it is the caller's), every session (`allSessions`, which also ends
    /// every unused one-time code: reset, email change), or else the session the access token belongs to.
    public func signOut(principal: Principal, refreshToken: String?, allSessions: Bool) async throws {
        let sessions = self.sessions
        try await database.transaction { [self] tx in
            if allSessions {
                try await lockAccount(principal.userId, in: tx)
                try await sessions.revokeAll(userId: principal.userId, reason: "sign_out_all", in: tx)
                try await Self.discardCodes(userId: principal.userId, in: tx)
            } else if let refreshToken {
                guard let sessionId = try await sessions.sessionId(ofRefreshToken: refreshToken, userId: principal.userId, in: tx) else {
                    throw ServiceError(.notFound, "That session does not exist.")
                }
                try await sessions.revoke(sessionId: sessionId, reason: "sign_out", in: tx)
            } else if let sessionId = principal.sessionId {
                try await sessions.revoke(sessionId: sessionId, reason: "sign_out", in: tx)
            }
        }
    }

    func tokenPair(userId: String, sessionId: String, authTime: Date, refreshToken: String) async throws -> TokenPair {
        let (access, expiresIn) = try await tokens.issue(userId: userId, sessionId: sessionId, authTime: authTime)
        return TokenPair(accessToken: access, refreshToken: refreshToken, expiresIn: expiresIn, tokenType: "Bearer")
    }
}
