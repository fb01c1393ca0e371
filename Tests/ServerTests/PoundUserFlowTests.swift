import Foundation
import HTTPTypes
import Platform
import PovverApp
import PovverClient
import Subscription
import TestSupport
import Testing

/// A lifter who reads pounds, end to end over HTTP: `weight_format` chosen with `updateUser` makes the coach read
/// "8 @ 135" as pounds, store kilograms and answer in pounds, and an import without `weight_unit` read pounds.
@Suite struct PoundUserFlowTests {
    @Test(arguments: TestDatabases.engines)
    func aPoundUserLogsPoundsAndReadsPounds(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("pounds@example.com")
            let api = client.api(token)
            _ = try await api.updateUser(body: .json(.init(weightFormat: .pounds))).ok
            let userId = try await api.getUser(body: .json(.init())).ok.body.json.data.id
            _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")

            let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "start-lb", name: "Bench day"))).ok.body.json
                .data.id
            _ = try await api.addExercise(
                body: .json(.init(exerciseId: WorkoutsFlowTests.bench, idempotencyKey: "add-lb", sets: 2, workoutId: workoutId))
            ).ok
            let logged = try await client.coachEvents(.init(message: "8 @ 135", legacyWorkoutId: workoutId), token: token)
            #expect(logged.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 8 × 135 lb."), "\(logged)")
            let active = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data
            let sets = active?.exercises.first?.sets ?? []
            #expect(
                sets.first?.weightKg == 61.23 && sets.first?.reps == 8, "the API's numbers stay kilograms: \(String(describing: active))")

            // A Strong export's "80" is 80 lb for this user when the request names no unit.
            let imported = try await api.importWorkouts(body: .json(.init(content: ImportFlowTests.file, format: .strongCsv))).ok.body.json
                .data
            let importedId = try #require(imported.workoutIds.first, "\(imported)")
            let workout = try await api.getWorkout(body: .json(.init(workoutId: importedId))).ok.body.json.data
            #expect(workout.exercises.flatMap(\.sets).map(\.weightKg) == [36.29], "\(workout)")
        }
    }
}
