import Contracts
import Foundation
import Platform
import SQLKit

/// `verifyEmail`'s answer.
public struct EmailVerified: Codable, Sendable, Equatable {
    public var emailVerified: Bool

    enum CodingKeys: String, CodingKey { case emailVerified = "email_verified" }
}

extension AuthService {
    /// Verification mails per account.
    static let verificationPerAccount = RateLimit(name: "auth.verify_email.account", limit: 5, window: 3600)
    /// Verification mails per client address.
    static let verificationPerAddress = RateLimit(name: "auth.verify_email.address", limit: 20, window: 3600)

    /// Mails a verification code for `email` in `tx`, replacing any earlier one. The code names the address it
    /// went to, so it proves that address only.
    func mailEmailVerification(userId: String, email: String, in tx: Transaction) async throws {
        let code = try await storeCode(.emailVerification, userId: userId, newEmail: email, in: tx)
        try await outbox.enqueue(
            userId: userId, kind: "verify_email", to: email, subject: "Confirm your email for Povver",
            body: MailTexts.verifyEmail(code: code),
            in: tx)
    }

    /// Redeems the caller's verification code: the account's email is verified. A code of another account, or
    /// for an address the account no longer has, is `INVALID_CODE`; an account already verified answers the same
    /// (a double tap).
    public func verifyEmail(principal: Principal, code: String, clientAddress: String? = nil) async throws -> EmailVerified {
        if let limiter, let clientAddress { try await limiter.hit(Self.codePerAddress, key: clientAddress) }
        let userId = principal.userId
        return try await database.transaction { [self] tx in
            let spent: (userId: String, newEmail: String?)
            do {
                spent = try await spendCode(code, purpose: .emailVerification, in: tx)
            } catch let error as ServiceError where error.code == .invalidCode {
                if try await Self.isEmailVerified(userId: userId, sql: tx.sql) { return EmailVerified(emailVerified: true) }
                throw error
            }
            guard spent.userId == userId,
                let row = try await tx.sql.raw("SELECT email, status FROM auth_users WHERE id = \(bind: userId)").first(),
                try row.decode(column: "status", as: String.self) == AccountStatus.active.rawValue,
                try row.decode(column: "email", as: String.self) == spent.newEmail
            else { throw ServiceError(.invalidCode) }
            try await tx.sql.raw("UPDATE auth_users SET email_verified = 1 WHERE id = \(bind: userId)").run()
            return EmailVerified(emailVerified: true)
        }
    }

    /// Mails a new verification code to the account's address (the previous one stops working). An account
    /// already verified gets none. Limited per account and per client address.
    public func resendEmailVerification(principal: Principal, clientAddress: String? = nil) async throws {
        let userId = principal.userId
        if let limiter {
            try await limiter.hit(Self.verificationPerAccount, key: userId)
            if let clientAddress { try await limiter.hit(Self.verificationPerAddress, key: clientAddress) }
        }
        try await database.transaction { [self] tx in
            guard try await lockAccount(userId, in: tx) == AccountStatus.active.rawValue,
                let row = try await tx.sql.raw("SELECT email, email_verified FROM auth_users WHERE id = \(bind: userId)").first()
            else { throw ServiceError(.notFound, "This account no longer exists.") }
            guard try row.decode(column: "email_verified", as: Int.self) == 0 else { return }
            try await mailEmailVerification(userId: userId, email: try row.decode(column: "email", as: String.self), in: tx)
        }
    }

    static func isEmailVerified(userId: String, sql: any SQLDatabase) async throws -> Bool {
        let verified = try await sql.raw("SELECT email_verified FROM auth_users WHERE id = \(bind: userId)")
            .first(decodingColumn: "email_verified", as: Int.self)
        return (verified ?? 0) != 0
    }
}
