import Contracts
import Platform

/// Conversations: the AI coach: conversations, streaming, artifacts. Plugged in with its name and eraser; its tables, routes, handlers and jobs arrive with
/// the issue that builds the module.
public struct ConversationsModule: Sendable {
    public let settings: ConversationsSettings

    public init(settings: ConversationsSettings) {
        self.settings = settings
    }

    /// Conversations in a composition; consumes nothing yet.
    public static func definition(settings: ConversationsSettings) -> ModuleDefinition {
        ModuleDefinition(name: "conversations") { _ in ConversationsModule(settings: settings).plugin }
    }

    public var plugin: ModulePlugin {
        ModulePlugin(name: "conversations", eraser: ConversationsUserDataEraser())
    }
}

/// Erases the user's Conversations data. The module owns no tables yet, so there is nothing of a user to remove;
/// each table the module adds is deleted here in the same change.
public struct ConversationsUserDataEraser: UserDataEraser {
    public let module = "conversations"

    public init() {}

    public func eraseUserData(userId: String) async throws {}
}
