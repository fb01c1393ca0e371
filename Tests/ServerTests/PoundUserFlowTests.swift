import Foundation
import HTTPTypes
import Platform
import PovverApp
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
            let chosen = try await client.call("updateUser", ["weight_format": "pounds"], token: token)
            #expect(chosen.status == .ok, "\(chosen.json)")
            let user = try await client.call("getUser", token: token)
            let userId = try #require((user.data["user"] as? [String: Any])?["id"] as? String ?? user.data["id"] as? String)
            _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")

            let started = try await client.call("startActiveWorkout", ["name": "Bench day", "idempotency_key": "start-lb"], token: token)
            let workoutId = try #require(started.data["id"] as? String, "\(started.json)")
            _ = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": WorkoutsFlowTests.bench, "sets": 2, "idempotency_key": "add-lb"],
                token: token)
            let logged = try await CoachFlowTests.stream(client, ["workoutId": workoutId, "message": "8 @ 135"], token: token)
            #expect(CoachFlowTests.text(logged).hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 8 × 135 lb."), "\(logged)")
            let active = try await client.call("getActiveWorkout", [:], token: token)
            let sets =
                (((active.data["workout"] as? [String: Any] ?? active.data)["exercises"] as? [[String: Any]])?.first?["sets"]
                    as? [[String: Any]]) ?? []
            #expect(
                sets.first?["weight_kg"] as? Double == 61.23 && sets.first?["reps"] as? Int == 8,
                "the API's numbers stay kilograms: \(active.json)")

            // A Strong export's "80" is 80 lb for this user when the request names no unit.
            let imported = try await client.call("importWorkouts", ["format": "strong_csv", "content": ImportFlowTests.file], token: token)
            let importedId = try #require((imported.data["workout_ids"] as? [String])?.first, "\(imported.json)")
            let workout = try await client.call("getWorkout", ["workout_id": importedId], token: token)
            let importedSets = (workout.data["exercises"] as? [[String: Any]] ?? []).flatMap { $0["sets"] as? [[String: Any]] ?? [] }
            #expect(importedSets.map { $0["weight_kg"] as? Double } == [36.29], "\(workout.json)")
        }
    }
}
