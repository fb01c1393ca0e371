/// Where the session lives between launches: the Keychain on Apple platforms (`KeychainSessionStore`), a file for
/// Linux tools (`FileSessionStore`). A store holds at most one session.
public protocol SessionStore: Sendable {
    /// The kept session, nil when signed out.
    func load() async throws -> Session?
    /// Keeps `session`, replacing any other.
    func save(_ session: Session) async throws
    /// Forgets the session.
    func clear() async throws
}
