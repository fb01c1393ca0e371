import Contracts
import Foundation
import Logging
import Platform
import SQLKit

/// What `removeUnprovenAccess` took from an account.
struct RemovedAccess: Sendable {
    struct AppleToken: Sendable {
        var clientID: String
        var sealed: String
    }

    /// Provider ids (`google.com`, `apple.com`).
    var providers: [String]
    var devices: Int
    var appleTokens: [AppleToken]

    var isEmpty: Bool { providers.isEmpty && devices == 0 && appleTokens.isEmpty }
}

// Who signs up with an address need not own it. Until the address is proved, the account may not add a way in
// (Google, Apple) or a device receiving its notifications; and the first proof of the address (a reset, an email
// change) removes whatever such an account got meanwhile, so that an owner taking their address back finds
// nobody else's way in left behind.
extension AuthService {
    static let emailNotVerified = ServiceError(
        .failedPrecondition, "Please verify your email address first: enter the code we emailed you, or ask for a new one.",
        details: ["reason": "email_not_verified"])

    /// Throws `FAILED_PRECONDITION` (reason `email_not_verified`) unless the account's email is verified. An
    /// address once verified stays so (nothing turns `email_verified` back off), so a check before a change holds
    /// for it.
    static func requireVerifiedEmail(userId: String, sql: any SQLDatabase) async throws {
        guard
            let verified = try await sql.raw("SELECT email_verified FROM auth_users WHERE id = \(bind: userId)")
                .first(decodingColumn: "email_verified", as: Int.self)
        else { throw ServiceError(.notFound, "This account no longer exists.") }
        guard verified != 0 else { throw emailNotVerified }
    }

    /// For an account whose address is being proved for the first time (it may have been set up by someone else
    /// with its owner's address), removes in `tx`, under the account's lock taken by the caller, every way in
    /// added before the proof: linked Google and Apple sign-ins, devices (their push tokens) and Apple refresh
    /// tokens. The password stays: whoever proved the address has just set it or asked for the change with it.
    /// If anything went, the proved address is told what. The caller ends every session and, once committed,
    /// revokes the Apple tokens at Apple (`revokeRemovedAppleTokens`).
    func removeUnprovenAccess(userId: String, notify email: String, in tx: Transaction) async throws -> RemovedAccess {
        let providers = try await tx.sql.raw(
            "DELETE FROM auth_providers WHERE user_id = \(bind: userId) AND provider_id <> 'password' RETURNING provider_id"
        ).all(decodingColumn: "provider_id", as: String.self).sorted()
        let devices = try await tx.sql.raw("DELETE FROM auth_devices WHERE user_id = \(bind: userId) RETURNING device_id").all().count
        let appleTokens = try await tx.sql.raw(
            "DELETE FROM auth_apple_tokens WHERE user_id = \(bind: userId) RETURNING client_id, sealed_refresh_token"
        ).all().map { row in
            RemovedAccess.AppleToken(
                clientID: try row.decode(column: "client_id", as: String.self),
                sealed: try row.decode(column: "sealed_refresh_token", as: String.self))
        }
        let removed = RemovedAccess(providers: providers, devices: devices, appleTokens: appleTokens)
        if !removed.isEmpty {
            let names = providers.map { IdentityProvider(rawValue: $0)?.displayName ?? $0 }
            try await outbox.enqueue(
                userId: userId, kind: "sign_in_methods_removed", to: email, subject: "We removed other ways into your Povver account",
                body: MailTexts.unprovenAccessRemoved(providers: names, devices: devices), in: tx)
        }
        logger.info(
            "unproven access removed on the first proof of the address",
            metadata: [
                "event": "unproven_access_removed", "providers": "\(providers.joined(separator: ","))",
                "devices": "\(devices)", "apple_tokens": "\(appleTokens.count)",
            ])
        return removed
    }

    /// Revokes at Apple the tokens `removeUnprovenAccess` removed: best effort, as the link is gone either way.
    func revokeRemovedAppleTokens(_ removed: RemovedAccess?) async {
        for token in removed?.appleTokens ?? [] {
            do {
                try await revokeAppleRefreshToken(sealed: token.sealed, clientID: token.clientID)
            } catch {
                logger.warning(
                    "Apple token revocation after securing an account failed",
                    metadata: ["event": "apple_secure_revoke_failed", "error": "\(error)"])
            }
        }
    }
}
