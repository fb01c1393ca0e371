import Foundation
import OpenAPIRuntime
import PovverClient

/// What a Povver call can fail with, as the app shows it.
public enum PovverError: Error, Equatable, Sendable {
    /// The server refused the request: its envelope's stable `code` (`INVALID_ARGUMENT`, `UNAUTHENTICATED`,
    /// `RATE_LIMITED`, ... docs/api.md), its friendly `message` and machine-readable `details`, with the status.
    case refused(status: Int, code: String, message: String, details: [String: String])
    /// No answer came: the network, the server out of reach, or a stream cut. A write kept in the offline queue
    /// is sent again later with the same idempotency key.
    case unreachable(String)
    /// An answer came that is not what the document says (a proxy's error page, a body cut short).
    case unreadable(String)
    /// There is no session, or the server ended it (a refresh token refused): sign in again.
    case signedOut

    /// The server's error code, for a refusal.
    public var code: String? {
        if case .refused(_, let code, _, _) = self { return code }
        return nil
    }

    /// True when the request may succeed if sent again as it is (no answer, or the server busy or failing for a
    /// moment); a refusal of the request itself is not.
    public var isRetryable: Bool {
        switch self {
        case .unreachable: true
        case .refused(let status, _, _, _): status == 429 || status >= 500
        case .unreadable, .signedOut: false
        }
    }

    init(status: Int, envelope: Components.Schemas._Error) {
        self = .refused(
            status: status, code: envelope.error.code, message: envelope.error.message,
            details: envelope.error.details?.additionalProperties ?? [:])
    }

    /// The server's failure envelope of a `default` answer, or `.unreadable` when the body is not one.
    static func failure(status: Int, body: () throws -> Components.Schemas._Error) -> PovverError {
        do { return PovverError(status: status, envelope: try body()) } catch { return .unreadable("status \(status): \(error)") }
    }

    /// Any error a generated call threw, as a `PovverError`: a `ClientError` without a response is `.unreachable`.
    public static func from(_ error: any Error) -> PovverError {
        if let error = error as? PovverError { return error }
        if let error = error as? ClientError {
            if let inner = error.underlyingError as? PovverError { return inner }
            return error.response == nil ? .unreachable("\(error.underlyingError)") : .unreadable("\(error.underlyingError)")
        }
        return .unreachable("\(error)")
    }
}
