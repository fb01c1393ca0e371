import Auth
import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverModules
import Subscription
import TestSupport

/// The whole server, built by the composition root on a private database.
enum TestServer {
    /// `live`: over a real socket on 127.0.0.1 (the peer address is known), instead of straight to the router.
    /// `modules`: the composition (default: what `POVVER_MODULES` in `environment` names, every module when unset).
    static func with(
        _ engine: SQLEngine, environment: [String: String] = [:], modules: [ModuleDefinition]? = nil, clock: any WallClock = SystemClock(),
        live: Bool = false, _ body: @escaping @Sendable (PovverServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        let location = try await TestDatabases.makeLocation(engine)
        do {
            var config = try AppConfig.fromEnvironment(
                ["POVVER_BCRYPT_COST": "4", "POVVER_SERVICE_API_KEYS": "test-service-key", "POVVER_PORT": "0"].merging(environment) {
                    _, new in new
                })
            config.database = location
            // A server that refuses to start has closed its database; its file still goes.
            let modules = try modules ?? PovverModules.definitions(config.modules, environment: config.environment, signingKey: .generate())
            let server = try await PovverServer.build(config: config, modules: modules, logger: TestDatabases.logger, clock: clock)
            try await server.application().test(live ? .live : .router) { client in try await body(server, client) }
        } catch {
            try? await TestDatabases.dispose(location)
            throw error
        }
        try await TestDatabases.dispose(location)
    }
}

extension PovverServer {
    /// The composed Auth module (tests read its outbox and service).
    var auth: AuthModule { get throws { try composition.module(AuthModule.self) } }
    /// The composed Subscription module.
    var subscription: SubscriptionModule { get throws { try composition.module(SubscriptionModule.self) } }
}

extension TestClientProtocol {
    /// A GET the document has no operation for (the web app, a method the operation does not take).
    func get(_ path: String, token: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: path, method: .get, headers: headers)
    }
}
