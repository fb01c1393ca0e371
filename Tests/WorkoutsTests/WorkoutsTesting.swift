import Contracts
import Fakes
import Platform
import TestSupport
import Workouts

/// Workouts as the server builds it: its definition composed on `database` (tables migrated, contracts checked), with a
/// fake account directory for the one contract it consumes unless a test gives its own.
enum WorkoutsTesting {
    static func module(
        _ database: Database, clock: any WallClock = FakeWallClock(), accounts: any AccountDirectory = FakeAccountDirectory()
    ) async throws -> WorkoutsModule {
        let composition = try await TestComposition.build(
            WorkoutsModule.definition(), neighbours: [ProvidedContract(Contract.accountDirectory, accounts)],
            platform: TestComposition.platform(database, clock: clock))
        return try composition.module(WorkoutsModule.self)
    }
}
