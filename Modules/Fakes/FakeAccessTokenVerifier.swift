import Contracts
import Foundation

/// Access tokens a test issues by hand. Follows the `AccessTokenVerifier` contract: unknown, expired and
/// revoked tokens are `UNAUTHENTICATED`.
public actor FakeAccessTokenVerifier: AccessTokenVerifier {
    private var tokens: [String: Principal] = [:]
    private var revokedSessions: Set<String> = []
    private var removedUsers: Set<String> = []
    private let clock: any WallClock
    private var counter = 0

    public init(clock: any WallClock) {
        self.clock = clock
    }

    /// Issues a token for `userId` that expires `lifetime` seconds from now.
    public func issue(userId: String, sessionId: String? = nil, lifetime: TimeInterval = 900, authTime: Date? = nil) -> String {
        counter += 1
        let now = clock.now()
        let token = "fake-token-\(counter)-\(userId)"
        tokens[token] = Principal(
            userId: userId, authTime: authTime ?? now, sessionId: sessionId ?? "fake-session-\(counter)",
            expiresAt: now.addingTimeInterval(lifetime))
        return token
    }

    /// Revokes every token of a session.
    public func revoke(sessionId: String) { revokedSessions.insert(sessionId) }

    /// Makes every token of a user invalid, as deleting the account does.
    public func removeUser(_ userId: String) { removedUsers.insert(userId) }

    public func verify(accessToken: String) async throws -> Principal {
        guard let principal = tokens[accessToken],
            principal.expiresAt > clock.now(),
            !removedUsers.contains(principal.userId),
            !(principal.sessionId.map(revokedSessions.contains) ?? false)
        else { throw ServiceError(.unauthenticated) }
        return principal
    }
}
