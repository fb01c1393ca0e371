import Contracts
import Platform

/// Recommendations: the training analyst and auto-pilot recommendations. Plugged in with its name and eraser; its tables, routes, handlers and jobs arrive with
/// the issue that builds the module.
public struct RecommendationsModule: Sendable {
    public init() {}

    /// Recommendations in a composition; consumes nothing yet.
    public static func definition() -> ModuleDefinition {
        ModuleDefinition(name: "recommendations") { _ in RecommendationsModule().plugin }
    }

    public var plugin: ModulePlugin {
        ModulePlugin(name: "recommendations", eraser: RecommendationsUserDataEraser())
    }
}

/// Erases the user's Recommendations data. The module owns no tables yet, so there is nothing of a user to remove;
/// each table the module adds is deleted here in the same change.
public struct RecommendationsUserDataEraser: UserDataEraser {
    public let module = "recommendations"

    public init() {}

    public func eraseUserData(userId: String) async throws {}
}
