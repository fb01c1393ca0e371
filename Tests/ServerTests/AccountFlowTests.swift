import Auth
import Contracts
import Fakes
import Foundation
import HTTPTypes
import Platform
import PovverApp
import SQLKit
import Subscription
import Synchronization
import TestSupport
import Testing

/// Email change, password reset and account deletion over HTTP, on both engines.
@Suite struct AccountFlowTests {
    let providers = FakeIdentityProviders()

    /// The one-time code in the newest outbox message to `recipient` (of `kind`, when given: a sign-up also
    /// mails a code).
    static func code(to recipient: String, kind: String? = nil, in server: PovverServer) async throws -> String {
        let mail = try #require(try await server.auth.outbox.list().first { $0.recipient == recipient && (kind == nil || $0.kind == kind) })
        let match = try #require(mail.body.firstMatch(of: /oobCode=([A-Za-z0-9_-]+)/))
        return String(match.1)
    }

    /// The checklist's phases 1–2 (docs/product.md): "EmailChangeView: enter new email → Send Verification →
    /// success". The code goes to the new address only, works once, and the old address is told; sign-in uses the
    /// new email.
    @Test(arguments: TestDatabases.engines)
    func emailChangeWithVerification(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let token = try #require(
                try await client.signUpVerified(["email": "old@example.com", "password": "password-1"], server: server).accessToken)
            _ = try await client.call("signUp", ["email": "taken@example.com", "password": "password-2"])

