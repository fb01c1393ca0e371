import Platform
import ProcessComposition

extension AdminComposition {
    /// `with(definitions:…)` for modules named as `POVVER_MODULES` names them (tests, and `povver-auth delete`, which
    /// composes every module).
    public static func with<R: Sendable>(
        modules: [String], environment: [String: String], databaseURL: String?, label: String, _ body: (Composition) async throws -> R
    ) async throws -> R {
        try await with(
            definitions: { try PovverModules.definitions(modules, environment: $0) }, environment: environment, databaseURL: databaseURL,
            label: label, body)
    }
}
