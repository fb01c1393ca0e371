import Contracts
import Platform

extension RecommendationsModule {
    /// Recommendations in a composition: provides the analysis summaries the coach reads (and itself, for the CLI);
    /// consumes the training log, training analytics, plans, the account directory (time zones), the premium gate
    /// and the product event sink.
    public static func definition(settings: RecommendationsSettings = RecommendationsSettings()) -> ModuleDefinition {
        ModuleDefinition(
            name: "recommendations", provides: [Contract.trainingAnalysisSummaries.erased, Self.handle.erased],
            consumes: [
                Contract.trainingLog.erased, Contract.trainingAnalytics.erased, Contract.planLibrary.erased,
                Contract.accountDirectory.erased,
                Contract.premiumGate.erased, Contract.productEvents.erased,
            ]
        ) { context in
            let module = RecommendationsModule(
                platform: context.platform, settings: settings, log: try context.require(Contract.trainingLog),
                analytics: try context.require(Contract.trainingAnalytics), plans: try context.require(Contract.planLibrary),
                accounts: try context.require(Contract.accountDirectory), premium: try context.require(Contract.premiumGate),
                events: try context.require(Contract.productEvents))
            var plugin = module.plugin
            plugin.provides = [
                ProvidedContract(Contract.trainingAnalysisSummaries, module.summaries), ProvidedContract(Self.handle, module),
            ]
            return plugin
        }
    }

    /// The built module itself, for the CLI (`povver-recommendations`) composed with it.
    public static let handle = ContractKey<RecommendationsModule>(name: "RecommendationsModule", providedBy: "recommendations")
}
