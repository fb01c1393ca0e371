import Auth
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
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
            let signUp = try await client.call("signUp", ["email": "Pat@Example.com", "password": "password-1"])
            #expect((signUp.data["user"] as? [String: Any])?["email_verified"] as? Bool == false)
            let token = try #require(signUp.accessToken)
            let other = try #require(try await client.call("signUp", ["email": "sam@example.com", "password": "password-2"]).accessToken)

            let mail = try #require(try await server.auth.outbox.list().first { $0.recipient == "pat@example.com" })
            #expect(mail.kind == "verify_email")
            #expect(mail.subject == "Confirm your email for Povver")
            #expect(mail.body.contains("povver://auth/action?mode=verifyEmail&oobCode="))
            let code = try await AccountFlowTests.code(to: "pat@example.com", kind: "verify_email", in: server)
            let stored = try await server.database.sql.raw("SELECT code_hash FROM auth_codes").all(
                decodingColumn: "code_hash", as: String.self)
            #expect(stored.count == 2 && !stored.contains(code), "stored as digests")

            let wrong = try await client.call("verifyEmail", ["code": code + "x"], token: token)
            #expect(wrong.errorCode == "INVALID_CODE" && wrong.status == .badRequest, "\(wrong.json)")
            #expect(
                try await client.call("verifyEmail", ["code": code], token: other).errorCode == "INVALID_CODE", "another account's code")
            #expect(try await client.call("getAccount", token: other).data["email_verified"] as? Bool == false)
            #expect(try await client.call("getAccount", token: token).data["email_verified"] as? Bool == false)

            let verified = try await client.call("verifyEmail", ["code": code], token: token)
            #expect(verified.status == .ok, "\(verified.json)")
            #expect(verified.data.keys.sorted() == ["email_verified"] && verified.data["email_verified"] as? Bool == true)
            #expect(try await client.call("getAccount", token: token).data["email_verified"] as? Bool == true)
            let signIn = try await client.call("signIn", ["email": "pat@example.com", "password": "password-1"])
            #expect((signIn.data["user"] as? [String: Any])?["email_verified"] as? Bool == true)
            #expect(
                try await client.call("verifyEmail", ["code": code], token: token).data["email_verified"] as? Bool == true, "a double tap")
            // Verified, the account may add a way in and a device.
            let google = try await providers.token("google.com", sub: "g-pat", email: "pat.g@example.com", now: clock.now())
            #expect(try await client.call("linkProvider", ["provider": "google.com", "id_token": google], token: token).status == .ok)
            #expect(
                try await client.call("registerDevice", ["device_id": "d1", "platform": "ios", "push_token": "p"], token: token).status
                    == .ok)
        }
    }

    /// A code expires after 24 hours; a new one replaces the previous; an address already verified gets no mail.
    @Test(arguments: TestDatabases.engines)
    func codesExpireAndAResentCodeReplacesThePrevious(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            _ = try await client.call("signUp", ["email": "lee@example.com", "password": "password-1"])
            let first = try await AccountFlowTests.code(to: "lee@example.com", kind: "verify_email", in: server)
            clock.advance(by: 24 * 3600 + 1)
            let session = try #require(try await client.call("signIn", ["email": "lee@example.com", "password": "password-1"]).accessToken)
            #expect(try await client.call("verifyEmail", ["code": first], token: session).errorCode == "INVALID_CODE", "expired")

            let resent = try await client.call("resendEmailVerification", token: session)
            #expect(resent.status == .ok && resent.data.isEmpty, "\(resent.json)")
            let second = try await AccountFlowTests.code(to: "lee@example.com", kind: "verify_email", in: server)
            clock.advance(by: 1)
            #expect(try await client.call("resendEmailVerification", token: session).status == .ok)
            let third = try await AccountFlowTests.code(to: "lee@example.com", kind: "verify_email", in: server)
            #expect(Set([first, second, third]).count == 3)
            #expect(try await client.call("verifyEmail", ["code": second], token: session).errorCode == "INVALID_CODE", "replaced")
            #expect(try await client.call("verifyEmail", ["code": third], token: session).data["email_verified"] as? Bool == true)

            let mails = try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count
            #expect(try await client.call("resendEmailVerification", token: session).status == .ok)
            #expect(try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count == mails, "nothing to verify any more")
        }
    }

    /// `resendEmailVerification` allows 5 mails per account an hour: the sixth is `RATE_LIMITED` and mails nothing.
    @Test(arguments: TestDatabases.engines)
    func resendingIsRateLimited(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let token = try #require(try await client.call("signUp", ["email": "kim@example.com", "password": "password-1"]).accessToken)
            for round in 1...5 {
                clock.advance(by: 1)  // the newest mail is the one listed first
                #expect(try await client.call("resendEmailVerification", token: token).status == .ok, "round \(round)")
            }
            let mails = try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count
            #expect(mails == 6, "the sign-up's and five more")
            let limited = try await client.call("resendEmailVerification", token: token)
            #expect(limited.errorCode == "RATE_LIMITED" && limited.status.code == 429, "\(limited.json)")
            #expect(limited.errorDetails?["retry_after_seconds"] != nil)
            #expect(try await server.auth.outbox.list().filter { $0.kind == "verify_email" }.count == mails)
            // The latest code still works.
            let code = try await AccountFlowTests.code(to: "kim@example.com", kind: "verify_email", in: server)
            #expect(try await client.call("verifyEmail", ["code": code], token: token).data["email_verified"] as? Bool == true)
        }
    }

    /// Verifying is the user's own business: the service lane (an agent) is refused, and the routes are documented.
    @Test func onlyTheUsersOwnSessionVerifiesAndTheDocumentSaysSo() async throws {
        try await TestServer.with(.sqlite) { server, client in
            let signUp = try await client.call("signUp", ["email": "own@example.com", "password": "password-1"])
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)
            let lane: HTTPFields = [HTTPField.Name("X-API-Key")!: "test-service-key", HTTPField.Name("X-User-Id")!: userId]
            let code = try await AccountFlowTests.code(to: "own@example.com", kind: "verify_email", in: server)
            #expect(try await client.call("verifyEmail", ["code": code], headers: lane).errorCode == "PERMISSION_DENIED")
            #expect(try await client.call("resendEmailVerification", headers: lane).errorCode == "PERMISSION_DENIED")
            #expect(try await client.call("verifyEmail", ["code": code]).errorCode == "UNAUTHENTICATED")
            #expect(try await client.call("getAccount", headers: lane).data["email_verified"] as? Bool == false)

            let response = try await client.get("/openapi.json")
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let verify = try #require(paths["/verifyEmail"]?["post"] as? [String: Any])
            let text = String(decoding: try JSONSerialization.data(withJSONObject: verify), as: UTF8.self)
            #expect(text.contains("\"code\"") && text.contains("email_verified"))
            #expect(paths["/resendEmailVerification"]?["post"] != nil)
        }
    }
}
