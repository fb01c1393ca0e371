import Contracts
import Platform

extension ConversationsModule {
    /// Conversations in a composition: consumes the premium gate, the catalog, training analytics, the plan
    /// library, the active-workout control, the product event sink and the account directory; uses the training
    /// analyst's summaries when Recommendations is composed (without it the coach says there is no analysis yet);
    /// provides no contract. `model`: the coach's model when given (a test's scripted one), else the one `settings`
    /// configure.
    public static func definition(settings: ConversationsSettings, model given: (any CoachModel)? = nil) -> ModuleDefinition {
        ModuleDefinition(
            name: ModuleName.conversations, provides: [Provision<ConversationsModule>](),
            consumes: [
                Contract.premiumGate.erased, Contract.exerciseCatalog.erased, Contract.trainingAnalytics.erased,
                Contract.planLibrary.erased, Contract.activeWorkoutControl.erased, Contract.productEvents.erased,
                Contract.accountDirectory.erased,
            ],
            uses: [Contract.trainingAnalysisSummaries.erased],
            build: { context in
                let platform = context.platform
                return ConversationsModule(
                    settings: settings, database: platform.database, premium: try context.require(Contract.premiumGate),
                    catalog: try context.require(Contract.exerciseCatalog), analytics: try context.require(Contract.trainingAnalytics),
                    plans: try context.require(Contract.planLibrary), workouts: try context.require(Contract.activeWorkoutControl),
                    events: try context.require(Contract.productEvents), accounts: try context.require(Contract.accountDirectory),
                    analysis: try context.find(Contract.trainingAnalysisSummaries),
                    clock: platform.clock, ids: platform.ids, metrics: platform.metrics,
                    model: given ?? model(settings: settings, timer: platform.timer, metrics: platform.metrics))
            },
            plugin: { module, _ in module.plugin })
    }

    /// The definition with its settings read from `environment` (a bad value stops the start, naming the variable).
    public static func definition(environment: [String: String]) throws -> ModuleDefinition {
        definition(settings: try ConversationsSettings(environment: environment))
    }
}
