import Auth
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime
import Platform
import PovverApp
import PovverClient
import SQLKit
import TestSupport
import Testing

/// A password sign-up's address is confirmed with a code mailed at sign-up (`verifyEmail`), sent again on request
/// (`resendEmailVerification`, rate-limited); until then the account cannot add a way in or a device.
@Suite struct EmailVerificationFlowTests {
    let providers = FakeIdentityProviders()

    /// The code goes to the address at sign-up; a wrong one, or another account's, is refused; the right one
    /// verifies the address, works once, and a second tap answers the same.
    @Test(arguments: TestDatabases.engines)
    func signUpMailsACodeThatVerifiesTheEmail(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.signUp(email: "Pat@Example.com", password: "password-1")
            #expect(signUp.user.emailVerified == false)
            let token = signUp.tokens.accessToken
            let api = client.api(token)
            let other = client.api(try await client.signUp(email: "sam@example.com", password: "password-2").tokens.accessToken)

            let mail = try #require(try await server.auth.outbox.list().first { $0.recipient == "pat@example.com" })
            #expect(mail.kind == "verify_email")
            #expect(mail.subject == "Confirm your email for Povver")
            #expect(mail.body.contains("povver://auth/action?mode=verifyEmail&oobCode="))
            let code = try await AccountFlowTests.code(to: "pat@example.com", kind: "verify_email", in: server)
            let stored = try await server.database.sql.raw("SELECT code_hash FROM auth_codes").all(
                decodingColumn: "code_hash", as: String.self)
            #expect(stored.count == 2 && !stored.contains(code), "stored as digests")

            let wrong = try #require(await refused { try await api.verifyEmail(body: .json(.init(code: code + "x"))) })
            #expect(wrong.code == "INVALID_CODE" && wrong.status == 400, "\(wrong)")
            #expect(
                try await outcome { try await other.verifyEmail(body: .json(.init(code: code))).ok } == "INVALID_CODE",
                "another account's code")
            #expect(try await other.getAccount().ok.body.json.data.emailVerified == false)
            #expect(try await api.getAccount().ok.body.json.data.emailVerified == false)

            // The answer's exact members are what this checks, so it is read as JSON.
            let verified = try await client.send("verifyEmail", ["code": .string(code)], token: token)
            #expect(verified.status == .ok, "\(verified.body)")
            #expect(verified.data == ["email_verified": true])
            #expect(try await api.getAccount().ok.body.json.data.emailVerified == true)
            #expect(try await client.signIn(email: "pat@example.com", password: "password-1").user.emailVerified == true)
            #expect(try await api.verifyEmail(body: .json(.init(code: code))).ok.body.json.data.emailVerified == true, "a double tap")
            // Verified, the account may add a way in and a device.
            let google = try await providers.token("google.com", sub: "g-pat", email: "pat.g@example.com", now: clock.now())
            _ = try await api.linkProvider(body: .json(.init(idToken: google, provider: .google_com))).ok
            _ = try await api.registerDevice(body: .json(.init(deviceId: "d1", platform: .ios, pushToken: "p"))).ok
        }
    }

    /// A code expires after 24 hours; a new one replaces the previous; an address already verified gets no mail.
    @Test(arguments: TestDatabases.engines)
    func codesExpireAndAResentCodeReplacesThePrevious(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            _ = try await client.signUp(email: "lee@example.com", password: "password-1")
            let first = try await AccountFlowTests.code(to: "lee@example.com", kind: "verify_email", in: server)
            clock.advance(by: 24 * 3600 + 1)
            let session = client.api(try await client.signIn(email: "lee@example.com", password: "password-1").tokens.accessToken)
            #expect(try await outcome { try await session.verifyEmail(body: .json(.init(code: first))).ok } == "INVALID_CODE", "expired")

            let resent = try await session.resendEmailVerification().ok.body.json
            #expect(resent.data.value.isEmpty, "\(resent)")
            let second = try await AccountFlowTests.code(to: "lee@example.com", kind: "verify_email", in: server)
            clock.advance(by: 1)
            _ = try await session.resendEmailVerification().ok
            let third = try await AccountFlowTests.code(to: "lee@example.com", kind: "verify_email", in: server)
            #expect(Set([first, second, third]).count == 3)
            #expect(try await outcome { try await session.verifyEmail(body: .json(.init(code: second))).ok } == "INVALID_CODE", "replaced")
            #expect(try await session.verifyEmail(body: .json(.init(code: third))).ok.body.json.data.emailVerified == true)

            let mails = try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count
            _ = try await session.resendEmailVerification().ok
            #expect(try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count == mails, "nothing to verify any more")
        }
    }

    /// `resendEmailVerification` allows 5 mails per account an hour: the sixth is `RATE_LIMITED` and mails nothing.
    @Test(arguments: TestDatabases.engines)
    func resendingIsRateLimited(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let api = client.api(try await client.signUp(email: "kim@example.com", password: "password-1").tokens.accessToken)
            for round in 1...5 {
                clock.advance(by: 1)  // the newest mail is the one listed first
                #expect(try await outcome { try await api.resendEmailVerification().ok } == "OK", "round \(round)")
            }
            let mails = try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count
            #expect(mails == 6, "the sign-up's and five more")
            let limited = try #require(await refused { try await api.resendEmailVerification() })
            #expect(limited.code == "RATE_LIMITED" && limited.status == 429, "\(limited)")
            #expect(limited.details["retry_after_seconds"] != nil)
            #expect(try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count == mails)
            // The latest code still works.
            let code = try await AccountFlowTests.code(to: "kim@example.com", kind: "verify_email", in: server)
            #expect(try await api.verifyEmail(body: .json(.init(code: code))).ok.body.json.data.emailVerified == true)
        }
    }

    /// Verifying is the user's own business: the service lane (an agent) is refused, and the routes are documented.
    @Test func onlyTheUsersOwnSessionVerifiesAndTheDocumentSaysSo() async throws {
        try await TestServer.with(.sqlite) { server, client in
            let userId = try await client.signUp(email: "own@example.com", password: "password-1").user.id
            let lane = client.api(headers: serviceLane(userId))
            let code = try await AccountFlowTests.code(to: "own@example.com", kind: "verify_email", in: server)
            #expect(try await outcome { try await lane.verifyEmail(body: .json(.init(code: code))).ok } == "PERMISSION_DENIED")
            #expect(try await outcome { try await lane.resendEmailVerification().ok } == "PERMISSION_DENIED")
            let anonymous = client.api()
            #expect(try await outcome { try await anonymous.verifyEmail(body: .json(.init(code: code))).ok } == "UNAUTHENTICATED")
            #expect(try await lane.getAccount().ok.body.json.data.emailVerified == false)

            let paths = try await OperationsTests.document(client)["paths"]
            let verify = try #require(paths?["/verifyEmail"]?["post"])
            let text = String(decoding: try JSONEncoder().encode(verify), as: UTF8.self)
            #expect(text.contains("\"code\"") && text.contains("email_verified"))
            #expect(paths?["/resendEmailVerification"]?["post"] != nil)
        }
    }
}
