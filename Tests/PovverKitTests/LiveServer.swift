import Auth
import Contracts
import Foundation
import Hummingbird
import HummingbirdTesting
import OpenAPIRuntime
import Platform
import PovverApp
import PovverClient
import PovverKit
import PovverModules
import Subscription
import TestSupport
import Testing

/// The whole server composed in-process on a private database and listening on a real port of 127.0.0.1, for the
/// kit to speak to over HTTP as the app does.
struct LiveServer: Sendable {
    let server: PovverServer
    let url: URL

    /// Runs `body` against a live server on `engine`.
    static func with(
        _ engine: SQLEngine, environment: [String: String] = [:], _ body: @escaping @Sendable (LiveServer) async throws -> Void
    )
        async throws
    {
        let location = try await TestDatabases.makeLocation(engine)
        do {
            var config = try AppConfig.fromEnvironment(
                ["POVVER_BCRYPT_COST": "4", "POVVER_PORT": "0"].merging(environment) { _, new in new })
            config.database = location
            let modules = try PovverModules.definitions(config.modules, environment: config.environment, signingKey: .generate())
            let server = try await PovverServer.build(config: config, modules: modules, logger: TestDatabases.logger)
            try await server.application().test(.live) { client in
                let port = try #require(client.port)
                try await body(LiveServer(server: server, url: try #require(URL(string: "http://127.0.0.1:\(port)"))))
            }
        } catch {
            try? await TestDatabases.dispose(location)
            throw error
        }
        try await TestDatabases.dispose(location)
    }

    /// A kit on this server with its session in a fresh file, and the given transport and middlewares.
    func kit(
        transport: (any ClientTransport)? = nil, middlewares: [any ClientMiddleware] = [], now: @escaping @Sendable () -> Date = { Date() }
    ) -> Povver {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("povverkit-\(UUID().uuidString)/session.json")
        return Povver(
            serverURL: url, sessions: FileSessionStore(url: file), transport: transport, middlewares: middlewares,
            refreshRetryDelays: [.zero, .zero, .zero], now: now)
    }

    /// Makes `userId` premium (the coach needs it), as an operator's override does.
    func makePremium(_ userId: String) async throws {
        _ = try await server.composition.module(SubscriptionModule.self).service.setOverride(userId: userId, override: "premium")
    }
}
