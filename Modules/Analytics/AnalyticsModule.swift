import Contracts
import Platform

/// Analytics: training and product analytics. Plugged in with its name and eraser; its tables, routes, handlers and jobs arrive with
/// the issue that builds the module.
public struct AnalyticsModule: Sendable {
    public init() {}

    /// Analytics in a composition; consumes nothing yet.
    public static func definition() -> ModuleDefinition {
        ModuleDefinition(name: "analytics") { _ in AnalyticsModule().plugin }
    }

    public var plugin: ModulePlugin {
        ModulePlugin(name: "analytics", eraser: AnalyticsUserDataEraser())
    }
}

/// Erases the user's Analytics data. The module owns no tables yet, so there is nothing of a user to remove;
/// each table the module adds is deleted here in the same change.
public struct AnalyticsUserDataEraser: UserDataEraser {
    public let module = "analytics"

    public init() {}

    public func eraseUserData(userId: String) async throws {}
}
