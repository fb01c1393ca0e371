import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import SQLKit
import Synchronization
import TestSupport
import Testing

/// Starting a workout from a routine and finishing one, through HTTP on every engine.
@Suite struct WorkoutStartAndFinishTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    /// Both `template_id` and `routine_id`: the template must be one of the routine's, else INVALID_ARGUMENT
    /// and nothing starts.
    @Test(arguments: TestDatabases.engines)
    func startingFromATemplateOutsideTheRoutineIsRejected(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("outsider@example.com")
            let inside = try await WorkoutsHTTP.template(client, "Inside", exercise: Self.squat, token: token)
            let outside = try await WorkoutsHTTP.template(client, "Outside", exercise: Self.bench, token: token)
            let routine = try await client.call("createRoutine", ["name": "Only inside", "template_ids": [inside]], token: token)
            let routineId = try #require(routine.data["id"] as? String)

            let rejected = try await client.call(
                "startActiveWorkout", ["template_id": outside, "routine_id": routineId, "idempotency_key": "s1"], token: token)
            #expect(rejected.status == .badRequest)
            #expect(rejected.errorCode == "INVALID_ARGUMENT")
            #expect(rejected.errorDetails?["field"] as? String == "template_id")
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull, "no workout started")

            let accepted = try await client.call(
                "startActiveWorkout", ["template_id": inside, "routine_id": routineId, "idempotency_key": "s2"], token: token)
            #expect(accepted.status == .ok)
            #expect(accepted.data["source_template_id"] as? String == inside)
            #expect(accepted.data["source_routine_id"] as? String == routineId)
        }
    }

    /// Finishing a workout with no set logged is `FAILED_PRECONDITION` and changes nothing: no archive, no
    /// `WorkoutCompleted`, the routine's next template stays the same and the workout stays in progress. The
    /// key stores nothing, so the same key completes it once a set is logged; cancelling stays possible.
    @Test(arguments: TestDatabases.engines)
    func finishingWithNothingLoggedIsRefused(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("idle@example.com")
            let template = try await client.call(
                "createTemplate",
                ["name": "A", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5], ["target_reps": 5]]]]], token: token)
            let templateId = try #require(template.data["id"] as? String)
            let second = try await client.call(
                "createTemplate", ["name": "B", "exercises": [["exercise_id": Self.curl, "sets": [["target_reps": 10]]]]], token: token)
            let routine = try await client.call(
                "createRoutine", ["name": "R", "template_ids": [templateId, try #require(second.data["id"] as? String)]], token: token)
            let routineId = try #require(routine.data["id"] as? String)
            _ = try await client.call("setActiveRoutine", ["routine_id": routineId], token: token)
            let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s1"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            #expect(started.data["source_template_id"] as? String == templateId)

            let refused = try await client.call("completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            #expect(refused.status == .preconditionFailed, "\(refused.json)")
            #expect(refused.errorCode == "FAILED_PRECONDITION")
            #expect(refused.errorDetails?["logged_sets"] as? String == "0")
            let active = try await client.call("getActiveWorkout", token: token)
            #expect(active.data["status"] as? String == "in_progress")
            #expect(active.data["version"] as? Int == started.data["version"] as? Int)
            #expect((try await client.call("getRecentWorkouts", token: token).data["items"] as? [Any])?.isEmpty == true)
            let events = try await server.database.sql.raw(
                "SELECT COUNT(*) AS n FROM platform_outbox WHERE type = \(bind: WorkoutCompleted.eventType)"
            )
            .first(decodingColumn: "n", as: Int.self)
            #expect(events == 0, "no WorkoutCompleted")
            #expect(
                try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == templateId,
                "the routine does not move on")

            // Once a set is logged, the same key completes it.
            let exercise = try WorkoutsHTTP.exercise(active.data)
            _ = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": exercise.instanceId, "set_id": exercise.setIds[0], "weight_kg": 100,
                    "reps": 5, "idempotency_key": "l1",
                ],
                token: token)
            let completed = try await client.call(
                "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token)
            #expect(completed.status == .ok, "\(completed.json)")
            #expect(((completed.data["analytics"] as? [String: Any])?["totals"] as? [String: Any])?["sets"] as? Int == 1)

            // An idle workout can still be cancelled.
            let idle = try await client.call("startActiveWorkout", ["name": "Idle", "idempotency_key": "s2"], token: token)
            let idleId = try #require(idle.data["id"] as? String)
            let cancelled = try await client.call("cancelActiveWorkout", ["workout_id": idleId, "idempotency_key": "x1"], token: token)
            #expect(cancelled.status == .ok, "\(cancelled.json)")
            #expect(try await client.call("getActiveWorkout", token: token).json["data"] is NSNull)
        }
    }
}
