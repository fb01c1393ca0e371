import AsyncHTTPClient
import Auth
import Contracts
import Fakes
import Foundation
import HTTPTypes
import NIOCore
import NIOPosix
import Platform
import PovverApp
import PovverClient
import Synchronization
import TestSupport
import Testing

/// A real SMTP server process (Python's aiosmtpd, `Tools/mail/smtp_test_server.py`) for the SMTP transport.
final class LocalSMTPServer: Sendable {
    struct Received: Decodable, Sendable {
        var mail_from: String
        var rcpt_tos: [String]
        var subject: String
        var body: String
        var authenticated: Bool
        var tls: Bool
    }

    /// Lines the process printed.
    final class Lines: Sendable {
        private let state = Mutex<(buffer: String, lines: [String])>(("", []))

        func append(_ chunk: String) {
            state.withLock { state in
                state.buffer += chunk
                while let newline = state.buffer.firstIndex(of: "\n") {
                    state.lines.append(String(state.buffer[..<newline]))
                    state.buffer = String(state.buffer[state.buffer.index(after: newline)...])
                }
            }
        }

        var all: [String] { state.withLock { $0.lines } }
    }

    let port: Int
    let caFile: String?
    private let process: ChildProcess
    private let output: Lines

    private init(port: Int, caFile: String?, process: ChildProcess, output: Lines) {
        self.port = port
        self.caFile = caFile
        self.process = process
        self.output = output
    }

    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/mail/smtp_test_server.py").path
    }

    /// Runs `python3 arguments…` and answers whether it exited 0.
    static func python(_ arguments: [String]) -> Bool {
        ChildProcess.succeeds(["python3"] + arguments)
    }

    /// `swift test` works on a fresh machine: aiosmtpd comes from PyPI the first time it is missing.
    static let aiosmtpdAvailable: Bool = {
        if python(["-c", "import aiosmtpd"]) { return true }
        for extra in [[], ["--user"], ["--break-system-packages"]] where python(["-m", "pip", "install", "-q"] + extra + ["aiosmtpd"]) {
            if python(["-c", "import aiosmtpd"]) { return true }
        }
        return false
    }()

    /// Starts the server (`starttls`: TLS and AUTH required; `plain`: neither) and waits until it listens.
    static func start(mode: String) async throws -> LocalSMTPServer {
        guard aiosmtpdAvailable else {
            throw TestFailure("python3 with aiosmtpd is needed (`python3 -m pip install aiosmtpd`), and pip could not install it")
        }
        // The server stops when its standard input closes (or on SIGTERM).
        let process = try ChildProcess(["python3", script, "--mode", mode], input: true, output: true)
        let output = Lines()
        // A thread of its own reads the server's output with blocking reads until EOF. (A `readabilityHandler`
        // leaves a dispatch read source behind when the pipe goes away with the process, and libdispatch can
        // crash on it later: `_dispatch_event_loop_drain`, seen once in CI.)
        let reader = process.output!
        Thread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return }
                output.append(String(decoding: chunk, as: UTF8.self))
            }
        }.start()
        for _ in 0..<600 {
            if let ready = output.all.first, ready.hasPrefix("READY ") {
                struct Ready: Decodable {
                    var port: Int
                    var ca: String?
                }
                let info = try JSONDecoder().decode(Ready.self, from: Data(ready.dropFirst(6).utf8))
                return LocalSMTPServer(port: info.port, caFile: info.ca, process: process, output: output)
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.terminate()
        process.waitUntilExit()
        throw TestFailure(
            "the local SMTP server did not start (is aiosmtpd installed? `python3 -m pip install aiosmtpd`; .ci/run installs it)")
    }

    /// Messages received so far, waiting up to five seconds for at least `count`.
    func messages(atLeast count: Int) async throws -> [Received] {
        for _ in 0..<100 {
            let current = Array(output.all.dropFirst())
            if current.count >= count {
                return try current.map { try JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return try Array(output.all.dropFirst()).map { try JSONDecoder().decode(Received.self, from: Data($0.utf8)) }
    }

    func stop() {
        try? process.input?.close()
        process.terminate()
        process.waitUntilExit()
    }

    static func with(mode: String, _ body: (LocalSMTPServer) async throws -> Void) async throws {
        let server = try await start(mode: mode)
        do {
            try await body(server)
        } catch {
            server.stop()
            throw error
        }
        server.stop()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A transport that fails the way it is told.
struct FailingTransport: MailTransport {
    let name = "failing"
    let permanent: Bool

    func send(_ message: MailMessage) async throws {
        throw MailDeliveryError(permanent: permanent, "test failure")
    }
}

@Suite(.serialized) struct SMTPTransportTests {
    static let message = MailMessage(
        from: "Povver <no-reply@povver.test>", to: "ann@example.com", subject: "Réinitialiser — reset",
        body: "Line one\n.starts with a dot\n\nCode: abc_DEF-123\n")

    /// A reply injected in plain text right behind the server's `220` to STARTTLS (an on-path attacker) is never
    /// taken as a reply of the encrypted session: the upgrade is refused, as a temporary failure.
    @Test func aReplyInjectedBehindSTARTTLSIsRefused() async throws {
        try await LocalSMTPServer.with(mode: "desync") { smtp in
            let transport = try SMTPMailTransport(
                settings: SMTPSettings(
                    host: "127.0.0.1", port: smtp.port, security: .startTLS, username: "povver", password: "s3cret", caFile: nil,
                    timeout: .seconds(10)))
            do {
                try await transport.send(Self.message)
                Issue.record("delivered through a desynced session")
            } catch let error as MailDeliveryError {
                #expect(!error.permanent && error.description.contains("more than its reply to STARTTLS"), "\(error)")
            }
        }
    }

    /// STARTTLS, certificate verification against the test CA, AUTH, then the message arrives intact
    /// (non-ASCII subject, a line starting with a dot).
    @Test func deliversOverSTARTTLSWithAuth() async throws {
        try await LocalSMTPServer.with(mode: "starttls") { smtp in
            let transport = try SMTPMailTransport(
                settings: SMTPSettings(
                    host: "localhost", port: smtp.port, security: .startTLS, username: "povver", password: "s3cret", caFile: smtp.caFile,
                    timeout: .seconds(10)))
            try await transport.send(Self.message)
            let received = try await smtp.messages(atLeast: 1)
            let mail = try #require(received.first)
            #expect(mail.tls && mail.authenticated)
            #expect(mail.mail_from == "no-reply@povver.test")
            #expect(mail.rcpt_tos == ["ann@example.com"])
            #expect(mail.subject == "Réinitialiser — reset")
            #expect(mail.body.replacingOccurrences(of: "\r\n", with: "\n") == Self.message.body)
        }
    }

    /// A wrong password is a permanent failure (never retried into a lockout); an untrusted certificate and a
    /// server without STARTTLS are refused before any credential is sent.
    @Test func refusesWrongPasswordUntrustedCertificateAndMissingSTARTTLS() async throws {
        try await LocalSMTPServer.with(mode: "starttls") { smtp in
            let wrong = try SMTPMailTransport(
                settings: SMTPSettings(
                    host: "localhost", port: smtp.port, security: .startTLS, username: "povver", password: "nope", caFile: smtp.caFile))
            await #expect { try await wrong.send(Self.message) } throws: { ($0 as? MailDeliveryError)?.permanent == true }
            let untrusted = try SMTPMailTransport(
                settings: SMTPSettings(host: "localhost", port: smtp.port, security: .startTLS, username: "povver", password: "s3cret"))
            await #expect(throws: MailDeliveryError.self) { try await untrusted.send(Self.message) }
            #expect(try await smtp.messages(atLeast: 0).isEmpty)
        }
        try await LocalSMTPServer.with(mode: "plain") { smtp in
            let transport = try SMTPMailTransport(
                settings: SMTPSettings(host: "127.0.0.1", port: smtp.port, security: .startTLS, username: "povver", password: "s3cret"))
            await #expect { try await transport.send(Self.message) } throws: {
                ($0 as? MailDeliveryError)?.description.contains("STARTTLS") == true
            }
            let plain = try SMTPMailTransport(settings: SMTPSettings(host: "127.0.0.1", port: smtp.port, security: .none))
            try await plain.send(Self.message)
            #expect(try await smtp.messages(atLeast: 1).count == 1)
        }
    }

    /// The whole path: `sendPasswordReset` over HTTP → outbox → sender → SMTP server. The delivered code resets
    /// the password, and the outbox keeps no copy of it after delivery.
    @Test func passwordResetMailTravelsThroughTheOutboxOverSMTP() async throws {
        try await LocalSMTPServer.with(mode: "starttls") { smtp in
            let clock = FakeWallClock()
            let environment = [
                "POVVER_MAIL_TRANSPORT": "smtp", "POVVER_SMTP_HOST": "localhost", "POVVER_SMTP_PORT": "\(smtp.port)",
                "POVVER_SMTP_USERNAME": "povver", "POVVER_SMTP_PASSWORD": "s3cret", "POVVER_SMTP_CA_FILE": smtp.caFile ?? "",
                "POVVER_MAIL_FROM": "Povver <no-reply@povver.test>",
            ]
            try await TestServer.with(.sqlite, environment: environment, clock: clock) { server, client in
                let api = client.api()
                _ = try await client.signUp(email: "smtp@example.com", password: "password-1")
                _ = try await api.sendPasswordReset(body: .json(.init(email: "smtp@example.com"))).ok
                _ = try await server.auth.mailSender.deliverDue()  // the server's own sender may have been first
                // The sign-up's verification mail went too.
                let mail = try #require(try await smtp.messages(atLeast: 2).first { $0.subject == "Reset your Povver password" })
                #expect(mail.rcpt_tos == ["smtp@example.com"])
                #expect(mail.subject == "Reset your Povver password")
                let code = String(try #require(mail.body.firstMatch(of: /oobCode=([A-Za-z0-9_-]+)/)).1)
                var stored = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
                for _ in 0..<100 where stored.status != "sent" {
                    try await Task.sleep(for: .milliseconds(20))
                    stored = try #require(try await server.auth.outbox.list().first { $0.kind == "password_reset" })
                }
                #expect(stored.status == "sent" && stored.transport == "smtp")
                #expect(stored.body.isEmpty, "the code is not kept once delivered")
                _ = try await api.resetPassword(body: .json(.init(code: code, newPassword: "password-2"))).ok
                _ = try await client.signIn(email: "smtp@example.com", password: "password-2")
            }
        }
    }

    /// Temporary failures are retried with backoff; permanent ones stop at once; nothing is lost in between.
    /// (Auth alone, so no background sender races the test's.)
    @Test(arguments: TestDatabases.engines)
    func outboxRetriesTemporaryFailures(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations)]) { db in
            let clock = FakeWallClock()
            let auth = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: clock, ids: RandomIDGenerator(),
                http: .shared, threadPool: .singleton)
            let logger = TestDatabases.logger
            _ = try await auth.service.signUp(email: "retry@example.com", password: "password-1", name: nil, timeZone: nil)  // mails a code
            let failing = MailSender(outbox: auth.outbox, transport: FailingTransport(permanent: false), logger: logger)
            #expect(try await failing.deliverDue() == 1)
            var mail = try #require(try await auth.outbox.list().first)
            #expect(mail.status == "pending" && mail.attempts == 1 && mail.lastError == "test failure")
            #expect(try await failing.deliverDue() == 0, "not due again before its backoff")
            clock.advance(by: 31)
            #expect(try await failing.deliverDue() == 1)
            clock.advance(by: 61)
            let working = MailSender(outbox: auth.outbox, transport: LogMailTransport(logger: logger), logger: logger)
            #expect(try await working.deliverDue() == 1)
            mail = try #require(try await auth.outbox.list().first)
            #expect(mail.status == "sent" && mail.attempts == 3 && mail.transport == "log")
            #expect(mail.body.contains("oobCode="), "the log transport keeps the message readable for developers")

            clock.advance(by: 1)
            try await auth.service.sendPasswordReset(email: "retry@example.com")
            let refused = MailSender(outbox: auth.outbox, transport: FailingTransport(permanent: true), logger: logger)
            #expect(try await refused.deliverDue() == 1)
            let refusedMail = try #require(try await auth.outbox.list().first)
            #expect(refusedMail.status == "failed" && refusedMail.body.isEmpty, "its code has no reason to stay")
            #expect(try await refused.deliverDue() == 0)
        }
    }
}
