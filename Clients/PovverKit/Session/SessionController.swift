import Foundation
import OpenAPIRuntime
import PovverClient

/// The signed-in session: hands out an access token that works, refreshing it when it is about to expire or the
/// server refused it. A refresh is single-flight: everyone asking while one runs gets its answer, so two requests
/// that find the token expired at once spend the refresh token once (it works once: docs/auth.md "Sessions").
///
/// The server's refresh grace (`POVVER_REFRESH_GRACE_SECONDS`, 30 s) answers the same successor again when a used
/// refresh token comes back within it, for a refresh whose answer was lost. So a refresh that got no answer is sent
/// again with the same token while that window lasts, and given up after it: past the window the used token
/// would end the whole session.
public actor SessionController {
    private let store: any SessionStore
    private let client: Client
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async throws -> Void
    /// How long after a refresh the server still answers its token with the same successor.
    public let refreshGrace: Duration
    /// An access token with less than this left is refreshed before it is used.
    public let refreshLeeway: Duration
    /// Waits between attempts of a refresh that got no answer, each only while the grace lasts.
    public let retryDelays: [Duration]

    private var session: Session?
    private var loaded = false
    private var inFlight: Task<Session, any Error>?

    /// - Parameters:
    ///   - client: a client without the session's middleware (refreshing needs no access token).
    ///   - now: the device's clock; `sleep` waits between refresh attempts (tests inject both).
    public init(
        store: any SessionStore, client: Client, refreshGrace: Duration = .seconds(30), refreshLeeway: Duration = .seconds(60),
        retryDelays: [Duration] = [.milliseconds(250), .seconds(1), .seconds(4)], now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.store = store
        self.client = client
        self.refreshGrace = refreshGrace
        self.refreshLeeway = refreshLeeway
        self.retryDelays = retryDelays
        self.now = now
        self.sleep = sleep
    }

    /// The session, read from the store the first time.
    public func current() async throws -> Session? {
        if !loaded {
            session = try await store.load()
            loaded = true
        }
        return session
    }

    /// Keeps a session a sign-in answered.
    public func adopt(_ session: Session) async throws {
        try await store.save(session)
        self.session = session
        loaded = true
    }

    /// Forgets the session (signed out, or ended by the server).
    public func end() async throws {
        inFlight?.cancel()
        inFlight = nil
        try await store.clear()
        session = nil
        loaded = true
    }

    /// An access token that works for at least `refreshLeeway`, refreshed first when it would not.
    /// - Throws: `PovverError.signedOut` without a session or when the server ended it.
    public func accessToken() async throws -> String {
        guard let session = try await current() else { throw PovverError.signedOut }
        if session.accessTokenExpiresAt.timeIntervalSince(now()) > refreshLeeway.seconds { return session.accessToken }
        return try await refresh(replacing: session.accessToken).accessToken
    }

    /// Refreshes the session, once for everyone asking at the same moment. With `replacing`, the access token a
    /// caller found refused: when the session already holds another one (a refresh finished meanwhile), that
    /// session is the answer and nothing is sent.
    public func refresh(replacing accessToken: String? = nil) async throws -> Session {
        if let running = inFlight { return try await running.value }
        guard let session = try await current() else { throw PovverError.signedOut }
        if let accessToken, session.accessToken != accessToken { return session }
        let task = Task { try await self.rotate(session) }
        inFlight = task
        defer { inFlight = nil }
        return try await task.value
    }

    /// Sends `session`'s refresh token until an answer comes or the grace window would be over.
    private func rotate(_ session: Session) async throws -> Session {
        let started = now()
        var attempt = 0
        while true {
            do {
                return try await exchange(session)
            } catch let error as PovverError where error.isRetryable && attempt < retryDelays.count {
                let delay = retryDelays[attempt]
                // A retry must reach the server inside the window its first attempt opened.
                guard now().timeIntervalSince(started) + delay.seconds < refreshGrace.seconds else { throw error }
                try await sleep(delay)
                attempt += 1
            }
        }
    }

    private func exchange(_ session: Session) async throws -> Session {
        let output: Operations.RefreshToken.Output
        do {
            output = try await client.refreshToken(body: .json(.init(refreshToken: session.refreshToken)))
        } catch {
            throw PovverError.from(error)
        }
        switch output {
        case .ok(let ok):
            let tokens = try ok.body.json.data.tokens
            guard let refreshToken = tokens.refreshToken else { throw PovverError.unreadable("refreshToken answered no refresh token") }
            var next = session
            next.accessToken = tokens.accessToken
            next.refreshToken = refreshToken
            next.accessTokenExpiresAt = Session.expiry(now(), tokens.expiresIn)
            try await store.save(next)
            self.session = next
            return next
        case .default(let status, let failure):
            let error = PovverError.failure(status: status) { try failure.body.json }
            if error.code == "UNAUTHENTICATED" {
                try await end()
                throw PovverError.signedOut
            }
            throw error
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var seconds: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
