import Contracts
import Foundation
import Platform

/// Input rules shared by the auth endpoints.
enum Validation {
    static let minimumPasswordLength = 6
    static let maximumPasswordLength = 1024

    /// Trimmed, lower-cased, checked email. Throws `INVALID_ARGUMENT` on `field`. The lengths are RFC 5321's, in
    /// bytes (UTF-8): counted in characters, a letter carrying any number of combining marks would let an address
    /// grow past what PostgreSQL can hold in the index that keeps addresses unique.
    static func normalizedEmail(_ raw: String, field: String = "email") throws -> String {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !parts[1].contains(".."),
            email.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
            !email.contains(where: { "()<>,;:\\\"[]".contains($0) })
        else {
            throw ServiceError.invalidArgument(
                field: field, reason: "not a valid email address", message: "Please enter a valid email address.")
        }
        return email
    }

    /// Checks a new password: too short is `WEAK_PASSWORD` with the seeds' sentence; absurdly long is invalid.
    /// The upper bounds of passwords and names count code points, as the schemas' `maxLength` does (a character
    /// can carry any number of combining marks or modifiers); the minimum counts characters, as a person does.
    static func newPassword(_ password: String, field: String = "password") throws {
        guard password.unicodeScalars.count <= maximumPasswordLength else {
            throw ServiceError.invalidArgument(
                field: field, reason: "longer than \(maximumPasswordLength) characters",
                message: "Password must be at most \(maximumPasswordLength) characters.")
        }
        guard password.count >= minimumPasswordLength else {
            throw ServiceError(.weakPassword, details: ["field": field])
        }
    }

    /// A password presented for sign-in: bounded so nobody can make the server hash megabytes.
    static func presentedPassword(_ password: String, field: String = "password") throws {
        guard password.unicodeScalars.count <= maximumPasswordLength else {
            throw ServiceError.invalidArgument(
                field: field, reason: "longer than \(maximumPasswordLength) characters",
                message: "Password must be at most \(maximumPasswordLength) characters.")
        }
    }

    static func name(_ name: String?) throws -> String? {
        guard let name else { return nil }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard name.unicodeScalars.count <= 100 else {
            throw ServiceError.invalidArgument(
                field: "name", reason: "longer than 100 characters", message: "Name must be at most 100 characters.")
        }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A provider's token, nonce and authorization code within the lengths the document declares, checked before
    /// anything else (the account's state, the server's configuration) so a malformed request is always
    /// `INVALID_ARGUMENT`.
    static func identityRequest(idToken: String?, rawNonce: String?, authorizationCode: String? = nil) throws {
        for (field, value, limit) in [
            ("id_token", idToken, 8192), ("raw_nonce", rawNonce, 512), ("authorization_code", authorizationCode, 2048),
        ] {
            if let value, value.unicodeScalars.count > limit {
                throw ServiceError.invalidArgument(field: field, reason: "longer than \(limit) characters")
            }
        }
    }

    static func timeZone(_ identifier: String?) throws -> String? {
        guard let identifier else { return nil }
        guard TimeZoneNames.isKnown(identifier) else {
            throw ServiceError.invalidArgument(
                field: "time_zone", reason: "not an IANA time zone", message: "Time zone must be an IANA name such as Europe/Berlin.")
        }
        return identifier
    }

    static func oneOf(_ value: String?, _ allowed: [String], field: String) throws -> String? {
        guard let value else { return nil }
        guard allowed.contains(value) else {
            throw ServiceError.invalidArgument(
                field: field, reason: "must be one of \(allowed.joined(separator: ", "))",
                message: "The field '\(field)' must be one of: \(allowed.joined(separator: ", ")).")
        }
        return value
    }

    /// `maxLength` counts code points (as the schemas' `maxLength` does), not `Character`s: a character can
    /// carry any number of combining marks, and `device_id` stands in a key that PostgreSQL bounds in bytes.
    static func token(_ value: String, field: String, maxLength: Int) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, value.unicodeScalars.count <= maxLength else {
            throw ServiceError.invalidArgument(field: field, reason: "must be 1 to \(maxLength) characters")
        }
        return trimmed
    }
}
