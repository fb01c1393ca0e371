import Auth
import AuthTool
import Contracts
import Fakes
import Foundation
import HTTPTypes
import Platform
import PovverApp
import PovverClient
import PovverModules
import ProcessComposition
import TestSupport
import Testing

/// `povver-auth` on the server's composition: what each command prints and does.
@Suite struct AuthToolTests {
    /// The admin tools (`povver-auth`, `povver-subscription`) work on the server's database: one that does not
    /// exist is refused, not created empty beside a new signing key.
    @Test func theAdminCompositionRefusesADatabaseThatDoesNotExist() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-admin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["POVVER_SIGNING_KEY_FILE": directory.appendingPathComponent("key.pem").path]
        do {
            _ = try await AdminComposition.with(
                modules: ["auth"],
                environment: environment, databaseURL: "sqlite://\(directory.path)/typo.sqlite", label: "test"
            ) { _ in "ran" }
            Issue.record("the command ran on a new database")
        } catch let error as ServiceError {
            #expect(error.code == .notFound && error.details["field"] == "POVVER_DATABASE_URL")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing created")
    }

    @Test(arguments: TestDatabases.engines)
    func usersOutboxSessionsAndDelete(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await TestServer.with(engine, clock: clock) { server, client in
            let tool = try AuthTool(composition: server.composition)
            let signUp = try await client.signUp(email: "cli@example.com", password: "password-1")
            let userId = signUp.user.id
            _ = try await client.signUp(email: "other@example.com", password: "password-2")

            let list = try await tool.listUsers(limit: 10, email: nil)
            #expect(list.hasPrefix("id"))
            #expect(list.contains("cli@example.com") && list.contains("other@example.com"))
            #expect(try await tool.listUsers(limit: 10, email: "CLI@example.com").contains("other@example.com") == false)
            let shown = try await tool.showUser(id: userId)
            #expect(shown.contains("status:            active") && shown.contains("providers:         password"))
            await #expect(throws: ServiceError.self) { _ = try await tool.showUser(id: "nope") }

            // The log transport's messages, code and all, are read here.
            _ = try await client.api().sendPasswordReset(body: .json(.init(email: "cli@example.com"))).ok
            let outbox = try await tool.listOutbox(limit: 10, userId: userId)
            #expect(outbox.contains("password_reset") && outbox.contains("Reset your Povver password"))
            let mailId = try #require(try await server.auth.outbox.list(userId: userId).first?.id)
            #expect(try await tool.showOutbox(id: mailId).contains("oobCode="))

            #expect(try await tool.revokeSessions(userId: userId) == "1 open session(s) revoked for \(userId)\n")
            let refreshToken = try #require(signUp.tokens.refreshToken)
            let api = client.api()
            #expect(
                try await outcome { try await api.refreshToken(body: .json(.init(refreshToken: refreshToken))).ok } == "UNAUTHENTICATED")

            try await AccountFlowTests.settle(server, clock: clock)
            #expect(
                try await tool.deleteUser(userId: userId)
                    == "account \(userId) deleted from every module; in 10 minutes a running server erases again whatever a request under way at the time wrote\n"
            )
            #expect(try await tool.listUsers(limit: 10, email: nil).contains("cli@example.com") == false)
            #expect(
                try await outcome { try await api.signIn(body: .json(.init(email: "cli@example.com", password: "password-1"))).ok }
                    == "INVALID_CREDENTIAL")
            try await AccountFlowTests.settleDeletion(server, clock: clock)
            #expect(try await AccountFlowTests.rowsMentioning([userId, "cli@example.com"], in: server.database).isEmpty)
        }
    }
}
