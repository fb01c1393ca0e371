import Contracts
import Platform

extension WorkoutsModule {
    /// Workouts in a composition: provides the exercise catalog, plan library, training log and active-workout
    /// control; consumes the account directory (an import's default unit is the user's).
    public static func definition() -> ModuleDefinition {
        ModuleDefinition(
            name: ModuleName.workouts,
            provides: [
                .contract(Contract.exerciseCatalog, \.catalog), .contract(Contract.planLibrary, \.planLibrary),
                .contract(Contract.trainingLog, \.trainingLog), .contract(Contract.activeWorkoutControl, \.activeWorkoutControl),
            ],
            consumes: [Contract.accountDirectory.erased],
            build: { context in
                let platform = context.platform
                return WorkoutsModule(
                    database: platform.database, clock: platform.clock, ids: platform.ids,
                    accounts: try context.require(Contract.accountDirectory))
            },
            plugin: { module, _ in module.plugin })
    }

    /// The definition (Workouts reads no setting of its own), as every module's is made from the environment.
    public static func definition(environment: [String: String]) throws -> ModuleDefinition {
        definition()
    }
}
