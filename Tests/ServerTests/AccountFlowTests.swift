import Auth
import Contracts
import Fakes
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Platform
import PovverApp
import PovverClient
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
            let anonymous = client.api()
            let api = client.api(
                try await client.signUpVerified(email: "old@example.com", password: "password-1", server: server).tokens.accessToken)
            _ = try await client.signUp(email: "taken@example.com", password: "password-2")

            func change(_ api: Client, to email: String) async throws -> String {
                try await outcome { try await api.changeEmail(body: .json(.init(newEmail: email))).ok }
            }
            func apply(_ code: String) async throws -> String {
                try await outcome { try await anonymous.applyEmailChange(body: .json(.init(code: code))).ok }
            }
            #expect(try await change(api, to: "taken@example.com") == "EMAIL_ALREADY_IN_USE")
            #expect(try await change(api, to: "not-an-email") == "INVALID_ARGUMENT")
            let started = try await api.changeEmail(body: .json(.init(newEmail: "New@Example.com"))).ok.body.json.data
            #expect(started.verificationSentTo == "new@example.com")
            let code = try await Self.code(to: "new@example.com", in: server)
            #expect(
                try await server.auth.outbox.list().filter { $0.recipient == "old@example.com" && $0.kind == "email_changed" }.isEmpty,
                "nothing changed yet")
            #expect(try await api.getAccount().ok.body.json.data.email == "old@example.com")

            #expect(try await apply(code + "x") == "INVALID_CODE")
            let applied = try await anonymous.applyEmailChange(body: .json(.init(code: code))).ok.body.json.data
            #expect(applied.email == "new@example.com")
            let reused = try #require(await refused { try await anonymous.applyEmailChange(body: .json(.init(code: code))) })
            #expect(reused.code == "INVALID_CODE")
            #expect(reused.message == "This code is invalid or has expired. Please request a new one.")

            let account = try await api.getAccount().ok.body.json.data
            #expect(account.email == "new@example.com")
            #expect(account.emailVerified == true)
            let notice = try #require(
                try await server.auth.outbox.list().first { $0.recipient == "old@example.com" && $0.kind == "email_changed" })
            #expect(notice.kind == "email_changed")
            #expect(notice.body.contains("new@example.com"))
            _ = try await client.signIn(email: "new@example.com", password: "password-1")
            #expect(
                try await outcome { try await anonymous.signIn(body: .json(.init(email: "old@example.com", password: "password-1"))).ok }
                    == "INVALID_CREDENTIAL")

            // The log transport "delivers" what is queued; the message stays readable for developers.
            _ = try await server.auth.mailSender.deliverDue()
            #expect(try await server.auth.outbox.list().allSatisfy { $0.status == "sent" && $0.transport == "log" && !$0.body.isEmpty })

            // Expired code; then the recent-login window.
            let again = client.api(try await client.signIn(email: "new@example.com", password: "password-1").tokens.accessToken)
            _ = try await again.changeEmail(body: .json(.init(newEmail: "third@example.com"))).ok
            let late = try await Self.code(to: "third@example.com", in: server)
            clock.advance(by: 24 * 3600 + 1)
            #expect(try await apply(late) == "INVALID_CODE")
            let session = try await client.signIn(email: "new@example.com", password: "password-1").tokens
            _ = try await client.api(session.accessToken).changeEmail(body: .json(.init(newEmail: "fourth@example.com"))).ok
            clock.advance(by: 301)
            let refreshToken = try #require(session.refreshToken)
            let refreshed = client.api(
                try await anonymous.refreshToken(body: .json(.init(refreshToken: refreshToken))).ok.body.json.data.tokens.accessToken)
            // A refreshed token keeps the sign-in time: it is not a recent login.
            let old = try #require(await refused { try await refreshed.changeEmail(body: .json(.init(newEmail: "sixth@example.com"))) })
            #expect(old.code == "REQUIRES_RECENT_LOGIN")
            #expect(old.message == "For your security, please sign in again to continue.")
        }
    }

    /// Securing the account ends every code asked for before: a new password, signing out everywhere, a reset,
    /// an operator's revocation; and a changed email ends the reset code that went to the old address.
    @Test(arguments: TestDatabases.engines)
    func securingTheAccountEndsOutstandingCodes(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let anonymous = client.api()
            let signUp = try await client.signUp(email: "owner@example.com", password: "password-1")
            let userId = signUp.user.id
            var api = client.api(signUp.tokens.accessToken)
            /// A pending email change (to `address`) and a reset code (to the account's address).
            func outstanding(_ address: String, _ api: Client) async throws -> (change: String, reset: String) {
                clock.advance(by: 1)  // the newest mail to an address is the one listed first
                _ = try await api.changeEmail(body: .json(.init(newEmail: address))).ok
                _ = try await anonymous.sendPasswordReset(body: .json(.init(email: "owner@example.com"))).ok
                return (
                    try await Self.code(to: address, in: server),
                    try await Self.code(to: "owner@example.com", kind: "password_reset", in: server)
                )
            }
            func apply(_ code: String) async throws -> String {
                try await outcome { try await anonymous.applyEmailChange(body: .json(.init(code: code))).ok }
            }
            func reset(_ code: String, to password: String) async throws -> String {
                try await outcome { try await anonymous.resetPassword(body: .json(.init(code: code, newPassword: password))).ok }
            }
            func expectDead(_ codes: (change: String, reset: String), _ comment: Comment) async throws {
                #expect(try await apply(codes.change) == "INVALID_CODE", comment)
                #expect(try await reset(codes.reset, to: "password-x") == "INVALID_CODE", comment)
            }
            func signIn(_ password: String) async throws -> Client {
                client.api(try await client.signIn(email: "owner@example.com", password: password).tokens.accessToken)
            }

            var codes = try await outstanding("one@example.com", api)
            let changed = try await api.changePassword(body: .json(.init(currentPassword: "password-1", newPassword: "password-2"))).ok
            api = client.api(try changed.body.json.data.tokens.accessToken)
            try await expectDead(codes, "changePassword")

            codes = try await outstanding("two@example.com", api)
            _ = try await api.signOut(body: .json(.init(allSessions: true))).ok
            try await expectDead(codes, "signOut all_sessions")

            api = try await signIn("password-2")
            codes = try await outstanding("three@example.com", api)
            #expect(try await server.auth.service.revokeAllSessions(userId: userId) == 1)
            try await expectDead(codes, "operator's revocation")

            api = try await signIn("password-2")
            codes = try await outstanding("four@example.com", api)
            #expect(try await reset(codes.reset, to: "password-3") == "OK")
            #expect(try await apply(codes.change) == "INVALID_CODE", "resetPassword")

            api = try await signIn("password-3")
            codes = try await outstanding("five@example.com", api)
            #expect(try await apply(codes.change) == "OK")
            #expect(try await reset(codes.reset, to: "password-4") == "INVALID_CODE")
            _ = try await client.signIn(email: "five@example.com", password: "password-3")
            #expect(try await api.getAccount().ok.body.json.data.email == "five@example.com")
        }
    }

    /// Unlinking the password ends a pending email change (which only a password account may make).
    @Test(arguments: TestDatabases.engines)
    func unlinkingThePasswordEndsAPendingEmailChange(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(engine, clock: clock) { server, client in
            _ = try await client.signUpVerified(email: "owner@example.com", password: "password-1", server: server)
            let again = client.api(try await client.signIn(email: "owner@example.com", password: "password-1").tokens.accessToken)
            let google = try await providers.token("google.com", sub: "g-owner", email: "owner.g@example.com", now: clock.now())
            _ = try await again.linkProvider(body: .json(.init(idToken: google, provider: .google_com))).ok
            _ = try await again.changeEmail(body: .json(.init(newEmail: "moved@example.com"))).ok
            let code = try await Self.code(to: "moved@example.com", in: server)
            _ = try await again.unlinkProvider(body: .json(.init(provider: .password))).ok
            let anonymous = client.api()
            #expect(try await outcome { try await anonymous.applyEmailChange(body: .json(.init(code: code))).ok } == "INVALID_CODE")
            #expect(try await again.getAccount().ok.body.json.data.email == "owner@example.com")
        }
    }

    /// Email sends from `changeEmail` are limited per account: the sixth in an hour is refused and mails nothing.
    @Test func emailChangeIsRateLimited() async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(.sqlite, clock: clock) { server, client in
            let api = client.api(try await client.signUp(email: "busy@example.com", password: "password-1").tokens.accessToken)
            for index in 1...5 {
                _ = try await api.changeEmail(body: .json(.init(newEmail: "busy\(index)@example.com"))).ok
            }
            #expect(try await outcome { try await api.changeEmail(body: .json(.init(newEmail: "busy6@example.com"))).ok } == "RATE_LIMITED")
            #expect(try await server.auth.outbox.list().contains { $0.recipient == "busy6@example.com" } == false)
        }
    }

    /// SSO-only accounts cannot change their email: the seeds' sentence, naming the provider.
    @Test func emailOfAnSSOAccountIsManagedByTheProvider() async throws {
        let clock = FakeWallClock()
        let providers = self.providers
        try await providers.withFullServer(.sqlite, clock: clock) { _, client in
            let idToken = try await providers.token("google.com", sub: "g-sso", email: "sso@example.com", now: clock.now())
            let api = client.api(
                try await client.api().signInWithIdp(body: IdentityFlowTests.google(idToken)).ok.body.json.data.tokens.accessToken)
            _ = try await api.confirmAccountCreation()
            let refusal = try #require(await refused { try await api.changeEmail(body: .json(.init(newEmail: "other@example.com"))) })
            #expect(refusal.status == 400)
            #expect(refusal.code == "EMAIL_MANAGED_BY_PROVIDER")
            #expect(refusal.message == "Changing email is not possible when signed in with Google.")
        }
    }

    /// Forgot password: the same answer for unknown emails (only a real account gets mail), a single-use code
    /// that expires, every session revoked, limits that do not reveal whether the account exists.
    @Test(arguments: TestDatabases.engines)
    func passwordReset(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let api = client.api()
            let oldRefresh = try #require(try await client.signUp(email: "reset@example.com", password: "password-1").tokens.refreshToken)
            func sendReset(_ email: String) async throws -> Operations.SendPasswordReset.Output {
                try await api.sendPasswordReset(body: .json(.init(email: email)))
            }
            func reset(_ code: String, to password: String) async throws -> String {
                try await outcome { try await api.resetPassword(body: .json(.init(code: code, newPassword: password))).ok }
            }
            func signIn(_ password: String) async throws -> String {
                try await outcome { try await api.signIn(body: .json(.init(email: "reset@example.com", password: password))).ok }
            }

            let known = try await sendReset("Reset@Example.com").ok.body.json
            let unknown = try await sendReset("nobody@example.com").ok.body.json
            #expect(unknown == known)
            #expect(unknown.data.value.isEmpty && known.data.value.isEmpty)
            let mails = try await server.auth.outbox.list().filter { $0.kind == "password_reset" }
            #expect(mails.map(\.recipient) == ["reset@example.com"])
            let code = try await Self.code(to: "reset@example.com", kind: "password_reset", in: server)

            #expect(try await reset(code, to: "12345") == "WEAK_PASSWORD")
            #expect(try await reset("wrong", to: "password-2") == "INVALID_CODE")
            #expect(try await reset(code, to: "password-2") == "OK")
            #expect(try await reset(code, to: "password-3") == "INVALID_CODE")
            #expect(
                try await outcome { try await api.refreshToken(body: .json(.init(refreshToken: oldRefresh))).ok } == "UNAUTHENTICATED",
                "every session ended")
            #expect(try await signIn("password-1") == "INVALID_CREDENTIAL")
            #expect(try await signIn("password-2") == "OK")

            // A code past its hour is refused; a newer request replaces an older code.
            _ = try await sendReset("reset@example.com").ok
            let first = try await Self.code(to: "reset@example.com", kind: "password_reset", in: server)
            clock.advance(by: 1)
            _ = try await sendReset("reset@example.com").ok
            let second = try await Self.code(to: "reset@example.com", kind: "password_reset", in: server)
            #expect(first != second)
            #expect(try await reset(first, to: "password-4") == "INVALID_CODE")
            clock.advance(by: 3601)
            #expect(try await reset(second, to: "password-4") == "INVALID_CODE")

            // Five requests an hour per address, for known and unknown emails alike.
            clock.advance(by: 3600)
            for email in ["reset@example.com", "ghost@example.com"] {
                for _ in 0..<5 { _ = try await sendReset(email).ok }
                let limited = try #require(await refused { try await api.sendPasswordReset(body: .json(.init(email: email))) })
                #expect(limited.code == "RATE_LIMITED")
                #expect(limited.status == 429)
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
            let anonymous = client.api()
            let signUp = try await client.signUpVerified(email: "gone@example.com", password: "password-1", name: "Gone", server: server)
            let api = client.api(signUp.tokens.accessToken)
            let userId = signUp.user.id
            let survivor = client.api(try await client.signUp(email: "stays@example.com", password: "password-9").tokens.accessToken)

            // Apple linked with an authorization code: its refresh token is kept, sealed.
            let raw = "nonce-del"
            let appleToken = try await providers.token(
                "apple.com", sub: "a-gone", email: "relay@privaterelay.appleid.com", now: clock.now(),
                nonce: FakeIdentityProviders.nonceHash(raw))
            let linked = try await api.linkProvider(
                body: .json(.init(authorizationCode: "code-gone", idToken: appleToken, provider: .apple_com, rawNonce: raw))
            ).ok.body.json.data
            #expect(Set(linked.providers) == [.password, .apple_com])
            #expect(providers.appleCalls.withLock { $0.exchanged } == ["code-gone"])
            let sealed = try await server.database.sql.raw(
                "SELECT sealed_refresh_token FROM auth_apple_tokens WHERE user_id = \(bind: userId)"
            )
            .first(decodingColumn: "sealed_refresh_token", as: String.self)
            #expect(sealed != nil && sealed?.contains("apple-rt") == false, "stored sealed, not in the clear")

            // Data in every module that exists: profile, device, workouts (template, routine, history, active
            // workout with a logged set), codes and mail, events and jobs.
            _ = try await api.registerDevice(body: .json(.init(deviceId: "d1", platform: .ios, pushToken: "p")))
            _ = try await api.updateUser(body: .json(.init(timeZone: .europeHelsinki)))
            let templateId = try await api.createTemplate(
                body: .json(.init(exercises: [.init(exerciseId: WorkoutsFlowTests.squat, sets: [.init(targetReps: 5)])], name: "Mine"))
            ).ok.body.json.data.id
            let routineId = try await api.createRoutine(body: .json(.init(name: "R", templateIds: [templateId]))).ok.body.json.data.id
            _ = try await api.setActiveRoutine(body: .json(.init(routineId: routineId)))
            let done = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", templateId: templateId))).ok.body.json.data
            let doneExercise = try #require(done.exercises.first)
            let doneSet = try #require(doneExercise.sets.first)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: doneExercise.instanceId, idempotencyKey: "l0", reps: 5, setId: doneSet.id, weightKg: 90,
                        workoutId: done.id)))
            _ = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: done.id))).ok
            let live = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s2", templateId: templateId))).ok.body.json.data
            let exercise = try #require(live.exercises.first)
            let set = try #require(exercise.sets.first)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: exercise.instanceId, idempotencyKey: "l1", reps: 5, setId: set.id, weightKg: 100,
                        workoutId: live.id))
            ).ok
            _ = try await anonymous.sendPasswordReset(body: .json(.init(email: "gone@example.com")))
            _ = try await api.getSubscriptionStatus().ok
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
            let firstRefresh = try #require(signUp.tokens.refreshToken)
            let refreshed = client.api(
                try await anonymous.refreshToken(body: .json(.init(refreshToken: firstRefresh))).ok.body.json.data.tokens.accessToken)
            #expect(try await outcome { try await refreshed.deleteAccount().ok } == "REQUIRES_RECENT_LOGIN")
            let fresh = client.api(
                try await refreshed.reauthenticate(body: .json(.init(password: "password-1", provider: .password))).ok.body.json.data
                    .tokens.accessToken)
            _ = try await fresh.deleteAccount().ok

            // From this moment the account cannot sign in, even before the job ran.
            #expect(
                try await outcome { try await anonymous.signIn(body: .json(.init(email: "gone@example.com", password: "password-1"))).ok }
                    == "INVALID_CREDENTIAL")
            #expect(try await outcome { try await fresh.getUser().ok } == "UNAUTHENTICATED")
            let appleAgain = try await providers.token(
                "apple.com", sub: "a-gone", email: "relay@privaterelay.appleid.com", now: clock.now(),
                nonce: FakeIdentityProviders.nonceHash("n2"))
            #expect(
                try await outcome { try await anonymous.signInWithIdp(body: IdentityFlowTests.apple(appleAgain, nonce: "n2")).ok }
                    == "INVALID_CREDENTIAL")

            // The first pass erases everything but the deletion ticket.
            try await Self.settle(server, clock: clock)
            #expect(
                try await Self.rowsMentioning([userId, "gone@example.com", "privaterelay"], in: server.database) == ["auth_deletions": 1])
            // A request that was running when the deletion began commits afterwards (here: setActiveRoutine's row).
            try await server.database.sql.raw(
                "INSERT INTO workouts_user_settings (user_id, active_routine_id, updated_at) VALUES (\(bind: userId), NULL, 0)"
            ).run()
            _ = try await survivor.getUser().ok  // other users are untouched
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
            let again = try await client.signIn(email: "stays@example.com", password: "password-9").tokens.accessToken
            _ = try await client.api(again).getUser().ok  // other users are untouched
            // The email is free again.
            _ = try await client.signUp(email: "gone@example.com", password: "password-1")
        }
    }
}
