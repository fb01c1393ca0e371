import Contracts
import Platform

extension WorkoutsModule {
    /// Workouts in a composition: provides the exercise catalog, plan library, training log and active-workout
    /// control (and itself, for the admin CLI); consumes the account directory (an import's default unit is the
    /// user's).
    public static func definition() -> ModuleDefinition {
        ModuleDefinition(
            name: "workouts",
            provides: [
                Contract.exerciseCatalog.erased, Contract.planLibrary.erased, Contract.trainingLog.erased,
                Contract.activeWorkoutControl.erased,
                Self.handle.erased,
            ],
            consumes: [Contract.accountDirectory.erased]
        ) { context in
            let platform = context.platform
            let module = WorkoutsModule(
                database: platform.database, clock: platform.clock, ids: platform.ids,
                accounts: try context.require(Contract.accountDirectory))
            var plugin = module.plugin
            plugin.provides = [
                ProvidedContract(Contract.exerciseCatalog, module.catalog), ProvidedContract(Contract.planLibrary, module.planLibrary),
                ProvidedContract(Contract.trainingLog, module.trainingLog),
                ProvidedContract(Contract.activeWorkoutControl, module.activeWorkoutControl),
                ProvidedContract(Self.handle, module),
            ]
            return plugin
        }
    }

    /// The built module itself, for the admin CLI (`povver-workouts`) composed with it.
    public static let handle = ContractKey<WorkoutsModule>(name: "WorkoutsModule", providedBy: "workouts")
}
