import Auth
import Contracts
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
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
            let signUp = try await client.api().signUp(body: .json(.init(email: "pat@example.com", name: "Pat", password: "password-1"))).ok
                .body.json.data
            var token = signUp.tokens.accessToken
            let userId = signUp.user.id

            // EmailChangeView: enter new email → "Send Verification" → success state shown.
            let sent = try await client.api(token).changeEmail(body: .json(.init(newEmail: "pat.new@example.com"))).ok.body.json.data
            #expect(sent.verificationSentTo == "pat.new@example.com")

            // Change Password: current + new → success (and fresh tokens; other sessions end).
            let changed = try await client.api(token).changePassword(
                body: .json(.init(currentPassword: "password-1", newPassword: "password-2"))
            ).ok.body.json.data
            token = changed.tokens.accessToken
            let oldRefresh = try #require(signUp.tokens.refreshToken)
            let refreshed = try #require(
                await refused { try await client.api().refreshToken(body: .json(.init(refreshToken: oldRefresh))) })
            #expect(refreshed.code == "UNAUTHENTICATED")

            // Linked Accounts: "Email" linked; Google/Apple available; unlink refused when only one provider.
            let account = try await client.api(token).getAccount(body: .json(.init())).ok.body.json.data
            #expect(account.providers.map(\.providerId) == ["password"])
            let signedIn = token
            let last = try #require(
                await refused { try await client.api(signedIn).unlinkProvider(body: .json(.init(provider: .password))) })
            #expect(last.code == "LAST_SIGN_IN_METHOD")

            // Delete Account: warning → reauthenticate with password → final confirm → account deleted.
            clock.advance(by: 301)
            let stale = try #require(await refused { try await client.api(signedIn).deleteAccount(body: .json(.init())) })
            #expect(stale.code == "REQUIRES_RECENT_LOGIN")
            let reauth = try await client.api(token).reauthenticate(body: .json(.init(password: "password-2", provider: .password))).ok
            token = try reauth.body.json.data.tokens.accessToken
            let recent = token
            _ = try await client.api(recent).deleteAccount(body: .json(.init())).ok

            // After delete: back to the login screen; the user is gone from Auth and from every module's data.
            #expect(try #require(await refused { try await client.api(recent).getUser(body: .json(.init())) }).code == "UNAUTHENTICATED")
            let signIn = try #require(
                await refused { try await client.api().signIn(body: .json(.init(email: "pat@example.com", password: "password-2"))) })
            #expect(signIn.code == "INVALID_CREDENTIAL")
            try await AccountFlowTests.settleDeletion(server, clock: clock)
            #expect(try await AccountFlowTests.rowsMentioning([userId, "pat@example.com"], in: server.database).isEmpty)
        }
    }

    /// What a Google or Apple sign-in sends (Apple with its nonce and, optionally, authorization code), as each call
    /// that takes it says it.
    struct IdentityProof: Sendable {
        var provider: String
        var idToken: String
        var rawNonce: String?
        var authorizationCode: String?

        var signIn: Operations.SignInWithIdp.Input.Body.JsonPayload {
            get throws {
                .init(
                    authorizationCode: authorizationCode, idToken: idToken, provider: try #require(.init(rawValue: provider)),
                    rawNonce: rawNonce)
            }
        }
        var link: Operations.LinkProvider.Input.Body.JsonPayload {
            get throws {
                .init(
                    authorizationCode: authorizationCode, idToken: idToken, provider: try #require(.init(rawValue: provider)),
                    rawNonce: rawNonce)
            }
        }
        var reauthentication: Operations.Reauthenticate.Input.Body.JsonPayload {
            get throws { .init(idToken: idToken, provider: try #require(.init(rawValue: provider)), rawNonce: rawNonce) }
        }
    }

    /// The proof of a Google or Apple sign-in (Apple with its nonce and, optionally, authorization code).
    func idp(_ provider: String, sub: String, email: String?, clock: FakeWallClock, code: String? = nil, name: String? = nil) async throws
        -> IdentityProof
    {
        let raw = "raw-\(UUID().uuidString)"
        let isApple = provider == "apple.com"
        let token = try await providers.token(
            provider, sub: sub, email: email, now: clock.now(), nonce: isApple ? FakeIdentityProviders.nonceHash(raw) : nil, name: name)
        return IdentityProof(provider: provider, idToken: token, rawNonce: isApple ? raw : nil, authorizationCode: code)
    }

    /// Signs up and confirms the address with the code mailed at sign-up, as a user does before linking Google or
    /// Apple. Answers the sign-up's access token.
    static func verifiedSignUp(_ client: some TestClientProtocol, email: String, password: String, server: PovverServer) async throws
        -> String
    {
        let token = try await client.api().signUp(body: .json(.init(email: email, password: password))).ok.body.json.data.tokens.accessToken
        let code = try await AccountFlowTests.code(to: email, kind: "verify_email", in: server)
        let verified = try await client.api(token).verifyEmail(body: .json(.init(code: code))).ok.body.json.data
        #expect(verified.emailVerified, "\(verified)")
        return token
    }

    /// "After Phase 3 (Google Sign-In)" and "After Phase 4 (Apple Sign-In)": the same matrix for both, plus
    /// Apple's own items (email captured on first sign-in, authorization code kept, revocation at deletion).
    @Test(arguments: TestDatabases.engines, ["google.com", "apple.com"])
    func phases3and4ProviderSignIn(engine: SQLEngine, provider: String) async throws {
        let clock = FakeWallClock()
        let isApple = provider == "apple.com"
        let name = isApple ? "Apple" : "Google"
        try await providers.withFullServer(engine, clock: clock) { server, client in
            let api = client.api()
            // Provider button → new user → "Create account?" → confirm → main screen.
            let first = try await api.signInWithIdp(
                body: .json(
                    try await idp(
                        provider, sub: "sub-1", email: "first@example.com", clock: clock, code: isApple ? "code-first" : nil, name: "Quinn"
                    ).signIn)
            ).ok.body.json.data
            #expect(first.result == .newUser)
            let pending = first.tokens.accessToken
            let confirmed = try await client.api(pending).confirmAccountCreation(body: .json(.init())).ok.body.json.data
            let userId = confirmed.user.id
            // User doc has provider "google.com" / "apple.com"; the first sign-in's email (and name) were kept.
            let profile = try await client.api(pending).getUser(body: .json(.init())).ok.body.json.data
            #expect(profile.provider.rawValue == provider)
            #expect(profile.email == "first@example.com")
            #expect(profile.name == "Quinn")
            if isApple {
                // "apple_authorization_code stored": exchanged at sign-in for a refresh token, kept sealed.
                #expect(providers.appleCalls.withLock { $0.exchanged } == ["code-first"])
                let kept = try await server.database.sql.raw("SELECT COUNT(*) AS n FROM auth_apple_tokens WHERE user_id = \(bind: userId)")
                    .first(decodingColumn: "n", as: Int.self)
                #expect(kept == 1)
            }

            // Sign out → same account again → straight to main (no confirmation). Apple sends no email now.
            _ = try await client.api(pending).signOut(body: .json(.init())).ok
            let again = try await api.signInWithIdp(
                body: .json(try await idp(provider, sub: "sub-1", email: isApple ? nil : "first@example.com", clock: clock).signIn)
            ).ok.body.json.data
            #expect(again.result == .existingUser)
            var token = again.tokens.accessToken

            // Provider button → cancel confirmation → back to login, no user created, no error.
            let other = try await api.signInWithIdp(
                body: .json(try await idp(provider, sub: "sub-2", email: "cancel@example.com", clock: clock).signIn)
            ).ok.body.json.data
            _ = try await client.api(other.tokens.accessToken).cancelAccountCreation(body: .json(.init())).ok
            #expect(try await server.auth.service.adminUsers(email: "cancel@example.com").isEmpty)

            // Email user → sign out → provider with the same email → friendly collision message.
            let emailToken = try await Self.verifiedSignUp(client, email: "rae@example.com", password: "password-1", server: server)
            _ = try await client.api(emailToken).signOut(body: .json(.init())).ok
            let raeProof = try await idp(provider, sub: "sub-rae", email: "rae@example.com", clock: clock).signIn
            let collision = try #require(await refused { try await api.signInWithIdp(body: .json(raeProof)) })
            #expect(collision.code == "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL")
            #expect(
                collision.message
                    == "An account with this email already exists. Please sign in with your original method, then link this provider in Settings."
            )

            // Email row greyed out, "managed by" the provider, for a provider-only user.
            let providerUser = token
            let managed = try #require(
                await refused { try await client.api(providerUser).changeEmail(body: .json(.init(newEmail: "x@example.com"))) })
            #expect(managed.code == "EMAIL_MANAGED_BY_PROVIDER")
            #expect(managed.message == "Changing email is not possible when signed in with \(name).")

            // Linked Accounts > Link provider → success, shows as linked (from the email user's side).
            let rae = client.api(
                try await api.signIn(body: .json(.init(email: "rae@example.com", password: "password-1"))).ok.body.json.data.tokens
                    .accessToken)
            let linked = try await rae.linkProvider(
                body: .json(
                    try await idp(provider, sub: "sub-rae", email: "rae@example.com", clock: clock, code: isApple ? "code-rae" : nil).link)
            ).ok.body.json.data
            #expect(Set(linked.providers.map(\.rawValue)) == ["password", provider])
            // Someone else's provider account cannot be linked.
            let someoneElses = try await idp(provider, sub: "sub-1", email: nil, clock: clock).link
            let stolen = try #require(await refused { try await rae.linkProvider(body: .json(someoneElses)) })
            #expect(stolen.code == "CREDENTIAL_ALREADY_IN_USE")
            #expect(stolen.message == "This \(name) account is already linked to a different Povver account.")
            // Unlink provider (email still linked) → warning → confirm → unlinked.
            let unlinked = try await rae.unlinkProvider(body: .json(.init(provider: try #require(.init(rawValue: provider))))).ok.body.json
                .data
            #expect(unlinked.providers.map(\.rawValue) == ["password"])
            if isApple {
                #expect(providers.appleCalls.withLock { $0.revoked } == ["apple-rt-code-rae"], "unlinking Apple revokes its token")
            }

            // Reauthenticate with the provider in the delete flow → works; deletion revokes Apple's token first.
            clock.advance(by: 301)
            let stale = try #require(await refused { try await client.api(providerUser).deleteAccount(body: .json(.init())) })
            #expect(stale.code == "REQUIRES_RECENT_LOGIN")
            let reauth = try await client.api(token).reauthenticate(
                body: .json(try await idp(provider, sub: "sub-1", email: nil, clock: clock).reauthentication)
            ).ok.body.json.data
            token = reauth.tokens.accessToken
            _ = try await client.api(token).deleteAccount(body: .json(.init())).ok
            try await AccountFlowTests.settleDeletion(server, clock: clock)
            if isApple {
                #expect(providers.appleCalls.withLock { $0.revoked } == ["apple-rt-code-rae", "apple-rt-code-first"])
            }
            #expect(try await AccountFlowTests.rowsMentioning([userId, "first@example.com"], in: server.database).isEmpty)
            let afterwards = try await api.signInWithIdp(
                body: .json(try await idp(provider, sub: "sub-1", email: "first@example.com", clock: clock).signIn)
            ).ok.body.json.data
            #expect(afterwards.result == .newUser, "a deleted account starts over")
        }
    }
}
