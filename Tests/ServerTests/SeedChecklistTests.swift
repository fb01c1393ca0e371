import Auth
import Contracts
import Fakes
import Foundation
import HTTPTypes
import Platform
import PovverApp
import SQLKit
import Synchronization
import TestSupport
import Testing

/// The account-management checklist (docs/product.md), phase by phase, as HTTP calls against the server. Google and Apple are
/// played by a local key set and a local fake of Apple's token and revoke endpoints. (Items about Xcode builds
/// and screens map to the server calls those screens make.)
@Suite struct SeedChecklistTests {
    let providers = FakeIdentityProviders()

    /// "After Phases 1-2 (email-only account management)".
    @Test(arguments: TestDatabases.engines)
    func phases1and2EmailOnlyAccountManagement(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let signUp = try await client.call("signUp", ["email": "pat@example.com", "password": "password-1", "name": "Pat"])
            var token = try #require(signUp.accessToken)
            let userId = try #require((signUp.data["user"] as? [String: Any])?["id"] as? String)

            // EmailChangeView: enter new email → "Send Verification" → success state shown.
            let sent = try await client.call("changeEmail", ["new_email": "pat.new@example.com"], token: token)
            #expect(sent.status == .ok)
            #expect(sent.data["verification_sent_to"] as? String == "pat.new@example.com")

            // Change Password: current + new → success (and fresh tokens; other sessions end).
            let changed = try await client.call(
                "changePassword", ["current_password": "password-1", "new_password": "password-2"], token: token)
            #expect(changed.status == .ok)
            token = try #require(changed.accessToken)
            #expect(
                try await client.call("refreshToken", ["refresh_token": try #require(signUp.refreshToken)]).errorCode == "UNAUTHENTICATED")

            // Linked Accounts: "Email" linked; Google/Apple available; unlink refused when only one provider.
            let account = try await client.call("getAccount", token: token)
            #expect((account.data["providers"] as? [[String: Any]])?.compactMap { $0["provider_id"] as? String } == ["password"])
            let last = try await client.call("unlinkProvider", ["provider": "password"], token: token)
            #expect(last.errorCode == "LAST_SIGN_IN_METHOD")

            // Delete Account: warning → reauthenticate with password → final confirm → account deleted.
            clock.advance(by: 301)
            #expect(try await client.call("deleteAccount", token: token).errorCode == "REQUIRES_RECENT_LOGIN")
            let reauth = try await client.call("reauthenticate", ["provider": "password", "password": "password-2"], token: token)
            token = try #require(reauth.accessToken)
            #expect(try await client.call("deleteAccount", token: token).status == .ok)

            // After delete: back to the login screen; the user is gone from Auth and from every module's data.
            #expect(try await client.call("getUser", token: token).errorCode == "UNAUTHENTICATED")
            #expect(
                try await client.call("signIn", ["email": "pat@example.com", "password": "password-2"]).errorCode == "INVALID_CREDENTIAL")
            try await AccountFlowTests.settleDeletion(server, clock: clock)
            #expect(try await AccountFlowTests.rowsMentioning([userId, "pat@example.com"], in: server.database).isEmpty)
        }
    }

    /// The request body of a Google or Apple sign-in (Apple with its nonce and, optionally, authorization code).
    func idp(_ provider: String, sub: String, email: String?, clock: FakeWallClock, code: String? = nil, name: String? = nil) async throws
        -> [String: Any]
    {
        let raw = "raw-\(UUID().uuidString)"
        let isApple = provider == "apple.com"
        let token = try await providers.token(
            provider, sub: sub, email: email, now: clock.now(), nonce: isApple ? FakeIdentityProviders.nonceHash(raw) : nil, name: name)
        var body: [String: Any] = ["provider": provider, "id_token": token]
        if isApple { body["raw_nonce"] = raw }
        if let code { body["authorization_code"] = code }
        return body
    }

