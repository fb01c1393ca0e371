import Foundation
import OpenAPIRuntime
import PovverClient

/// Signing up, in and out with email and password; the session a sign-in answers is kept in the store.
public struct AuthService: Sendable {
    let client: Client
    let sessions: SessionController
    let now: @Sendable () -> Date

    /// Creates an account and signs in to it (`signUp`).
    @discardableResult
    public func signUp(email: String, password: String, name: String? = nil) async throws -> Session {
        let output: Operations.SignUp.Output
        do { output = try await client.signUp(body: .json(.init(email: email, name: name, password: password))) } catch {
            throw PovverError.from(error)
        }
        switch output {
        case .ok(let ok):
            let data = try ok.body.json.data
            return try await keep(
                userId: data.user.id, email: data.user.email, accessToken: data.tokens.accessToken, expiresIn: data.tokens.expiresIn,
                refreshToken: data.tokens.refreshToken)
        case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
        }
    }

    /// Signs in with email and password (`signIn`).
    @discardableResult
    public func signIn(email: String, password: String) async throws -> Session {
        let output: Operations.SignIn.Output
        do { output = try await client.signIn(body: .json(.init(email: email, password: password))) } catch {
            throw PovverError.from(error)
        }
        switch output {
        case .ok(let ok):
            let data = try ok.body.json.data
            return try await keep(
                userId: data.user.id, email: data.user.email, accessToken: data.tokens.accessToken, expiresIn: data.tokens.expiresIn,
                refreshToken: data.tokens.refreshToken)
        case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
        }
    }

    /// Ends the session on the server (every session of the account with `allSessions`) and forgets it here. The
    /// session is forgotten even when the server cannot be reached; its refresh token then simply expires.
    public func signOut(allSessions: Bool = false) async throws {
        guard let session = try await sessions.current() else { return }
        let output: Operations.SignOut.Output
        do {
            output = try await client.signOut(body: .json(.init(allSessions: allSessions, refreshToken: session.refreshToken)))
        } catch {
            try await sessions.end()
            throw PovverError.from(error)
        }
        try await sessions.end()
        if case .default(let status, let failure) = output, status != 401 {
            throw PovverError.failure(status: status) { try failure.body.json }
        }
    }

    private func keep(userId: String, email: String, accessToken: String, expiresIn: Int, refreshToken: String?) async throws -> Session {
        guard let refreshToken else { throw PovverError.unreadable("the sign-in answered no refresh token") }
        let session = Session(
            userId: userId, email: email, accessToken: accessToken,
            accessTokenExpiresAt: Session.expiry(now(), expiresIn), refreshToken: refreshToken)
        try await sessions.adopt(session)
        return session
    }
}
