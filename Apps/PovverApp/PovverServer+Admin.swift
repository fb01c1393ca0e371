import Foundation
import Logging
import Platform

extension PovverServer {
    /// The server's composition for an admin CLI (`povver-auth`, `povver-subscription`): reads `environment` as the
    /// server does, `databaseURL` overriding `POVVER_DATABASE_URL`; runs `body` without serving HTTP and closes the
    /// database afterwards, also when `body` throws.
    public static func withAdminComposition<R: Sendable>(
        environment: [String: String], databaseURL: String?, label: String, _ body: (PovverServer) async throws -> R
    ) async throws -> R {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        var environment = environment
        if let databaseURL { environment["POVVER_DATABASE_URL"] = databaseURL }
        let config = try AppConfig.fromEnvironment(environment)
        try config.database.requireExistingFile()
        let server = try await PovverServer.build(config: config, logger: logger)
        do {
            let result = try await body(server)
            await server.database.shutdown()
            return result
        } catch {
            await server.database.shutdown()
            throw error
        }
    }
}
