import Contracts
import Platform

extension AnalyticsModule {
    /// Analytics in a composition: provides the training analytics and the product event sink; consumes the account
    /// directory (time zone and week start), the training log and the exercise catalog (muscles). `settings`: the
    /// product events' retention and rate.
    public static func definition(settings: AnalyticsSettings = AnalyticsSettings()) -> ModuleDefinition {
        ModuleDefinition(
            name: ModuleName.analytics,
            provides: [.contract(Contract.trainingAnalytics, \.trainingAnalytics), .contract(Contract.productEvents, \.product.sink)],
            consumes: [Contract.accountDirectory.erased, Contract.trainingLog.erased, Contract.exerciseCatalog.erased],
            build: { context in
                let platform = context.platform
                return AnalyticsModule(
                    database: platform.database, accounts: try context.require(Contract.accountDirectory),
                    log: try context.require(Contract.trainingLog), catalog: try context.require(Contract.exerciseCatalog),
                    clock: platform.clock, ids: platform.ids, settings: settings)
            },
            plugin: { module, _ in module.plugin })
    }

    /// The definition with its settings read from `environment` (a bad value stops the start, naming the variable).
    public static func definition(environment: [String: String]) throws -> ModuleDefinition {
        definition(settings: try AnalyticsSettings(environment: environment))
    }
}
