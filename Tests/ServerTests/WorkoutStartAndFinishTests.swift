import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
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
            let api = client.api(token)
            let inside = try await WorkoutsHTTP.template(client, "Inside", exercise: Self.squat, token: token)
            let outside = try await WorkoutsHTTP.template(client, "Outside", exercise: Self.bench, token: token)
            let routineId = try await api.createRoutine(body: .json(.init(name: "Only inside", templateIds: [inside]))).ok.body.json.data.id

            let rejected = try #require(
                await refused {
                    try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", routineId: routineId, templateId: outside)))
                })
            #expect(rejected.status == 400)
            #expect(rejected.code == "INVALID_ARGUMENT")
            #expect(rejected.details["field"] == "template_id")
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil, "no workout started")

            let accepted = try await api.startActiveWorkout(
                body: .json(.init(idempotencyKey: "s2", routineId: routineId, templateId: inside))
            ).ok.body.json.data
            #expect(accepted.sourceTemplateId == inside)
            #expect(accepted.sourceRoutineId == routineId)
        }
    }

    /// Finishing a workout with no set logged is `FAILED_PRECONDITION` and changes nothing: no archive, no
    /// `WorkoutCompleted`, the routine's next template stays the same and the workout stays in progress. The
    /// key stores nothing, so the same key completes it once a set is logged; cancelling stays possible.
    @Test(arguments: TestDatabases.engines)
    func finishingWithNothingLoggedIsRefused(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("idle@example.com")
            let api = client.api(token)
            let templateId = try await api.createTemplate(
                body: .json(
                    .init(exercises: [.init(exerciseId: Self.squat, sets: [.init(targetReps: 5), .init(targetReps: 5)])], name: "A"))
            ).ok.body.json.data.id
            let second = try await api.createTemplate(
                body: .json(.init(exercises: [.init(exerciseId: Self.curl, sets: [.init(targetReps: 10)])], name: "B"))
            ).ok.body.json.data.id
            let routineId = try await api.createRoutine(body: .json(.init(name: "R", templateIds: [templateId, second]))).ok.body.json.data
                .id
            _ = try await api.setActiveRoutine(body: .json(.init(routineId: routineId)))
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", routineId: routineId))).ok.body.json.data
            let workoutId = started.id
            #expect(started.sourceTemplateId == templateId)

            let complete = Operations.CompleteActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "c1", workoutId: workoutId)
            let refusal = try #require(await refused { try await api.completeActiveWorkout(body: .json(complete)) })
            #expect(refusal.status == 412, "\(refusal)")
            #expect(refusal.code == "FAILED_PRECONDITION")
            #expect(refusal.details["logged_sets"] == "0")
            let active = try #require(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data)
            #expect(active.status == .inProgress)
            #expect(active.version == started.version)
            #expect(try await api.getRecentWorkouts(body: .json(.init())).ok.body.json.data.items.isEmpty)
            let events = try await server.database.sql.raw(
                "SELECT COUNT(*) AS n FROM platform_outbox WHERE type = \(bind: WorkoutCompleted.eventType)"
            )
            .first(decodingColumn: "n", as: Int.self)
            #expect(events == 0, "no WorkoutCompleted")
            #expect(
                try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == templateId,
                "the routine does not move on")

            // Once a set is logged, the same key completes it.
            let exercise = try WorkoutsHTTP.exercise(active)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: exercise.instanceId, idempotencyKey: "l1", reps: 5, setId: exercise.setIds[0], weightKg: 100,
                        workoutId: workoutId)))
            let completed = try await api.completeActiveWorkout(body: .json(complete)).ok.body.json.data
            #expect(completed.analytics.totals.sets == 1)

            // An idle workout can still be cancelled.
            let idleId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s2", name: "Idle"))).ok.body.json.data.id
            _ = try await api.cancelActiveWorkout(body: .json(.init(idempotencyKey: "x1", workoutId: idleId))).ok
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil)
        }
    }
}
