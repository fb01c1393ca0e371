import Auth
import Foundation
import Hummingbird
import HummingbirdTesting
import Platform
import PovverApp
import PovverModules
import TestSupport
import Testing

/// The read and write deadlines as a client meets them over a real socket, on the server `PovverServer.application`
/// builds. NIO's timers cannot be given a test clock from here, so these wait real time, on deadlines set far below
/// the settings' whole seconds (`RequestReadDeadlineTests` and `ResponseWriteDeadlineTests` drive the same handlers
/// on a clock that is advanced instead).
@Suite struct ConnectionDeadlineTests {
    /// A server with Auth alone (what the root consumes), listening on a free local port, with these deadlines.
    static func serving(
        readTimeout: Duration, writeTimeout: Duration, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        let location = try await TestDatabases.makeLocation(.sqlite)
        do {
            var config = try AppConfig.fromEnvironment(["POVVER_BCRYPT_COST": "4", "POVVER_PORT": "0"])
            config.database = location
            config.httpReadTimeout = readTimeout
            config.httpWriteTimeout = writeTimeout
            let modules = try PovverModules.definitions(["auth"], environment: config.environment, signingKey: .generate())
            let server = try await PovverServer.build(config: config, modules: modules, logger: TestDatabases.logger)
            try await server.application().test(.live) { client in try await body(try #require(client.port)) }
        } catch {
            try? await TestDatabases.dispose(location)
            throw error
        }
        try await TestDatabases.dispose(location)
    }

    /// `GET /health` with `Content-Length: 1`, the answer read, then the byte sent: the connection is still closed
    /// once the read timeout has passed (it used to stay open for good, the late byte having stopped the deadline).
    @Test func aBodySentAfterItsAnswerDoesNotKeepTheConnectionOpen() async throws {
        // Five seconds: the answer must be written within them (from the connection's opening) on a machine running
        // every suite at once, where one second was seen to pass before the server answered.
        try await Self.serving(readTimeout: .seconds(5), writeTimeout: .seconds(60)) { port in
            let client = try await RawClient.connect(port: port)
            try await client.send("GET /health HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\n\r\n")
            try await eventually("the answer is read", within: .seconds(20)) { client.text.contains(#"{"status":"ok"}"#) || !client.isOpen }
            #expect(client.text.hasPrefix("HTTP/1.1 200"), "answered before the deadline: \(client.text)")
            try await client.send("x")
            try await eventually("the connection is closed after the read timeout", within: .seconds(30)) { !client.isOpen }
            await client.close()
        }
    }

    /// A client that asks for answers and stops reading them loses its connection once the write timeout has passed
    /// with nothing taken, before it had everything it asked for (it used to be held until it read again).
    @Test func aClientThatStopsReadingLosesItsConnection() async throws {
        try await Self.serving(readTimeout: .seconds(60), writeTimeout: .milliseconds(250)) { port in
            let client = try await RawClient.connect(port: port, receiveBuffer: 4096)
            try await client.reading(false)
            // About 40 kB each, 16 MB in all: more than the two sockets' buffers hold.
            let asked = 400
            let request = "GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n"
            try await client.send(String(repeating: request, count: asked))
            // The server fills the sockets' buffers within milliseconds (a few hundred on a loaded machine), then waits
            // on a client that does not read, 250 ms at most.
            try await Task.sleep(for: .milliseconds(1500))
            try await client.reading(true)
            try await eventually("the connection is closed", within: .seconds(5)) { !client.isOpen }
            let answers = client.text.components(separatedBy: "HTTP/1.1 200").count - 1
            #expect(answers < asked, "cut off before the \(asked) answers it asked for (\(answers), \(client.byteCount) bytes)")
            await client.close()
        }
    }
}
