import Foundation
import OpenAPIRuntime
import Platform
import PovverClient
import PovverKit
import Synchronization
import TestSupport
import Testing

/// Signing in and keeping the session working: the session store, a refresh once for everyone who needs it, a lost
/// refresh answer retried inside the server's grace window, and a session the server ended.
@Suite struct SessionRefreshTests {
    @Test(arguments: TestDatabases.engines)
    func aSignUpKeepsTheSessionInTheStoreAndASignInReplacesIt(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("povverkit-\(UUID().uuidString)/session.json")
            let povver = Povver(serverURL: live.url, sessions: FileSessionStore(url: file))
            let signedUp = try await povver.auth.signUp(email: "store@example.com", password: "correct horse", name: "Store")
            #expect(try await FileSessionStore(url: file).load() == signedUp)

            // Another launch reads the session from the file and is signed in.
            let relaunched = Povver(serverURL: live.url, sessions: FileSessionStore(url: file))
            let user = try await relaunched.client.getUser(body: .json(.init()))
            #expect(try user.ok.body.json.data.email == "store@example.com")

            let signedIn = try await relaunched.auth.signIn(email: "store@example.com", password: "correct horse")
            #expect(signedIn.refreshToken != signedUp.refreshToken && signedIn.userId == signedUp.userId)
            #expect(try await FileSessionStore(url: file).load() == signedIn)

            try await relaunched.auth.signOut()
            #expect(try await FileSessionStore(url: file).load() == nil)
            await #expect(throws: PovverError.signedOut) { _ = try await relaunched.sessions.accessToken() }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func twoRefreshesAtOnceSendOneRefresh(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let network = NetworkConditions()
            let povver = live.kit(middlewares: [network])
            let first = try await povver.auth.signUp(email: "single-flight@example.com", password: "correct horse")
            async let one = povver.sessions.refresh()
            async let two = povver.sessions.refresh()
            let (a, b) = try await (one, two)
            #expect(a == b && a.refreshToken != first.refreshToken)
            #expect(network.delivered("refreshToken").map(\.refreshToken) == [first.refreshToken])
        }
    }

    @Test(arguments: TestDatabases.engines)
    func requestsThatFindTheTokenDueAtOnceShareOneRefresh(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let network = NetworkConditions()
            // The device's clock, moved past the access token's lifetime below.
            let offset = Mutex<TimeInterval>(0)
            let povver = live.kit(middlewares: [network], now: { Date().addingTimeInterval(offset.withLock { $0 }) })
            try await povver.auth.signUp(email: "due@example.com", password: "correct horse")
            offset.withLock { $0 = 15 * 60 }
            async let one = povver.client.getUser(body: .json(.init()))
            async let two = povver.client.getAccount(body: .json(.init()))
            let (user, account) = try await (one, two)
            #expect(try user.ok.body.json.data.email == "due@example.com")
            _ = try account.ok
            #expect(network.delivered("refreshToken").count == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aRefreshWhoseAnswerWasLostIsSentAgainAndGetsTheSameSuccessor(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let network = NetworkConditions()
            let povver = live.kit(middlewares: [network])
            let first = try await povver.auth.signUp(email: "lost-answer@example.com", password: "correct horse")
            network.set(.answerLost, for: "refreshToken")
            await #expect(throws: PovverError.self) { _ = try await povver.sessions.refresh() }
            // Every attempt reached the server with the one token: within the grace, each got the same successor.
            let sent = network.delivered("refreshToken")
            #expect(sent.count == 4 && Set(sent.map(\.refreshToken)) == [first.refreshToken])

            network.set(.online, for: "refreshToken")
            let renewed = try await povver.sessions.refresh()
            #expect(renewed.refreshToken != first.refreshToken)
            let user = try await povver.client.getUser(body: .json(.init()))
            #expect(try user.ok.body.json.data.email == "lost-answer@example.com", "the session survived the lost answers")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aSessionTheServerEndedSignsOut(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let povver = live.kit()
            let session = try await povver.auth.signUp(email: "ended@example.com", password: "correct horse")
            // Another device signs in and signs every session of the account out.
            let other = live.kit()
            try await other.auth.signIn(email: "ended@example.com", password: "correct horse")
            try await other.auth.signOut(allSessions: true)
            #expect(session.userId.isEmpty == false)
            await #expect(throws: PovverError.signedOut) { _ = try await povver.sessions.refresh() }
            #expect(try await povver.sessions.current() == nil)
        }
    }
}
