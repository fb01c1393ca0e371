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

}
