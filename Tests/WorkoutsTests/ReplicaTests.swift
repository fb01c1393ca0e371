import Contracts
import Fakes
import Foundation
import Platform
import Testing
import TestSupport
@testable import Workouts

@Suite struct ReplicaTests {
    /// Two server processes share one database: each keeps its own cache of the documents it wrote, and a
    /// write by the other is never overwritten with a stale copy.
    @Test(arguments: TestDatabases.engines)
    func writesFromTwoReplicasInterleaveWithoutLoss(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let first = WorkoutsModule(database: db, clock: SystemClock(), ids: RandomIDGenerator())
            let second = WorkoutsModule(database: db, clock: SystemClock(), ids: RandomIDGenerator())
            let started = try await first.active.start(userId: "u", request: .init(), idempotencyKey: nil).value()
            let added = try await first.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 4), key: nil
            ).value()
            let instance = added.exercises[0].instanceId
            let sets = added.exercises[0].sets.map(\.id)
            for (index, setId) in sets.enumerated() {
                let replica = index.isMultiple(of: 2) ? first : second
                _ = try await replica.active.logSet(
                    userId: "u", request: .init(workoutId: started.id, exerciseInstanceId: instance, setId: setId, weightKg: 100, reps: index + 1),
                    key: nil)
            }
            let final = try #require(try await second.active.active(userId: "u"))
            #expect(final.exercises[0].sets.map(\.reps) == [1, 2, 3, 4])
            #expect(final.totals.sets == 4)
            #expect(final.version == 6)
        }
    }
}
