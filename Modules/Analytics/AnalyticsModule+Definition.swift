import Contracts
import Platform

extension AnalyticsModule {
    /// Analytics in a composition: provides the training analytics and the product event sink (and itself, for the
    /// admin CLI); consumes the account directory (time zone and week start), the training log and the exercise
    /// catalog (muscles). `settings`: the product events' retention and rate.
    public static func definition(settings: AnalyticsSettings = AnalyticsSettings()) -> ModuleDefinition {
        ModuleDefinition(
            name: "analytics", provides: [Contract.trainingAnalytics.erased, Contract.productEvents.erased, Self.handle.erased],
            consumes: [Contract.accountDirectory.erased, Contract.trainingLog.erased, Contract.exerciseCatalog.erased]
        ) { context in
            let platform = context.platform
            let module = AnalyticsModule(
                database: platform.database, accounts: try context.require(Contract.accountDirectory),
                log: try context.require(Contract.trainingLog), catalog: try context.require(Contract.exerciseCatalog),
                clock: platform.clock, ids: platform.ids, settings: settings)
            var plugin = module.plugin
            plugin.provides = [
                ProvidedContract(Contract.trainingAnalytics, module.trainingAnalytics),
                ProvidedContract(Contract.productEvents, module.product.sink), ProvidedContract(Self.handle, module),
            ]
            return plugin
        }
    }

    /// The built module itself, for the admin CLI (`povver-analytics`) composed with it.
    public static let handle = ContractKey<AnalyticsModule>(name: "AnalyticsModule", providedBy: "analytics")
}
