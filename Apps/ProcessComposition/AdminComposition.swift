import Foundation
import Logging
import Platform

/// What an admin CLI works on: the server's database with only the modules the command needs composed.
public enum AdminComposition {
    /// Reads `environment` as the server does (`databaseURL` overriding `POVVER_DATABASE_URL`), composes the modules
    /// `definitions` makes from it on the existing database (only their tables are created if missing), runs `body`
    /// without serving HTTP, and closes the database afterwards, also when `body` throws. A CLI names the modules it
    /// composes here, and depends on exactly those targets (`Tools/check-architecture`).
    public static func with<R: Sendable>(
        definitions: ([String: String]) throws -> [ModuleDefinition], environment: [String: String], databaseURL: String?,
        label: String, _ body: (Composition) async throws -> R
    ) async throws -> R {
        var logger = Logger(label: label)
        logger.logLevel = .warning
        var environment = environment
        if let databaseURL { environment["POVVER_DATABASE_URL"] = databaseURL }
        let config = try AppConfig.fromEnvironment(environment)
        let definitions = try definitions(environment)
        try config.database.requireExistingFile()
        let database = try await Database.open(config.database, logger: logger)
        do {
            let platform = try PlatformServices.forProcess(config: config, database: database, logger: logger)
            let composition = try await Composition.build(definitions, platform: platform)
            let result = try await body(composition)
            await database.shutdown()
            return result
        } catch {
            await database.shutdown()
            throw error
        }
    }
}