            #expect(
                try await client.call("changeEmail", ["new_email": "taken@example.com"], token: token).errorCode == "EMAIL_ALREADY_IN_USE")
            #expect(try await client.call("changeEmail", ["new_email": "not-an-email"], token: token).errorCode == "INVALID_ARGUMENT")
            let started = try await client.call("changeEmail", ["new_email": "New@Example.com"], token: token)
            #expect(started.status == .ok)
            #expect(started.data["verification_sent_to"] as? String == "new@example.com")
            let code = try await Self.code(to: "new@example.com", in: server)
            #expect(
                try await server.auth.outbox.list().filter { $0.recipient == "old@example.com" && $0.kind == "email_changed" }.isEmpty,
                "nothing changed yet")
            #expect(try await client.call("getAccount", token: token).data["email"] as? String == "old@example.com")

            #expect(try await client.call("applyEmailChange", ["code": code + "x"]).errorCode == "INVALID_CODE")
            let applied = try await client.call("applyEmailChange", ["code": code])
            #expect(applied.status == .ok)
            #expect(applied.data["email"] as? String == "new@example.com")
            let reused = try await client.call("applyEmailChange", ["code": code])
            #expect(reused.errorCode == "INVALID_CODE")
            #expect(reused.errorMessage == "This code is invalid or has expired. Please request a new one.")

            let account = try await client.call("getAccount", token: token)
            #expect(account.data["email"] as? String == "new@example.com")
            #expect(account.data["email_verified"] as? Bool == true)
            let notice = try #require(
                try await server.auth.outbox.list().first { $0.recipient == "old@example.com" && $0.kind == "email_changed" })
            #expect(notice.kind == "email_changed")
            #expect(notice.body.contains("new@example.com"))
            #expect(try await client.call("signIn", ["email": "new@example.com", "password": "password-1"]).status == .ok)
            #expect(
                try await client.call("signIn", ["email": "old@example.com", "password": "password-1"]).errorCode == "INVALID_CREDENTIAL")

            // The log transport "delivers" what is queued; the message stays readable for developers.
            _ = try await server.auth.mailSender.deliverDue()
            #expect(try await server.auth.outbox.list().allSatisfy { $0.status == "sent" && $0.transport == "log" && !$0.body.isEmpty })

            // Expired code; then the recent-login window.
            let again = try #require(try await client.call("signIn", ["email": "new@example.com", "password": "password-1"]).accessToken)
            #expect(try await client.call("changeEmail", ["new_email": "third@example.com"], token: again).status == .ok)
            let late = try await Self.code(to: "third@example.com", in: server)
            clock.advance(by: 24 * 3600 + 1)
            #expect(try await client.call("applyEmailChange", ["code": late]).errorCode == "INVALID_CODE")
            let session = try await client.call("signIn", ["email": "new@example.com", "password": "password-1"])
            let sessionToken = try #require(session.accessToken)
            #expect(try await client.call("changeEmail", ["new_email": "fourth@example.com"], token: sessionToken).status == .ok)
            clock.advance(by: 301)
            let refreshToken = try #require(session.refreshToken)
            let refreshed = try #require(try await client.call("refreshToken", ["refresh_token": refreshToken]).accessToken)
            // A refreshed token keeps the sign-in time: it is not a recent login.
            let old = try await client.call("changeEmail", ["new_email": "sixth@example.com"], token: refreshed)
            #expect(old.errorCode == "REQUIRES_RECENT_LOGIN")
            #expect(old.errorMessage == "For your security, please sign in again to continue.")
        }
    }

    /// Securing the account ends every code asked for before: a new password, signing out everywhere, a reset,
    /// an operator's revocation; and a changed email ends the reset code that went to the old address.
    @Test(arguments: TestDatabases.engines)
    func securingTheAccountEndsOutstandingCodes(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.call("signUp", ["email": "owner@example.com", "password": "password-1"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            var token = try #require(signUp.accessToken)
            /// A pending email change (to `address`) and a reset code (to the account's address).
            func outstanding(_ address: String, token: String) async throws -> (change: String, reset: String) {
                clock.advance(by: 1)  // the newest mail to an address is the one listed first
                #expect(try await client.call("changeEmail", ["new_email": address], token: token).status == .ok)
                _ = try await client.call("sendPasswordReset", ["email": "owner@example.com"])
                return (
                    try await Self.code(to: address, in: server),
                    try await Self.code(to: "owner@example.com", kind: "password_reset", in: server)
                )
            }
            func expectDead(_ codes: (change: String, reset: String), _ comment: Comment) async throws {
                #expect(try await client.call("applyEmailChange", ["code": codes.change]).errorCode == "INVALID_CODE", comment)
                #expect(
                    try await client.call("resetPassword", ["code": codes.reset, "new_password": "password-x"]).errorCode == "INVALID_CODE",
                    comment)
            }

            var codes = try await outstanding("one@example.com", token: token)
            let changed = try await client.call(
                "changePassword", ["current_password": "password-1", "new_password": "password-2"], token: token)
            token = try #require(changed.accessToken)
            try await expectDead(codes, "changePassword")

            codes = try await outstanding("two@example.com", token: token)
            #expect(try await client.call("signOut", ["all_sessions": true], token: token).status == .ok)
            try await expectDead(codes, "signOut all_sessions")

            token = try #require(try await client.call("signIn", ["email": "owner@example.com", "password": "password-2"]).accessToken)
            codes = try await outstanding("three@example.com", token: token)
            #expect(try await server.auth.service.revokeAllSessions(userId: userId) == 1)
            try await expectDead(codes, "operator's revocation")

            token = try #require(try await client.call("signIn", ["email": "owner@example.com", "password": "password-2"]).accessToken)
            codes = try await outstanding("four@example.com", token: token)
            #expect(try await client.call("resetPassword", ["code": codes.reset, "new_password": "password-3"]).status == .ok)
            #expect(try await client.call("applyEmailChange", ["code": codes.change]).errorCode == "INVALID_CODE", "resetPassword")

            token = try #require(try await client.call("signIn", ["email": "owner@example.com", "password": "password-3"]).accessToken)
            codes = try await outstanding("five@example.com", token: token)
            #expect(try await client.call("applyEmailChange", ["code": codes.change]).status == .ok)
            #expect(
                try await client.call("resetPassword", ["code": codes.reset, "new_password": "password-4"]).errorCode == "INVALID_CODE")
            #expect(try await client.call("signIn", ["email": "five@example.com", "password": "password-3"]).status == .ok)
            #expect(try await client.call("getAccount", token: token).data["email"] as? String == "five@example.com")
        }
    }

    /// Unlinking the password ends a pending email change (which only a password account may make).
    @Test(arguments: TestDatabases.engines)
    func unlinkingThePasswordEndsAPendingEmailChange(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            _ = try await client.signUpVerified(["email": "owner@example.com", "password": "password-1"], server: server)
            let again = try #require(try await client.call("signIn", ["email": "owner@example.com", "password": "password-1"]).accessToken)
            let google = try await providers.token("google.com", sub: "g-owner", email: "owner.g@example.com", now: clock.now())
            #expect(try await client.call("linkProvider", ["provider": "google.com", "id_token": google], token: again).status == .ok)
            #expect(try await client.call("changeEmail", ["new_email": "moved@example.com"], token: again).status == .ok)
            let code = try await Self.code(to: "moved@example.com", in: server)
            #expect(try await client.call("unlinkProvider", ["provider": "password"], token: again).status == .ok)
            #expect(try await client.call("applyEmailChange", ["code": code]).errorCode == "INVALID_CODE")
            #expect(try await client.call("getAccount", token: again).data["email"] as? String == "owner@example.com")
        }
    }

    /// Email sends from `changeEmail` are limited per account: the sixth in an hour is refused and mails nothing.
    @Test func emailChangeIsRateLimited() async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(.sqlite, clock: clock) { server, client in
            let token = try #require(try await client.call("signUp", ["email": "busy@example.com", "password": "password-1"]).accessToken)
            for index in 1...5 {
                #expect(try await client.call("changeEmail", ["new_email": "busy\(index)@example.com"], token: token).status == .ok)
            }
            let limited = try await client.call("changeEmail", ["new_email": "busy6@example.com"], token: token)
            #expect(limited.errorCode == "RATE_LIMITED")
            #expect(try await server.auth.outbox.list().contains { $0.recipient == "busy6@example.com" } == false)
        }
    }

    /// SSO-only accounts cannot change their email: the seeds' sentence, naming the provider.
    @Test func emailOfAnSSOAccountIsManagedByTheProvider() async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(.sqlite, clock: clock) { _, client in
            let idToken = try await providers.token("google.com", sub: "g-sso", email: "sso@example.com", now: clock.now())
            let token = try #require(try await client.call("signInWithIdp", ["provider": "google.com", "id_token": idToken]).accessToken)
            _ = try await client.call("confirmAccountCreation", token: token)
            let refused = try await client.call("changeEmail", ["new_email": "other@example.com"], token: token)
            #expect(refused.status.code == 400)
            #expect(refused.errorCode == "EMAIL_MANAGED_BY_PROVIDER")
            #expect(refused.errorMessage == "Changing email is not possible when signed in with Google.")
        }
    }

    /// Forgot password: the same answer for unknown emails (only a real account gets mail), a single-use code
    /// that expires, every session revoked, limits that do not reveal whether the account exists.
    @Test(arguments: TestDatabases.engines)
    func passwordReset(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.call("signUp", ["email": "reset@example.com", "password": "password-1"])
            let oldRefresh = try #require(signUp.refreshToken)

            let known = try await client.call("sendPasswordReset", ["email": "Reset@Example.com"])
            let unknown = try await client.call("sendPasswordReset", ["email": "nobody@example.com"])
            #expect(known.status == .ok)
            #expect(unknown.status == known.status)
            #expect(unknown.json.keys.sorted() == known.json.keys.sorted())
            #expect(unknown.data.isEmpty && known.data.isEmpty)
            let mails = try await server.auth.outbox.list().filter { $0.kind == "password_reset" }
            #expect(mails.map(\.recipient) == ["reset@example.com"])
            let code = try await Self.code(to: "reset@example.com", kind: "password_reset", in: server)

            #expect(try await client.call("resetPassword", ["code": code, "new_password": "12345"]).errorCode == "WEAK_PASSWORD")
            #expect(try await client.call("resetPassword", ["code": "wrong", "new_password": "password-2"]).errorCode == "INVALID_CODE")
            #expect(try await client.call("resetPassword", ["code": code, "new_password": "password-2"]).status == .ok)
            #expect(try await client.call("resetPassword", ["code": code, "new_password": "password-3"]).errorCode == "INVALID_CODE")
            #expect(
                try await client.call("refreshToken", ["refresh_token": oldRefresh]).errorCode == "UNAUTHENTICATED", "every session ended")
            #expect(
                try await client.call("signIn", ["email": "reset@example.com", "password": "password-1"]).errorCode == "INVALID_CREDENTIAL")
            #expect(try await client.call("signIn", ["email": "reset@example.com", "password": "password-2"]).status == .ok)

            // A code past its hour is refused; a newer request replaces an older code.
            _ = try await client.call("sendPasswordReset", ["email": "reset@example.com"])
            let first = try await Self.code(to: "reset@example.com", kind: "password_reset", in: server)
            clock.advance(by: 1)
            _ = try await client.call("sendPasswordReset", ["email": "reset@example.com"])
            let second = try await Self.code(to: "reset@example.com", kind: "password_reset", in: server)
            #expect(first != second)
            #expect(try await client.call("resetPassword", ["code": first, "new_password": "password-4"]).errorCode == "INVALID_CODE")
            clock.advance(by: 3601)
            #expect(try await client.call("resetPassword", ["code": second, "new_password": "password-4"]).errorCode == "INVALID_CODE")

            // Five requests an hour per address, for known and unknown emails alike.
            clock.advance(by: 3600)
            for email in ["reset@example.com", "ghost@example.com"] {
                for _ in 0..<5 { #expect(try await client.call("sendPasswordReset", ["email": email]).status == .ok) }
                let limited = try await client.call("sendPasswordReset", ["email": email])
                #expect(limited.errorCode == "RATE_LIMITED")
                #expect(limited.status.code == 429)
            }
        }
    }

    /// Waits until no job is due or running (the server's own worker runs in the background too).
    static func settle(_ server: PovverServer, clock: FakeWallClock) async throws {
        try await eventually("every due job done") {
            try await server.dispatcher.dispatchPending()
            try await server.worker.drain()
            let now = clock.now().millisecondsSince1970
            let busy =
                try await server.database.sql.raw(
                    "SELECT COUNT(*) AS n FROM platform_jobs WHERE status = 'leased' OR (status = 'queued' AND run_at <= \(bind: now))"
                ).first(decodingColumn: "n", as: Int.self) ?? 0
            let pending =
                try await server.database.sql.raw("SELECT COUNT(*) AS n FROM platform_outbox WHERE dispatched_at IS NULL")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            return busy == 0 && pending == 0
        }
    }

    /// Runs both passes of an account deletion: settles, lets the second pass's delay go by, settles again.
    static func settleDeletion(_ server: PovverServer, clock: FakeWallClock) async throws {
        try await settle(server, clock: clock)
        clock.advance(by: AuthService.deletionSecondPassDelay)
        try await settle(server, clock: clock)
    }

    /// Every table of the database, and how many of its rows mention `needles` in any column.
    static func rowsMentioning(_ needles: [String], in database: Database) async throws -> [String: Int] {
        let sql = database.sql
        let tables: [String]
        switch database.engine {
        case .sqlite:
            tables = try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                .all(decodingColumn: "name", as: String.self)
        case .postgres:
            tables = try await sql.raw("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()")
                .all(decodingColumn: "name", as: String.self)
        }
        var found: [String: Int] = [:]
        for table in tables {
            let columns: [String]
            switch database.engine {
            case .sqlite:
                columns = try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))").all(
                    decodingColumn: "name", as: String.self)
            case .postgres:
                columns = try await sql.raw(
                    "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(bind: table)"
                ).all(decodingColumn: "name", as: String.self)
            }
            var conditions: [String] = []
            for column in columns {
                for needle in needles { conditions.append("CAST(\"\(column)\" AS TEXT) LIKE '%\(needle)%'") }
            }
            guard !conditions.isEmpty else { continue }
            let count =
                try await sql.raw(
                    SQLQueryString("SELECT COUNT(*) AS n FROM \"\(table)\" WHERE " + conditions.joined(separator: " OR "))
                ).first(decodingColumn: "n", as: Int.self) ?? 0
            if count > 0 { found[table] = count }
        }
        #expect(tables.count >= 20, "the scan sees every module's tables")
        return found
    }

    /// The checklist (docs/product.md): "Delete Account: warning → reauthenticate → account deleted … user gone from Auth and
    /// Firestore", and phase 4: "Delete account with Apple provider: token revocation called before deletion".
    /// Data in every module; afterwards no row of any table mentions the user.
    @Test(arguments: TestDatabases.engines)
    func deletionErasesEveryRowAndRevokesApple(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.signUpVerified(
                ["email": "gone@example.com", "password": "password-1", "name": "Gone"], server: server)
            var token = try #require(signUp.accessToken)
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let survivor = try #require(
                try await client.call("signUp", ["email": "stays@example.com", "password": "password-9"]).accessToken)

            // Apple linked with an authorization code: its refresh token is kept, sealed.
            let raw = "nonce-del"
            let appleToken = try await providers.token(
                "apple.com", sub: "a-gone", email: "relay@privaterelay.appleid.com", now: clock.now(),
                nonce: FakeIdentityProviders.nonceHash(raw))
            let linked = try await client.call(
                "linkProvider", ["provider": "apple.com", "id_token": appleToken, "raw_nonce": raw, "authorization_code": "code-gone"],
                token: token)
            #expect(Set(linked.data["providers"] as? [String] ?? []) == ["password", "apple.com"])
            #expect(providers.appleCalls.withLock { $0.exchanged } == ["code-gone"])
            let sealed = try await server.database.sql.raw(
                "SELECT sealed_refresh_token FROM auth_apple_tokens WHERE user_id = \(bind: userId)"
            )
            .first(decodingColumn: "sealed_refresh_token", as: String.self)
            #expect(sealed != nil && sealed?.contains("apple-rt") == false, "stored sealed, not in the clear")

            // Data in every module that exists: profile, device, workouts (template, routine, history, active
            // workout with a logged set), codes and mail, events and jobs.
            _ = try await client.call("registerDevice", ["device_id": "d1", "platform": "ios", "push_token": "p"], token: token)
            _ = try await client.call("updateUser", ["time_zone": "Europe/Helsinki"], token: token)
            let template = try await client.call(
                "createTemplate", ["name": "Mine", "exercises": [["exercise_id": WorkoutsFlowTests.squat, "sets": [["target_reps": 5]]]]],
                token: token)
            let templateId = try #require(template.data["id"] as? String)
            let routine = try await client.call("createRoutine", ["name": "R", "template_ids": [templateId]], token: token)
            _ = try await client.call("setActiveRoutine", ["routine_id": try #require(routine.data["id"] as? String)], token: token)
            let done = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s1"], token: token)
            let doneId = try #require(done.data["id"] as? String)
            let doneExercise = try #require((done.data["exercises"] as? [[String: Any]])?.first)
            let doneSet = try #require((doneExercise["sets"] as? [[String: Any]])?.first)
            _ = try await client.call(
                "logSet",
                [
                    "workout_id": doneId, "exercise_instance_id": try #require(doneExercise["instance_id"] as? String),
                    "set_id": try #require(doneSet["id"] as? String), "weight_kg": 90, "reps": 5, "idempotency_key": "l0",
                ], token: token)
            let archived = try await client.call("completeActiveWorkout", ["workout_id": doneId, "idempotency_key": "c1"], token: token)
            #expect(archived.status == .ok, "\(archived.json)")
            let live = try await client.call("startActiveWorkout", ["template_id": templateId, "idempotency_key": "s2"], token: token)
            let liveId = try #require(live.data["id"] as? String)
            let exercise = try #require((live.data["exercises"] as? [[String: Any]])?.first)
            let set = try #require((exercise["sets"] as? [[String: Any]])?.first)
            let logged = try await client.call(
                "logSet",
                [
                    "workout_id": liveId, "exercise_instance_id": try #require(exercise["instance_id"] as? String),
                    "set_id": try #require(set["id"] as? String), "weight_kg": 100, "reps": 5, "idempotency_key": "l1",
                ], token: token)
            #expect(logged.status == .ok)
            _ = try await client.call("sendPasswordReset", ["email": "gone@example.com"])
            #expect(try await client.call("getSubscriptionStatus", token: token).status == .ok)
            _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")
            try await Self.settle(server, clock: clock)
            let before = Set(try await Self.rowsMentioning([userId], in: server.database).keys)
            let expected: Set<String> = [
                "auth_users", "auth_profiles", "auth_devices", "auth_sessions", "auth_apple_tokens", "auth_codes", "auth_mail_outbox",
                "workouts_templates", "workouts_routines", "workouts_history", "workouts_active", "workouts_active_sets",
                "workouts_idempotency",
                "platform_outbox", "platform_jobs", "subscription_state", "subscription_events",
            ]
            #expect(expected.isSubset(of: before), "the user has data everywhere before deletion: missing \(expected.subtracting(before))")

            // Deletion needs a recent sign-in; re-authenticating gives one.
            clock.advance(by: 301)
            let firstRefresh = try #require(signUp.refreshToken)
            token = try #require(try await client.call("refreshToken", ["refresh_token": firstRefresh]).accessToken)
            let stale = try await client.call("deleteAccount", token: token)
            #expect(stale.errorCode == "REQUIRES_RECENT_LOGIN")
            let fresh = try #require(
                try await client.call("reauthenticate", ["provider": "password", "password": "password-1"], token: token).accessToken)
            #expect(try await client.call("deleteAccount", token: fresh).status == .ok)

            // From this moment the account cannot sign in, even before the job ran.
            #expect(
                try await client.call("signIn", ["email": "gone@example.com", "password": "password-1"]).errorCode == "INVALID_CREDENTIAL")
            #expect(try await client.call("getUser", token: fresh).errorCode == "UNAUTHENTICATED")
            let appleAgain = try await providers.token(
                "apple.com", sub: "a-gone", email: "relay@privaterelay.appleid.com", now: clock.now(),
                nonce: FakeIdentityProviders.nonceHash("n2"))
            #expect(
                try await client.call("signInWithIdp", ["provider": "apple.com", "id_token": appleAgain, "raw_nonce": "n2"]).errorCode
                    == "INVALID_CREDENTIAL")

            // The first pass erases everything but the deletion ticket.
            try await Self.settle(server, clock: clock)
            #expect(
                try await Self.rowsMentioning([userId, "gone@example.com", "privaterelay"], in: server.database) == ["auth_deletions": 1])
            // A request that was running when the deletion began commits afterwards (here: setActiveRoutine's row).
            try await server.database.sql.raw(
                "INSERT INTO workouts_user_settings (user_id, active_routine_id, updated_at) VALUES (\(bind: userId), NULL, 0)"
            ).run()
            #expect(try await client.call("getUser", token: survivor).status == .ok, "other users are untouched")
            // The second pass, ten minutes later, erases it too, and the ticket.
            clock.advance(by: AuthService.deletionSecondPassDelay)
            try await Self.settle(server, clock: clock)
            let errors = try await server.database.sql.raw("SELECT last_error FROM platform_jobs WHERE kind = 'auth.account_deletion'").all(
                decodingColumn: "last_error", as: String?.self)
            #expect(errors == [nil, nil], "both passes ran once, without an error")
            #expect(providers.appleCalls.withLock { $0.revoked } == ["apple-rt-code-gone"])
            #expect(providers.appleCalls.withLock { $0.badSecrets } == 0)
            let left = try await Self.rowsMentioning([userId, "gone@example.com", "privaterelay"], in: server.database)
            #expect(left.isEmpty, "rows still mention the deleted user: \(left)")
            let again = try #require(try await client.call("signIn", ["email": "stays@example.com", "password": "password-9"]).accessToken)
            #expect(try await client.call("getUser", token: again).status == .ok, "other users are untouched")
            // The email is free again.
            #expect(try await client.call("signUp", ["email": "gone@example.com", "password": "password-1"]).status == .ok)
        }
    }
}
