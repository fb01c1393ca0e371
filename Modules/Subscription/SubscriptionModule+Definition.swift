import Contracts
import Platform

extension SubscriptionModule {
    /// Subscription in a composition: provides the premium gate (and itself, for the admin CLI), consumes nothing.
    public static func definition(settings: SubscriptionSettings) -> ModuleDefinition {
        ModuleDefinition(name: "subscription", provides: [Contract.premiumGate.erased, Self.handle.erased]) { context in
            let platform = context.platform
            let module = SubscriptionModule(
                database: platform.database, verifier: try settings.verifier(), clock: platform.clock, ids: platform.ids,
                metrics: platform.metrics, logger: platform.logger, lapseGrace: settings.lapseGrace, productIDs: settings.productIDs)
            var plugin = module.plugin
            plugin.provides = [ProvidedContract(Contract.premiumGate, module.premiumGate), ProvidedContract(Self.handle, module)]
            return plugin
        }
    }

    /// The built module itself, for the admin CLI (`povver-subscription`) composed with it.
    public static let handle = ContractKey<SubscriptionModule>(name: "SubscriptionModule", providedBy: "subscription")
}
