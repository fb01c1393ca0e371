import Contracts
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The accepted service-lane keys. Only their SHA-256 digests are kept, and a presented key is compared with
/// every one of them in constant time.
public struct ServiceKeySet: Sendable {
    private let digests: [[UInt8]]

    public init(keys: [String]) {
        self.digests = keys.filter { !$0.isEmpty }.map { Array(SHA256.hash(data: Data($0.utf8))) }
    }

    public var isEmpty: Bool { digests.isEmpty }

    /// Whether `key` is one of the keys. Takes the same time whichever key (if any) matches.
    public func contains(_ key: String) -> Bool {
        let presented = Array(SHA256.hash(data: Data(key.utf8)))
        var matched: UInt8 = 0
        for digest in digests {
            var difference: UInt8 = 0
            for index in 0..<presented.count { difference |= presented[index] ^ digest[index] }
            matched |= difference == 0 ? 1 : 0
        }
        return matched == 1
    }
}

/// The two authenticated lanes of docs/api.md, as middleware on the routes that need a user:
/// Bearer (`Authorization: Bearer <access token>`, the user id from the verified token only) and service
/// (`X-API-Key` + `X-User-Id`, the coach agent acting for an existing user).
public struct AuthLaneMiddleware: RouterMiddleware {
    public typealias Context = APIRequestContext
    // cannot trap: header names spelled here are valid tokens
    static let apiKeyHeader = HTTPField.Name("X-API-Key")!
    static let userIDHeader = HTTPField.Name("X-User-Id")!

    let verifier: any AccessTokenVerifier
    let accounts: any AccountDirectory
    let serviceKeys: ServiceKeySet

    public init(verifier: any AccessTokenVerifier, accounts: any AccountDirectory, serviceKeys: ServiceKeySet) {
        self.verifier = verifier
        self.accounts = accounts
        self.serviceKeys = serviceKeys
    }

    public func handle(
        _ request: Request, context: APIRequestContext,
        next: (Request, APIRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.principal = try await authenticate(request.headers)
        context.logger[metadataKey: "user_id"] = context.principal.map { .string($0.userId) }
        return try await next(request, context)
    }

    func authenticate(_ headers: HTTPFields) async throws -> Principal {
        if let authorization = headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
                throw ServiceError(.unauthenticated, "The Authorization header must be 'Bearer <access token>'.")
            }
            return try await verifier.verify(accessToken: String(parts[1]))
        }
        if let key = headers[Self.apiKeyHeader] {
            guard !serviceKeys.isEmpty, serviceKeys.contains(key) else {
                throw ServiceError(.unauthenticated, "The API key is not valid.")
            }
            guard let userId = headers[Self.userIDHeader], !userId.isEmpty else {
                throw ServiceError(.unauthenticated, "The service lane needs an X-User-Id header.")
            }
            guard try await accounts.account(userId: userId) != nil else {
                throw ServiceError(.unauthenticated, "The user in X-User-Id does not exist.")
            }
            // The agent never counts as a recent login: sensitive operations stay with the user.
            return Principal(userId: userId, authTime: .distantPast, sessionId: nil, expiresAt: .distantFuture)
        }
        throw ServiceError(.unauthenticated)
    }
}
