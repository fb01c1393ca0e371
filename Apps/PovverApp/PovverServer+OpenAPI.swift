import Auth
import Foundation
import Logging
import Platform
import PovverModules

extension PovverServer {
    /// The OpenAPI document of the default composition: every module, every setting at its default (the `POVVER_*`
    /// variables are not read), as the repository's `openapi.json` holds it (`OpenAPIDocument.stableText`). Composed
    /// on a temporary database with a throw-away signing key, so nothing is left behind. A server composed otherwise
    /// (`POVVER_MODULES`) serves its own document at `/openapi.json`.
    public static func defaultOpenAPIText(logger: Logger) async throws -> String {
        var config = try AppConfig.fromEnvironment([:])
        config.database = .sqliteMemory
        let modules = try PovverModules.definitions(environment: [:], signingKey: .generate())
        let server = try await build(config: config, modules: modules, logger: logger)
        do {
            let text = try OpenAPIDocument.stableText(server.openAPIDocument)
            await server.database.shutdown()
            return text
        } catch {
            await server.database.shutdown()
            throw error
        }
    }
}