    /// "After Phase 3 (Google Sign-In)" and "After Phase 4 (Apple Sign-In)": the same matrix for both, plus
    /// Apple's own items (email captured on first sign-in, authorization code kept, revocation at deletion).
    @Test(arguments: TestDatabases.engines, ["google.com", "apple.com"])
    func phases3and4ProviderSignIn(engine: SQLEngine, provider: String) async throws {
        let clock = FakeWallClock()
        let isApple = provider == "apple.com"
        let name = isApple ? "Apple" : "Google"
        try await providers.withFullServer(engine, clock: clock) { server, client in
            // Provider button → new user → "Create account?" → confirm → main screen.
            let first = try await client.call(
                "signInWithIdp",
                try await idp(
                    provider, sub: "sub-1", email: "first@example.com", clock: clock, code: isApple ? "code-first" : nil, name: "Quinn"))
            #expect(first.data["result"] as? String == "new_user")
            let pending = try #require(first.accessToken)
            let confirmed = try await client.call("confirmAccountCreation", token: pending)
            #expect(confirmed.status == .ok)
            let userId = try #require((confirmed.data["user"] as? [String: Any])?["id"] as? String)
            // User doc has provider "google.com" / "apple.com"; the first sign-in's email (and name) were kept.
            let profile = try await client.call("getUser", token: pending)
            #expect(profile.data["provider"] as? String == provider)
            #expect(profile.data["email"] as? String == "first@example.com")
            #expect(profile.data["name"] as? String == "Quinn")
            if isApple {
                // "apple_authorization_code stored": exchanged at sign-in for a refresh token, kept sealed.
                #expect(providers.appleCalls.withLock { $0.exchanged } == ["code-first"])
                let kept = try await server.database.sql.raw("SELECT COUNT(*) AS n FROM auth_apple_tokens WHERE user_id = \(bind: userId)")
                    .first(decodingColumn: "n", as: Int.self)
                #expect(kept == 1)
            }

            // Sign out → same account again → straight to main (no confirmation). Apple sends no email now.
            #expect(try await client.call("signOut", token: pending).status == .ok)
            let again = try await client.call(
                "signInWithIdp", try await idp(provider, sub: "sub-1", email: isApple ? nil : "first@example.com", clock: clock))
            #expect(again.data["result"] as? String == "existing_user")
            var token = try #require(again.accessToken)

            // Provider button → cancel confirmation → back to login, no user created, no error.
            let other = try await client.call(
                "signInWithIdp", try await idp(provider, sub: "sub-2", email: "cancel@example.com", clock: clock))
            let otherToken = try #require(other.accessToken)
            #expect(try await client.call("cancelAccountCreation", token: otherToken).status == .ok)
            #expect(try await server.auth.service.adminUsers(email: "cancel@example.com").isEmpty)

            // Email user → sign out → provider with the same email → friendly collision message.
            let emailUser = try await client.signUpVerified(["email": "rae@example.com", "password": "password-1"], server: server)
            let emailToken = try #require(emailUser.accessToken)
            _ = try await client.call("signOut", token: emailToken)
            let collision = try await client.call(
                "signInWithIdp", try await idp(provider, sub: "sub-rae", email: "rae@example.com", clock: clock))
            #expect(collision.errorCode == "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL")
            #expect(
                collision.errorMessage
                    == "An account with this email already exists. Please sign in with your original method, then link this provider in Settings."
            )

            // Email row greyed out, "managed by" the provider, for a provider-only user.
            let managed = try await client.call("changeEmail", ["new_email": "x@example.com"], token: token)
            #expect(managed.errorCode == "EMAIL_MANAGED_BY_PROVIDER")
            #expect(managed.errorMessage == "Changing email is not possible when signed in with \(name).")

            // Linked Accounts > Link provider → success, shows as linked (from the email user's side).
            let rae = try #require(try await client.call("signIn", ["email": "rae@example.com", "password": "password-1"]).accessToken)
            let linked = try await client.call(
                "linkProvider",
                try await idp(provider, sub: "sub-rae", email: "rae@example.com", clock: clock, code: isApple ? "code-rae" : nil),
                token: rae)
            #expect(Set(linked.data["providers"] as? [String] ?? []) == ["password", provider])
            // Someone else's provider account cannot be linked.
            let stolen = try await client.call("linkProvider", try await idp(provider, sub: "sub-1", email: nil, clock: clock), token: rae)
            #expect(stolen.errorCode == "CREDENTIAL_ALREADY_IN_USE")
            #expect(stolen.errorMessage == "This \(name) account is already linked to a different Povver account.")
            // Unlink provider (email still linked) → warning → confirm → unlinked.
            let unlinked = try await client.call("unlinkProvider", ["provider": provider], token: rae)
            #expect(unlinked.data["providers"] as? [String] == ["password"])
            if isApple {
                #expect(providers.appleCalls.withLock { $0.revoked } == ["apple-rt-code-rae"], "unlinking Apple revokes its token")
            }

            // Reauthenticate with the provider in the delete flow → works; deletion revokes Apple's token first.
            clock.advance(by: 301)
            #expect(try await client.call("deleteAccount", token: token).errorCode == "REQUIRES_RECENT_LOGIN")
            let reauth = try await client.call(
                "reauthenticate", try await idp(provider, sub: "sub-1", email: nil, clock: clock), token: token)
            #expect(reauth.status == .ok)
            token = try #require(reauth.accessToken)
            #expect(try await client.call("deleteAccount", token: token).status == .ok)
            try await AccountFlowTests.settleDeletion(server, clock: clock)
            if isApple {
                #expect(providers.appleCalls.withLock { $0.revoked } == ["apple-rt-code-rae", "apple-rt-code-first"])
            }
            #expect(try await AccountFlowTests.rowsMentioning([userId, "first@example.com"], in: server.database).isEmpty)
            let afterwards = try await client.call(
                "signInWithIdp", try await idp(provider, sub: "sub-1", email: "first@example.com", clock: clock))
            #expect(afterwards.data["result"] as? String == "new_user", "a deleted account starts over")
        }
    }
}
