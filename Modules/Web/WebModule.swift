import Contracts
import Platform

/// The web app as a plug-in: the browser's Povver (HTML, CSS and JavaScript modules, a manifest and a service
/// worker) served at `/`. It provides and consumes no contract and keeps nothing of a user: the app speaks the
/// HTTP API like any other client.
public enum WebModule {
    /// The module in a composition: its routes over the files loaded once, when it is built.
    public static func definition(settings: WebSettings = WebSettings()) -> ModuleDefinition {
        ModuleDefinition(name: ModuleName.web) { _ in
            let app = try WebApp.load(settings: settings)
            return ModulePlugin(name: ModuleName.web, endpoints: WebEndpoints.make(app: app))
        }
    }

    /// The definition with its settings read from `environment` (a bad value stops the start, naming the variable).
    public static func definition(environment: [String: String]) throws -> ModuleDefinition {
        definition(settings: try WebSettings(environment: environment))
    }
}
