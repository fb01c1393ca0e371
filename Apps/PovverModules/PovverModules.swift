import Analytics
import Auth
import Contracts
import Conversations
import Platform
import Recommendations
import Subscription
import Web
import Workouts

/// Every module of Povver by name, as definitions a composition takes. Each reads its own settings from the
/// environment here, so a bad value stops the start (naming the variable) before the database opens.
public enum PovverModules {
    /// In the order the full server composes them.
    public static let names = ModuleName.all

    /// The definitions of `names` (every module when nil: `POVVER_MODULES` unset), in the full server's order.
    /// Throws `CompositionError.unknownModule` for a name that is no module. `signingKey` overrides Auth's key file (tests).
    public static func definitions(
        _ names: [String]? = nil, environment: [String: String], signingKey: SigningKey? = nil
    ) throws -> [ModuleDefinition] {
        let wanted = names ?? Self.names
        for name in wanted where !Self.names.contains(name) { throw CompositionError.unknownModule(name, known: Self.names) }
        return try Self.names.filter(wanted.contains).map { try definition($0, environment: environment, signingKey: signingKey) }
    }

    static func definition(_ name: String, environment: [String: String], signingKey: SigningKey?) throws -> ModuleDefinition {
        switch name {
        case ModuleName.auth: try AuthModule.definition(environment: environment, signingKey: signingKey)
        case ModuleName.subscription: try SubscriptionModule.definition(environment: environment)
        case ModuleName.conversations: try ConversationsModule.definition(environment: environment)
        case ModuleName.workouts: try WorkoutsModule.definition(environment: environment)
        case ModuleName.recommendations: try RecommendationsModule.definition(environment: environment)
        case ModuleName.analytics: try AnalyticsModule.definition(environment: environment)
        case ModuleName.web: try WebModule.definition(environment: environment)
        default: throw CompositionError.unknownModule(name, known: Self.names)
        }
    }
}
