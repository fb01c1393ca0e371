import AsyncKit
import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PostgresKit

/// The one place where error codes become HTTP statuses.
public enum HTTPStatusMapping {
    public static func status(for code: ErrorCode) -> HTTPResponse.Status {
        switch code {
        case .invalidArgument, .weakPassword, .noSuchProvider, .lastSignInMethod, .emailManagedByProvider, .invalidCode:
            .badRequest
        case .unauthenticated, .wrongPassword, .invalidCredential, .requiresRecentLogin:
            .unauthorized
        case .permissionDenied, .premiumRequired:
            .forbidden
        case .notFound, .userNotFound:
            .notFound
        // An account not confirmed yet is a state of the account the request conflicts with (docs/api.md: the
        // auth codes keep to 400, 401 and 409).
        case .conflict, .emailAlreadyInUse, .accountExistsWithDifferentCredential, .credentialAlreadyInUse,
            .providerAlreadyLinked, .accountNotConfirmed:
            .conflict
        case .failedPrecondition: .preconditionFailed
        case .payloadTooLarge: .contentTooLarge
        case .rateLimited: .tooManyRequests
        case .internalError: .internalServerError
        case .unavailable: .serviceUnavailable
        case .methodNotAllowed: .methodNotAllowed
        }
    }
}

/// Turns any thrown error into a `ServiceError` a client may see: decoding failures name the field, router
/// errors keep their meaning, and anything unexpected becomes `INTERNAL` (logged, never echoed).
public enum ErrorMapper {
    public static func serviceError(for error: any Error, logger: Logger) -> ServiceError {
        switch error {
        case let error as ServiceError where error.code == .internalError:
            // A fault of the server: its message and details are for the log, never for the client.
            logger.error(
                "internal error",
                metadata: ["event": "internal_error", "error": "\(error.message)", "details": "\(error.details)"])
            return ServiceError(.internalError)
        case let error as ServiceError:
            return error
        case let error as DecodingError:
            return decodingError(error)
        case let error as PSQLError where error.serverInfo?[.sqlState].map(concurrentChangeStates.contains) == true:
            return concurrentDuplicate
        case let error as SQLiteError where error.code == 2067 || error.code == 1555:
            return concurrentDuplicate
        case let error where isMomentary(error):
            logger.warning("storage unavailable", metadata: ["event": "storage_unavailable", "error": "\(String(reflecting: error))"])
            return unavailable
        case let error as HTTPError:
            switch error.status {
            case .notFound: return ServiceError(.notFound, "There is no such endpoint.")
            case .methodNotAllowed:
                return ServiceError(.methodNotAllowed)
            case .contentTooLarge: return ServiceError(.payloadTooLarge)
            case .unauthorized: return ServiceError(.unauthenticated)
            case .badRequest: return ServiceError(.invalidArgument, error.body ?? ErrorCode.invalidArgument.defaultMessage)
            default:
                logger.error("unexpected http error", metadata: ["event": "http_error", "status": "\(error.status.code)"])
                return ServiceError(.internalError)
            }
        default:
            logger.error("unhandled error", metadata: ["event": "internal_error", "error": "\(String(reflecting: error))"])
            return ServiceError(.internalError)
        }
    }

    /// "Try again shortly": the database out of reach or too busy for a moment. `Retry-After` says when.
    static let unavailable = ServiceError(
        .unavailable, "The server is busy or its database is out of reach for a moment. Please try again shortly.",
        details: ["retry_after_seconds": "1"])

    /// PostgreSQL's "the server cannot take this now" states: too many connections (53300), out of memory or disk
    /// (53…), shutting down or starting (57P01–57P03), and its connection to the database lost (08…).
    static func isMomentarySQLState(_ state: String) -> Bool {
        state.hasPrefix("53") || state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }

