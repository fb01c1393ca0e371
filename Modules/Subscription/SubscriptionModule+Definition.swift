import Contracts
import Platform

extension SubscriptionModule {
    /// Subscription in a composition: provides the premium gate, consumes nothing.
    public static func definition(settings: SubscriptionSettings) -> ModuleDefinition {
        ModuleDefinition(
            name: ModuleName.subscription, provides: [.contract(Contract.premiumGate, \.premiumGate)],
            build: { context in
                let platform = context.platform
                return SubscriptionModule(
                    database: platform.database, verifier: try settings.verifier(), clock: platform.clock, ids: platform.ids,
                    metrics: platform.metrics, logger: platform.logger, lapseGrace: settings.lapseGrace, productIDs: settings.productIDs)
            },
            plugin: { module, _ in module.plugin })
    }

    /// The definition with its settings read from `environment` (a bad value stops the start, naming the variable).
    public static func definition(environment: [String: String]) throws -> ModuleDefinition {
        definition(settings: try SubscriptionSettings(environment: environment))
    }
}
