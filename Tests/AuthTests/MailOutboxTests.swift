import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Auth

/// A code is never minted for a session that has ended, even one a replica still trusts for a moment (the lane
/// checks a cached status): `changeEmail` checks it again in its transaction, under the account's lock.
@Suite struct CodeMintingTests {
    @Test(arguments: TestDatabases.engines)
    func anEndedSessionMintsNoCode(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { db, clock, auth in
            let signedUp = try await auth.service.signUp(email: "owner@example.com", password: "password-1", name: nil, timeZone: nil)
            let userId = signedUp.user.id
            let sessionId = try #require(
                try await db.sql.raw("SELECT id FROM auth_sessions WHERE user_id = \(bind: userId)").first(
                    decodingColumn: "id", as: String.self))
            let principal = Principal(
                userId: userId, authTime: clock.now(), sessionId: sessionId, expiresAt: clock.now().addingTimeInterval(900))
            // Signed out everywhere through another replica.
            try await db.sql.raw("UPDATE auth_sessions SET revoked_at = 1, revoke_reason = 'sign_out_all' WHERE id = \(bind: sessionId)")
                .run()
            await #expect(throws: ServiceError(.unauthenticated, "Your session has ended. Please sign in again.")) {
                try await auth.service.changeEmail(principal: principal, newEmail: "late@example.com")
            }
            #expect(try await auth.outbox.list().filter { $0.kind == "verify_new_email" }.isEmpty)
            #expect(try await db.sql.raw("SELECT code_hash FROM auth_codes WHERE purpose = 'email_change'").all().isEmpty)
        }
    }
}

/// The mail outbox's leases: a sender that lost a message to another changes nothing of it, and a message
/// whose sender keeps stopping mid-attempt ends failed instead of going out forever.
@Suite struct MailOutboxTests {
    @Test(arguments: TestDatabases.engines)
    func aSenderThatLostItsLeaseChangesNothing(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { _, clock, auth in
            _ = try await auth.service.signUp(email: "lease@example.com", password: "password-1", name: nil, timeZone: nil)  // mails a code
            let slow = try #require(try await auth.outbox.claim())
            clock.advance(by: MailOutbox.lease + 1)
            let second = try #require(try await auth.outbox.claim())
            #expect(second.id == slow.id && second.attempt == 2)
            // The first sender finishes late either way: neither its success nor its failure touches the message.
            #expect(try await auth.outbox.markSent(id: slow.id, attempt: slow.attempt, transport: "smtp") == false)
            #expect(
                try await auth.outbox.markFailed(
                    id: slow.id, attempt: slow.attempt, error: MailDeliveryError(permanent: false, "late"), transport: "smtp") == false)
            var mail = try #require(try await auth.outbox.mail(id: slow.id))
            #expect(mail.status == "sending" && mail.attempts == 2 && mail.body.contains("oobCode="))
            #expect(try await auth.outbox.markSent(id: second.id, attempt: second.attempt, transport: "smtp"))
            mail = try #require(try await auth.outbox.mail(id: slow.id))
            #expect(mail.status == "sent" && mail.body.isEmpty)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aMessageWhoseSenderKeepsStoppingEndsFailed(engine: SQLEngine) async throws {
        try await AuthTesting.with(engine) { _, clock, auth in
            _ = try await auth.service.signUp(email: "stuck@example.com", password: "password-1", name: nil, timeZone: nil)  // mails a code
            for attempt in 1...MailOutbox.maxAttempts {
                let claimed = try #require(try await auth.outbox.claim(), "attempt \(attempt)")
                #expect(claimed.attempt == attempt)
                clock.advance(by: MailOutbox.lease + 1)  // the sender dies mid-attempt
            }
            #expect(try await auth.outbox.claim() == nil)
            let mail = try #require(try await auth.outbox.list().first)
            #expect(mail.status == "failed" && mail.attempts == MailOutbox.maxAttempts)
            #expect(mail.lastError?.contains("lease expired") == true)
            #expect(mail.body.isEmpty)
        }
    }
}
