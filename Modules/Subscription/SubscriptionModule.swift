import Contracts
import Platform

/// Subscription: App Store subscriptions, the premium gate and overrides. Plugged in with its name and eraser; its tables, routes, handlers and jobs arrive with
/// the issue that builds the module.
public struct SubscriptionModule: Sendable {
    public init() {}

    public var plugin: ModulePlugin {
        ModulePlugin(name: "subscription", eraser: SubscriptionUserDataEraser())
    }
}

/// Erases the user's Subscription data. The module owns no tables yet, so there is nothing of a user to remove;
/// each table the module adds is deleted here in the same change.
public struct SubscriptionUserDataEraser: UserDataEraser {
    public let module = "subscription"

    public init() {}

    public func eraseUserData(userId: String) async throws {}
}
