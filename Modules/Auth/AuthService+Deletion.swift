import Contracts
import Foundation
import Logging
import Platform
import SQLKit

extension AuthService {
    /// The kind of account-deletion jobs, which wait for every module with tables to confirm its erasure.
    static let deletionJobKind = "auth.account_deletion"
    /// The kind deletions were queued under before (`AccountDeletion.jobs`).
    static let formerDeletionJobKind = "auth.delete_account"
    /// Attempts at revoking Apple's token before deletion goes on without it (Apple unreachable for hours).
    static let appleRevokeAttempts = 6

    /// Keeps the Apple refresh token of `userId`, swapped for a sign-in `authorization_code`. Without the
    /// Apple client secret configured, or when Apple refuses, the sign-in still succeeds (the code would die in
    /// five minutes anyway); the failure is logged, and deletion will have no token to revoke.
    func keepAppleToken(userId: String, authorizationCode: String?, clientID: String) async {
        guard let authorizationCode, !authorizationCode.isEmpty else { return }
        guard let apple else {
            logger.warning(
                "Apple authorization code ignored: POVVER_APPLE_TEAM_ID, _KEY_ID and _PRIVATE_KEY_FILE are not set",
                metadata: ["event": "apple_code_ignored"])
            return
        }
        do {
            let refreshToken = try await apple.exchange(code: authorizationCode, clientID: clientID)
            let sealed = try sealer.seal(refreshToken)
            let now = clock.now().millisecondsSince1970
            let kept = try await database.transaction { [self] tx -> Bool in
                // An account cancelled, purged or being deleted since the exchange began has already dropped its
                // token, or will without revoking this one (the lock orders this with that removal): none is kept.
                // Nor by one whose Apple sign-in went meanwhile (unlinked, or removed when its address was first
                // proved): the token would outlive the link.
                let status = try await lockAccount(userId, in: tx)
                guard status == AccountStatus.active.rawValue || status == AccountStatus.pending.rawValue,
                    try await tx.sql.raw(
                        "SELECT provider_uid FROM auth_providers WHERE user_id = \(bind: userId) AND provider_id = 'apple.com'"
                    )
                    .first() != nil
                else { return false }
                try await tx.sql.raw(
                    """
                    INSERT INTO auth_apple_tokens (user_id, client_id, sealed_refresh_token, created_at)
                    VALUES (\(bind: userId), \(bind: clientID), \(bind: sealed), \(bind: now))
                    ON CONFLICT (user_id) DO UPDATE SET client_id = excluded.client_id,
                        sealed_refresh_token = excluded.sealed_refresh_token, created_at = excluded.created_at
                    """
                ).run()
                return true
            }
            if !kept { try? await apple.revoke(refreshToken: refreshToken, clientID: clientID) }
        } catch {
            logger.warning(
                "Apple authorization code exchange failed", metadata: ["event": "apple_code_exchange_failed", "error": "\(error)"])
        }
    }

    /// Apple unlinked: its token is revoked (best effort: the link is gone either way) and forgotten.
    func dropAppleToken(userId: String) async {
        do {
            try await revokeStoredAppleToken(userId: userId)
        } catch {
            logger.warning(
                "Apple token revocation after unlinking failed", metadata: ["event": "apple_unlink_revoke_failed", "error": "\(error)"])
        }
        _ = try? await database.transaction { tx in
            try await tx.sql.raw("DELETE FROM auth_apple_tokens WHERE user_id = \(bind: userId)").run()
        }
    }

    /// Revokes the Apple refresh token kept for `userId`, if there is one (and Apple's client secret is set).
    func revokeStoredAppleToken(userId: String) async throws {
        guard
            let row = try await database.sql.raw(
                "SELECT client_id, sealed_refresh_token FROM auth_apple_tokens WHERE user_id = \(bind: userId)"
            ).first()
        else { return }
        try await revokeAppleRefreshToken(
            sealed: try row.decode(column: "sealed_refresh_token", as: String.self),
            clientID: try row.decode(column: "client_id", as: String.self))
    }

    /// Revokes a kept Apple refresh token (sealed as stored) at Apple, when Apple's client secret is set.
    func revokeAppleRefreshToken(sealed: String, clientID: String) async throws {
        guard let apple else {
            logger.error("cannot revoke the Apple token: Apple client secret not configured", metadata: ["event": "apple_revoke_skipped"])
            return
        }
        try await apple.revoke(refreshToken: try sealer.open(sealed), clientID: clientID)
    }

