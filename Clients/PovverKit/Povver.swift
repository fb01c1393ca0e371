import Foundation
import OpenAPIRuntime
import PovverClient

/// The app's way into the server: the generated client signed with the session, and the services over it.
///
///     let povver = Povver(serverURL: url, sessions: FileSessionStore(url: file))
///     try await povver.auth.signIn(email: email, password: password)
///     for try await event in povver.coach.send("Plan my week") { ... }
public final class Povver: Sendable {
    /// The generated client; every operation but the sign-in family carries the session's access token.
    public let client: Client
    /// The session and its single-flight refresh.
    public let sessions: SessionController
    public let auth: AuthService
    public let coach: CoachService

    /// - Parameters:
    ///   - transport: the HTTP transport (default: URLSession on Apple platforms, async-http-client elsewhere).
    ///   - middlewares: run inside the session's, around each request as sent (a retry after a refresh included).
    ///   - now: the device's clock, for when an access token is due for refresh.
    public init(
        serverURL: URL, sessions store: any SessionStore, transport: (any ClientTransport)? = nil,
        middlewares: [any ClientMiddleware] = [], refreshRetryDelays: [Duration] = [.milliseconds(250), .seconds(1), .seconds(4)],
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        let transport = transport ?? PovverTransport.platformDefault()
        let open = Client.povver(serverURL: serverURL, transport: transport, middlewares: middlewares)
        let sessions = SessionController(store: store, client: open, retryDelays: refreshRetryDelays, now: now)
        let client = Client.povver(
            serverURL: serverURL, transport: transport, middlewares: [SessionMiddleware(sessions: sessions)] + middlewares)
        self.client = client
        self.sessions = sessions
        self.auth = AuthService(client: client, sessions: sessions, now: now)
        self.coach = CoachService(client: client)
    }

    /// The active workout's service: its writes go through an offline queue, each with its idempotency key.
    public func activeWorkout() -> ActiveWorkoutService { ActiveWorkoutService(client: client) }
}
