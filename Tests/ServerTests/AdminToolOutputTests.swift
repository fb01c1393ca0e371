import Auth
import AuthTool
import Contracts
import Foundation
import Platform
import PovverApp
import PovverClient
import SQLKit
import SubscriptionTool
import TestSupport
import Testing

/// What the admin CLIs print of someone else's text (an email, a mail's subject and body, what a webhook carried)
/// cannot act on the operator's terminal: control characters come out as escapes (`TerminalText`). The text is
/// written straight into the tables, as the API's own validation would refuse some of it: the CLIs must not depend
/// on every way in having been checked.
@Suite struct AdminToolOutputTests {
    /// Sets the window's title, clears the screen, a one-character CSI, and a carriage return that rewrites the line.
    static let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\rforged"

    /// No control character but line feeds, and the hostile text's escape shown instead.
    static func expectInert(_ output: String, _ what: String) {
        let controls = output.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "\(what) prints control characters: \(controls.map { String($0.value, radix: 16) })")
        #expect(output.contains(#"\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\rforged"#), "\(what): \(output)")
    }

    @Test(arguments: TestDatabases.engines)
    func authToolPrintsStoredTextEscaped(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let tool = try AuthTool(composition: server.composition)
            let userId = try await client.signUp(email: "esc@example.com", password: "password-1").user.id
            _ = try await client.api().sendPasswordReset(body: .json(.init(email: "esc@example.com"))).ok
            try await server.database.sql.raw(
                "UPDATE auth_users SET email = \(bind: "esc" + Self.hostile + "@example.com") WHERE id = \(bind: userId)"
            ).run()
            try await server.database.sql.raw(
                """
                UPDATE auth_mail_outbox SET subject = \(bind: Self.hostile), body = \(bind: "Hello,\n" + Self.hostile),
                    last_error = \(bind: Self.hostile)
                WHERE user_id = \(bind: userId)
                """
            ).run()
            let mailId = try #require(try await server.auth.outbox.list(userId: userId).first?.id)
            Self.expectInert(try await tool.listUsers(limit: 10, email: nil), "users list")
            Self.expectInert(try await tool.listOutbox(limit: 10, userId: userId), "outbox list")
            let mail = try await tool.showOutbox(id: mailId)
            Self.expectInert(mail, "outbox show")
            #expect(mail.contains("Hello,\n"), "a message keeps its lines")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func subscriptionToolPrintsStoredTextEscaped(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let tool = try SubscriptionTool(composition: server.composition)
            let userId = try await client.signUp(email: "esc@example.com", password: "password-1").user.id
            _ = try await tool.setOverride(userId: userId, premium: true)
            try await server.database.sql.raw(
                "UPDATE subscription_state SET product_id = \(bind: Self.hostile) WHERE user_id = \(bind: userId)"
            ).run()
            try await server.database.sql.raw(
                "UPDATE subscription_events SET subtype = \(bind: Self.hostile) WHERE user_id = \(bind: userId)"
            ).run()
            Self.expectInert(try await tool.status(userId: userId), "status")
            Self.expectInert(try await tool.events(userId: userId, limit: 10), "events")
        }
    }
}
