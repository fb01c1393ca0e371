import Foundation
import OpenAPIRuntime
import Platform
import PovverClient
import PovverKit
import TestSupport
import Testing

/// The generated client against the live server: typed requests in, typed answers out, failures as the envelope.
@Suite struct ClientRoundTripTests {
    @Test(arguments: TestDatabases.engines)
    func aSignUpAndAProfileReadRoundTripThroughTheGeneratedClient(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let client = Client.povver(serverURL: live.url)
            let signUp = try await client.signUp(
                body: .json(.init(email: "round-trip@example.com", name: "Ada", password: "correct horse")))
            let data = try signUp.ok.body.json.data
            #expect(data.user.email == "round-trip@example.com" && data.user.name == "Ada" && data.tokens.tokenType == .bearer)

            let user = try await client.getUser(body: .json(.init()))
            // Without a token the server answers the envelope, typed.
            guard case .default(let status, let failure) = user else {
                Issue.record("getUser answered without a token")
                return
            }
            let code = try failure.body.json.error.code
            #expect(status == 401 && code == "UNAUTHENTICATED")
        }
    }
}
