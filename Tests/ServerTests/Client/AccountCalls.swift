import HTTPTypes
import HummingbirdTesting
import PovverApp
import PovverClient
import Testing

/// A signed-up account as the generated client reads it: the user and the session's tokens.
typealias SignedUp = Operations.SignUp.Output.Ok.Body.JsonPayload.DataPayload
/// A password sign-in as the generated client reads it.
typealias SignedIn = Operations.SignIn.Output.Ok.Body.JsonPayload.DataPayload

extension TestClientProtocol {
    /// Signs up through the generated client (with `headers`: a browser's session mode, a device's address).
    func signUp(email: String, password: String, name: String? = nil, headers: HTTPFields = [:]) async throws -> SignedUp {
        try await api(headers: headers).signUp(body: .json(.init(email: email, name: name, password: password))).ok.body.json.data
    }

    /// Signs in with a password through the generated client.
    func signIn(email: String, password: String, headers: HTTPFields = [:]) async throws -> SignedIn {
        try await api(headers: headers).signIn(body: .json(.init(email: email, password: password))).ok.body.json.data
    }
}

/// The service lane's headers: the test server's service key acting for `userId` (an agent, not the user).
func serviceLane(_ userId: String) -> HTTPFields {
    [HTTPField.Name("X-API-Key")!: "test-service-key", HTTPField.Name("X-User-Id")!: userId]
}

/// How the server answered `call`, which reads its answer's `.ok`: "OK" when that succeeded, else the code of the
/// refusal it met (an answer that is neither fails the test with the client's error).
///
///     #expect(try await outcome { try await api.signIn(body: .json(...)).ok } == "INVALID_CREDENTIAL")
func outcome(_ call: @Sendable () async throws -> some Sendable) async throws -> String {
    let box = RefusalRecorder.Box()
    do {
        try await RefusalRecorder.$current.withValue(box) { _ = try await call() }
        return "OK"
    } catch {
        guard let refusal = box.refusal else { throw error }
        return refusal.code
    }
}
