import Foundation
import HummingbirdTesting
import PovverApp
import Testing

extension TestClientProtocol {
    /// Signs up and confirms the address with the code mailed at sign-up, as a user does before linking Google or
    /// Apple or registering a device. Answers the sign-up's reply (its tokens still work).
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