    /// A failure that is the moment's, not the request's: a pool wait that timed out (every connection busy), a pool
    /// closing, a connection refused or lost, SQLite busy or locked by another process.
    static func isMomentary(_ error: any Error) -> Bool {
        switch error {
        case is ConnectionPoolTimeoutError, ConnectionPoolError.shutdown: return true
        case is NIOConnectionError, ChannelError.ioOnClosedChannel, ChannelError.alreadyClosed, ChannelError.eof: return true
        case let error as PSQLError:
            if let state = error.serverInfo?[.sqlState] { return isMomentarySQLState(state) }
            return [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed].contains(error.code)
        case let error as SQLiteError: return error.code == 5 || error.code == 6
        default: return false
        }
    }

    /// PostgreSQL's answers to a clash with a concurrent transaction, whose transaction it rolled back whole: a
    /// unique constraint hit by a concurrent request (two retries with one idempotency key at once), a deadlock
    /// (two transactions waiting for each other's rows) or a serialization failure.
    static let concurrentChangeStates: Set<String> = ["23505", "40P01", "40001"]

    /// A unique constraint hit by a concurrent request, or another clash with one (see
    /// `concurrentChangeStates`): nothing was changed, and retrying answers properly.
    static let concurrentDuplicate = ServiceError(.conflict, "That conflicts with a change made at the same moment. Please try again.")

    /// A decoding failure as `INVALID_ARGUMENT` naming the field.
    public static func decodingError(_ error: DecodingError) -> ServiceError {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            ServiceError.fieldPath(codingPath + (last.map { [$0] } ?? []))
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath, key)
            return .invalidArgument(field: field, reason: "missing", message: "The field '\(field)' is required.")
        case .valueNotFound(_, let context):
            let field = path(context.codingPath)
            if field.isEmpty {
                return ServiceError(.invalidArgument, "The request body must be a JSON object.", details: ["reason": "expected object"])
            }
            return .invalidArgument(field: field, reason: "must not be null", message: "The field '\(field)' must not be null.")
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            let expected = jsonTypeName(type)
            if field.isEmpty {
                return ServiceError(
                    .invalidArgument, "The request body must be a JSON \(expected).", details: ["reason": "expected \(expected)"])
            }
            return .invalidArgument(
                field: field, reason: "expected \(expected)", message: "The field '\(field)' must be \(article(expected)) \(expected).")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            if field.isEmpty {
                return ServiceError(.invalidArgument, "The request body is not valid JSON.", details: ["reason": "malformed JSON"])
            }
            return .invalidArgument(field: field, reason: context.debugDescription)
        @unknown default:
            return ServiceError(.invalidArgument)
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Bool.Type: "boolean"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: "integer"
        case is Double.Type, is Float.Type: "number"
        default: String(describing: type).hasPrefix("Array") ? "array" : "object"
        }
    }

    private static func article(_ word: String) -> String {
        ["a", "e", "i", "o", "u"].contains(word.prefix(1)) ? "an" : "a"
    }
}

/// Catches every error below it and answers with the failure envelope.
public struct ErrorEnvelopeMiddleware: RouterMiddleware {
    public typealias Context = APIRequestContext

    /// The methods each served path takes: another method on one of them is refused naming these, where the
    /// router alone would answer that there is no such endpoint.
    let allowedMethods: [String: [String]]

    public init(allowedMethods: [String: [String]] = [:]) {
        self.allowedMethods = allowedMethods
    }

    public func handle(
        _ request: Request, context: APIRequestContext,
        next: (Request, APIRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            guard let methods = allowedMethods[request.uri.path] else {
                return Envelope.failure(ErrorMapper.serviceError(for: error, logger: context.logger))
            }
            let listed =
                methods.count > 1 ? methods.dropLast().joined(separator: ", ") + " or " + methods[methods.count - 1] : methods.joined()
            return Envelope.failure(
                ServiceError(
                    .methodNotAllowed, "This endpoint takes \(listed), not \(request.method.rawValue).",
                    details: ["allowed": methods.joined(separator: ", ")]))
        } catch {
            return Envelope.failure(ErrorMapper.serviceError(for: error, logger: context.logger))
        }
    }
}