    /// Deletes the caller's account (recent login required). From this moment the account cannot sign in and
    /// every session is over; the erasing itself runs as a durable job.
    public func deleteAccount(principal: Principal) async throws {
        guard principal.sessionId != nil else { throw ServiceError(.permissionDenied, "Only the user can delete their account.") }
        try requireRecentLogin(principal)
        try await requestDeletion(userId: principal.userId)
    }

    /// Starts (or, if started, leaves running; if it failed for good, starts again) the deletion of `userId`: the
    /// account goes to `deleting`, its sessions end, and the deletion job is queued in the same transaction.
    /// Returns the job id.
    @discardableResult
    public func requestDeletion(userId: String) async throws -> String {
        let now = clock.now()
        let ticket = ids.makeID()
        let sessions = self.sessions
        let jobs = self.jobs
        let jobId = try await database.transaction { [self] tx -> String in
            guard try await lockAccount(userId, in: tx) != nil else {
                throw ServiceError(.notFound, "This account no longer exists.")
            }
            try await tx.sql.raw("UPDATE auth_users SET status = 'deleting' WHERE id = \(bind: userId)").run()
            try await sessions.revokeAll(userId: userId, reason: "account_deleted", in: tx)
            try await Self.discardCodes(userId: userId, in: tx)
            try await tx.sql.raw(
                """
                INSERT INTO auth_deletions (ticket, user_id, requested_at) VALUES (\(bind: ticket), \(bind: userId), \(bind: now.millisecondsSince1970))
                ON CONFLICT (user_id) DO NOTHING
                """
            ).run()
            let current =
                try await tx.sql.raw("SELECT ticket FROM auth_deletions WHERE user_id = \(bind: userId)")
                .first(decodingColumn: "ticket", as: String.self) ?? ticket
            let jobId = "auth.delete:\(current)"
            // The job names only the ticket: once the deletion is done, nothing left in the queue leads to the user.
            try await jobs.enqueue(
                NewJob(id: jobId, kind: Self.deletionJobKind, payload: #"{"ticket":"\#(current)"}"#, maxAttempts: 60), in: tx)
            // A deletion that used all its attempts (a day of backoff) starts over when asked for again, rather than
            // waiting for the failed job to be purged a month later.
            try await jobs.requeueIfFailed(id: jobId, in: tx)
            return jobId
        }
        sessions.statusCache.revoke(userId: userId)
        return jobId
    }

    /// How long after a deletion's first pass its second one runs: longer than a replica trusts an open session
    /// without asking the database (`SessionStatusCache`, 1 s) plus the longest a request can take.
    public static let deletionSecondPassDelay: TimeInterval = 600

    /// One attempt at a pass of a deletion. Each step is idempotent, so a retry after a crash finishes the pass.
    ///
    /// First pass: revoke Apple's token, then erase the user everywhere (`UserErasure`: Platform's eraser, the
    /// modules composed in this process, and a job for each other module with tables in the database, run by a
    /// process that composes it). Until every module has confirmed, the attempt fails saying which it waits for,
    /// and the last confirmation makes the job due again at once. Then Auth's eraser ends the account, and the
    /// ticket is marked erased and the second pass queued. A request that was already running when the deletion
    /// began, or that reached another replica while it still trusted the session, can commit after a module's
    /// eraser ran: a template, a workout, an outbox event of the user. So `deletionSecondPassDelay` later, the
    /// second pass erases everywhere again the same way, then Auth's rows, then removes the ticket.
    func runDeletion(ticket: String, job: LeasedJob, own: any UserDataEraser, here: UserDataErasers) async throws {
        guard
            let row = try await database.sql.raw(
                "SELECT user_id, apple_revoked_at, erased_at FROM auth_deletions WHERE ticket = \(bind: ticket)"
            ).first()
        else { return }  // finished by an earlier attempt
        let userId = try row.decode(column: "user_id", as: String.self)
        let erasure = UserErasure(queue: jobs)
        if let erasedAt = try row.decode(column: "erased_at", as: Int64?.self) {
            // The first pass is done; a retry of its job before the second pass is due leaves it to that job.
            guard clock.now().millisecondsSince1970 >= erasedAt + Int64(saturating: Self.deletionSecondPassDelay * 1000) else { return }
            try await erase(userId: userId, pass: 2, ticket: ticket, job: job, own: own, here: here)
            try await database.transaction { tx in
                try await tx.sql.raw("DELETE FROM auth_deletions WHERE ticket = \(bind: ticket)").run()
                try await erasure.forget(ticket: ticket, in: tx)
            }
            logger.info("account deletion finished", metadata: ["event": "account_deletion_finished", "ticket": "\(ticket)"])
            return
        }
        if try row.decode(column: "apple_revoked_at", as: Int64?.self) == nil {
            try await revokeAppleToken(userId: userId, attempt: job.attempt)
            let now = clock.now().millisecondsSince1970
            try await database.transaction { tx in
                try await tx.sql.raw("UPDATE auth_deletions SET apple_revoked_at = \(bind: now) WHERE ticket = \(bind: ticket)").run()
                try await tx.sql.raw("DELETE FROM auth_apple_tokens WHERE user_id = \(bind: userId)").run()
            }
        }
        try await erase(userId: userId, pass: 1, ticket: ticket, job: job, own: own, here: here)
        let now = clock.now()
        let jobs = self.jobs
        try await database.transaction { tx in
            try await tx.sql.raw(
                "UPDATE auth_deletions SET erased_at = \(bind: now.millisecondsSince1970) WHERE ticket = \(bind: ticket)"
            ).run()
            try await erasure.forget(ticket: ticket, in: tx)
            try await jobs.enqueue(
                NewJob(
                    id: Self.secondPassJobId(ticket: ticket), kind: Self.deletionJobKind, payload: #"{"ticket":"\#(ticket)"}"#,
                    runAt: now.addingTimeInterval(Self.deletionSecondPassDelay), maxAttempts: 60),
                in: tx)
        }
        logger.info("account deleted", metadata: ["event": "account_deleted", "ticket": "\(ticket)"])
    }

    /// A pass of the erasure everywhere but in Auth, then Auth's eraser once every other module has confirmed.
    /// Throws `UserErasure.Waiting` (the attempt is retried, or made due by the last confirmation) until then.
    private func erase(
        userId: String, pass: Int, ticket: String, job: LeasedJob, own: any UserDataEraser, here: UserDataErasers
    ) async throws {
        let waiting = try await UserErasure(queue: jobs).run(
            pass: pass, ticket: ticket, userId: userId, waitingJob: job.id, here: here, excluding: [own.module])
        guard waiting.isEmpty else { throw UserErasure.Waiting(modules: waiting) }
        try await own.eraseUserData(userId: userId)
    }

    /// The job of a deletion's second pass (the first pass's is `auth.delete:<ticket>`).
    static func secondPassJobId(ticket: String) -> String { "auth.delete:\(ticket):second-pass" }

    private func revokeAppleToken(userId: String, attempt: Int) async throws {
        do {
            try await revokeStoredAppleToken(userId: userId)
        } catch {
            guard attempt >= Self.appleRevokeAttempts else { throw error }
            logger.error(
                "Apple token revocation abandoned; deleting the account without it",
                metadata: ["event": "apple_revoke_abandoned", "attempts": "\(attempt)", "error": "\(error)"])
        }
    }
}

/// The durable account-deletion job.
enum AccountDeletion {
    struct Payload: Codable { var ticket: String }

    /// The job of each kind a deletion may be queued under: `deletionJobKind`, and the kind of versions that erased
    /// only the modules of the process that ran the deletion (such a job still queued runs here the new way; an
    /// older replica does not claim the new kind, so it never ends an account with other modules' rows left).
    static func jobs(service: AuthService, own: any UserDataEraser, erasers: UserDataErasers) -> [JobDefinition] {
        [AuthService.deletionJobKind, AuthService.formerDeletionJobKind].map { kind in
            JobDefinition(
                // Renewed while it runs: a deletion whose worker died resumes a minute later; an erasure gets an hour.
                kind: kind, lease: 60, timeout: 3600, retry: RetryPolicy(base: 10, cap: 1800)
            ) { job in
                let payload = try JSONCoding.decode(Payload.self, from: job.payload)
                try await service.runDeletion(ticket: payload.ticket, job: job, own: own, here: erasers)
            }
        }
    }
}
