import Contracts
import Platform

extension RecommendationsModule {
    /// Recommendations in a composition: provides the analysis summaries the coach reads; consumes the training log,
    /// training analytics, plans, the account directory (time zones), the premium gate and the product event sink.
    public static func definition(settings: RecommendationsSettings = RecommendationsSettings()) -> ModuleDefinition {
        ModuleDefinition(
            name: ModuleName.recommendations, provides: [.contract(Contract.trainingAnalysisSummaries, \.summaries)],
            consumes: [
                Contract.trainingLog.erased, Contract.trainingAnalytics.erased, Contract.planLibrary.erased,
                Contract.accountDirectory.erased, Contract.premiumGate.erased, Contract.productEvents.erased,
            ],
            build: { context in
                RecommendationsModule(
                    platform: context.platform, settings: settings, log: try context.require(Contract.trainingLog),
                    analytics: try context.require(Contract.trainingAnalytics), plans: try context.require(Contract.planLibrary),
                    accounts: try context.require(Contract.accountDirectory), premium: try context.require(Contract.premiumGate),
                    events: try context.require(Contract.productEvents))
            },
            plugin: { module, _ in module.plugin })
    }

    /// The definition with its settings read from `environment` (a bad value stops the start, naming the variable).
    public static func definition(environment: [String: String]) throws -> ModuleDefinition {
        definition(settings: try RecommendationsSettings(environment: environment))
    }
}
