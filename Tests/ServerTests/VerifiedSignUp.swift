import Foundation
import HummingbirdTesting
import PovverApp
import PovverClient
import Testing

extension TestClientProtocol {
    /// Signs up and confirms the address with the code mailed at sign-up, as a user does before linking Google or
    /// Apple or registering a device. Answers the sign-up (its tokens still work).
    func signUpVerified(email: String, password: String, name: String? = nil, server: PovverServer) async throws -> SignedUp {
        let signUp = try await self.signUp(email: email, password: password, name: name)
        let code = try await AccountFlowTests.code(to: signUp.user.email, kind: "verify_email", in: server)
        let verified = try await api(signUp.tokens.accessToken).verifyEmail(body: .json(.init(code: code))).ok.body.json.data
        #expect(verified.emailVerified)
        return signUp
    }

    /// The same through the old JSON helpers, for the tests still written with them.
    func signUpVerified(_ body: [String: Any], server: PovverServer) async throws -> Reply {
        let signUp = try await call("signUp", body)
        let token = try #require(signUp.accessToken, "\(signUp.json)")
        let email = try #require((signUp.data["user"] as? [String: Any])?["email"] as? String)
        let code = try await AccountFlowTests.code(to: email, kind: "verify_email", in: server)
        let verified = try await call("verifyEmail", ["code": code], token: token)
        #expect(verified.data["email_verified"] as? Bool == true, "\(verified.json)")
        return signUp
    }
}
