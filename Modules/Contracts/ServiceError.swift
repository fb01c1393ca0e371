import Foundation

/// The stable error vocabulary every module speaks. Platform maps a code to an HTTP status in one place;
/// modules and fakes throw `ServiceError` so a client always sees a code of docs/api.md.
public enum ErrorCode: String, Sendable, Codable, CaseIterable {
    case invalidArgument = "INVALID_ARGUMENT"
    case unauthenticated = "UNAUTHENTICATED"
    case permissionDenied = "PERMISSION_DENIED"
    case premiumRequired = "PREMIUM_REQUIRED"
    case notFound = "NOT_FOUND"
    case conflict = "CONFLICT"
    case failedPrecondition = "FAILED_PRECONDITION"
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    case rateLimited = "RATE_LIMITED"
    case internalError = "INTERNAL"
    /// A service the request needs (the coach's language model) is not answering; try again in a moment.
    case unavailable = "UNAVAILABLE"
    /// The path exists but does not take this HTTP method; `details.allowed` (and the `Allow` header) list those it takes.
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    case wrongPassword = "WRONG_PASSWORD"
    case invalidCredential = "INVALID_CREDENTIAL"
    case weakPassword = "WEAK_PASSWORD"
    case emailAlreadyInUse = "EMAIL_ALREADY_IN_USE"
    case accountExistsWithDifferentCredential = "ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL"
    case credentialAlreadyInUse = "CREDENTIAL_ALREADY_IN_USE"
    case providerAlreadyLinked = "PROVIDER_ALREADY_LINKED"
    case noSuchProvider = "NO_SUCH_PROVIDER"
    case lastSignInMethod = "LAST_SIGN_IN_METHOD"
    case requiresRecentLogin = "REQUIRES_RECENT_LOGIN"
    case userNotFound = "USER_NOT_FOUND"
    case emailManagedByProvider = "EMAIL_MANAGED_BY_PROVIDER"
    case invalidCode = "INVALID_CODE"
    case accountNotConfirmed = "ACCOUNT_NOT_CONFIRMED"

    /// The friendly sentence shown when the thrower gave none. Auth codes carry the app's table
    /// (docs/product.md "Friendly error messages"); the rest say what to do next.
    public var defaultMessage: String {
        switch self {
        case .invalidArgument: "The request is not valid. Please check the highlighted field and try again."
        case .unauthenticated: "Please sign in to continue."
        case .permissionDenied: "You are not allowed to do that."
        case .premiumRequired: "This feature needs a Povver Premium subscription."
        case .notFound: "We couldn't find that. It may have been deleted."
        case .conflict: "That conflicts with a change made elsewhere. Please refresh and try again."
        case .failedPrecondition: "That can't be done right now."
        case .payloadTooLarge: "The request is too large."
        case .rateLimited: "Too many attempts. Please wait a moment and try again."
        case .internalError: "Something went wrong. Please try again."
        case .unavailable: "This service is not available right now. Please try again in a moment."
        case .methodNotAllowed: "This endpoint does not accept that HTTP method."
        case .wrongPassword: "Incorrect password. Please try again."
        case .invalidCredential: "The sign-in credentials are invalid. Please try again."
        case .weakPassword: "Password must be at least 6 characters."
        case .emailAlreadyInUse: "This email is already in use by another account."
        case .accountExistsWithDifferentCredential:
            "An account with this email already exists. Please sign in with your original method, then link this provider in Settings."
        case .credentialAlreadyInUse: "This account is already linked to a different Povver account."
        case .providerAlreadyLinked: "This sign-in method is already linked to your account."
        case .noSuchProvider: "This sign-in method is not linked to your account."
        case .lastSignInMethod: "You can't remove your only sign-in method."
        case .requiresRecentLogin: "For your security, please sign in again to continue."
        case .userNotFound: "No account found with this email. Please register first."
        case .emailManagedByProvider: "Changing email is not possible when signed in with your sign-in provider."
        case .invalidCode: "This code is invalid or has expired. Please request a new one."
        case .accountNotConfirmed: "Please confirm your account creation to continue."
        }
    }
}

/// An error with a stable code, a friendly message and optional machine-readable details.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String
    public var details: [String: String]

    public init(_ code: ErrorCode, _ message: String? = nil, details: [String: String] = [:]) {
        self.code = code
        self.message = message ?? code.defaultMessage
        self.details = details
    }

    /// A validation failure naming the field and why.
    public static func invalidArgument(field: String, reason: String, message: String? = nil) -> ServiceError {
        ServiceError(
            .invalidArgument,
            message ?? "The field '\(field)' is invalid: \(reason).",
            details: ["field": field, "reason": reason]
        )
    }

    /// The dotted path a field error names for a place in a decoded body: `exercises[0].sets[1].target_reps`.
    public static func fieldPath(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
            .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }

    /// This error with the field it names put under `prefix` (`templates[1].`), when it names one: a request
    /// made of parts (a plan of several templates) then says which part is wrong.
    public func nested(under prefix: String) -> ServiceError {
        guard let field = details["field"] else { return self }
        var nested = self
        nested.details["field"] = prefix + field
        nested.message = message.replacingOccurrences(of: "'\(field)'", with: "'\(prefix)\(field)'")
        return nested
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
