import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import OpenAPIRuntime
import Platform
import PovverApp
import PovverClient
import SQLKit
import Synchronization
import TestSupport
import Testing

/// Edits of the workout in progress through HTTP on every engine: swaps at the exercise cap, `set_field`, the
/// planned weights, `reorder_sets`.
@Suite struct ActiveWorkoutEditsTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    typealias PatchOp = Operations.PatchActiveWorkout.Input.Body.JsonPayload.OpsPayloadPayload

    /// A workout at the 50-exercise cap: swapping an exercise with logged sets (which splits it in two) is
    /// INVALID_ARGUMENT and changes nothing; swapping one with nothing logged (replaced in place) still works.
    @Test(arguments: TestDatabases.engines)
    func aSwapThatWouldSplitPastTheCapIsRefused(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("capped@example.com")
            let api = client.api(token)
            let exercises = Array(
                repeating: Operations.CreateTemplate.Input.Body.JsonPayload.ExercisesPayloadPayload(
                    exerciseId: Self.squat, sets: [.init(targetReps: 5)]),
                count: 50)
            let templateId = try await api.createTemplate(body: .json(.init(exercises: exercises, name: "Fifty"))).ok.body.json.data.id
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", templateId: templateId))).ok.body.json
                .data
            let workoutId = started.id
            let first = try started.exercise(at: 0)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: first.instanceId, idempotencyKey: "l1", reps: 5, setId: first.setIds[0], weightKg: 60,
                        workoutId: workoutId))
            ).ok
            let version = try await api.activeWorkout().version

            let split = try #require(
                await refused {
                    try await api.swapExercise(
                        body: .json(
                            .init(
                                exerciseInstanceId: first.instanceId, idempotencyKey: "w1", newExerciseId: Self.bench, workoutId: workoutId)
                        ))
                })
            #expect(split.code == "INVALID_ARGUMENT", "\(split)")
            #expect(split.details["field"] == "exercise_instance_id")
            let unchanged = try await api.activeWorkout()
            #expect(unchanged.version == version)
            #expect(unchanged.exercises.count == 50)

            let second = try started.exercise(at: 1)
            let swapped = try await api.swapExercise(
                body: .json(
                    .init(exerciseInstanceId: second.instanceId, idempotencyKey: "w2", newExerciseId: Self.bench, workoutId: workoutId))
            ).ok.body.json.data.exercises
            #expect(swapped.count == 50)
            #expect(swapped[1].exerciseId == Self.bench)
        }
    }

    /// `set_field` without `value` is INVALID_ARGUMENT and changes nothing; `"value": null` clears the field.
    @Test(arguments: TestDatabases.engines)
    func setFieldNeedsAValueAndNullClears(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("setter@example.com")
            let api = client.api(token)
            let workoutId = try await api.startActiveWorkout(body: .json(.init(name: "Fields"))).ok.body.json.data.id
            let squat = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a1", sets: 1, workoutId: workoutId))
            ).ok.body.json.data.exercise(at: 0)
            let setId = squat.setIds[0]
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: squat.instanceId, idempotencyKey: "l1", reps: 5, setId: setId, weightKg: 80,
                        workoutId: workoutId))
            ).ok
            let before = try await api.activeWorkout()
            #expect(before.set(setId)?.weightKg == 80)

            // An op without `value` at all: the client never sends one (it writes the null the document requires for a
            // nil value, `RequiredNulls`), so this body outside the document goes as JSON.
            let noValue = try await client.send(
                "patchActiveWorkout",
                [
                    "workout_id": .string(workoutId), "idempotency_key": "p1",
                    "ops": [
                        [
                            "op": "set_field", "exercise_instance_id": .string(squat.instanceId), "set_id": .string(setId),
                            "field": "weight_kg",
                        ]
                    ],
                ], token: token)
            let noValueDetails = noValue.body["error"]?["details"]
            #expect(noValue.status == .badRequest)
            #expect(noValue.code == "INVALID_ARGUMENT")
            #expect(noValueDetails?["field"] == "ops[0].value", "\(noValue.body)")
            let unchanged = try await api.activeWorkout()
            #expect(unchanged.set(setId)?.weightKg == 80, "a missing value is not a clear")
            #expect(unchanged.version == before.version)

            // `"value": null` clears: a nil value goes as the null the document requires (`RequiredNulls`).
            func clear(_ op: WorkoutPatchOp, key: String) async throws
                -> Operations.PatchActiveWorkout.Output.Ok.Body.JsonPayload.DataPayload
            {
                try await api.patchActiveWorkout(body: .json(.init(idempotencyKey: key, ops: [op], workoutId: workoutId))).ok.body.json.data
            }
            let cleared = try await clear(.setWeight(squat.instanceId, setId, nil), key: "p2")
            #expect(cleared.set(setId) != nil && cleared.set(setId)?.weightKg == nil, "\(cleared)")
            let after = try await api.activeWorkout()
            #expect(after.set(setId) != nil && after.set(setId)?.weightKg == nil, "null clears the field")
            #expect(after.set(setId)?.reps == 5, "only that field")
            // A logged set without its weight is no longer logged: it leaves the totals and the archive.
            #expect(after.set(setId) != nil && after.set(setId)?.completedAt == nil, "clearing the weight un-logs the set")
            #expect(after.totals.sets == 0, "\(after)")

            // Logged again, then its RIR cleared: still logged. Its reps cleared: un-logged again.
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: squat.instanceId, idempotencyKey: "l2", reps: 4, rir: 1, setId: setId, weightKg: 82.5,
                        workoutId: workoutId))
            ).ok
            let noRir = try await clear(.setRir(squat.instanceId, setId, nil), key: "p3")
            #expect(noRir.set(setId)?.rir == nil && noRir.set(setId)?.completedAt != nil, "RIR is optional for a logged set: \(noRir)")
            #expect(noRir.totals.sets == 1)
            let noReps = try await clear(.setReps(squat.instanceId, setId, nil), key: "p4")
            #expect(noReps.set(setId) != nil && noReps.set(setId)?.completedAt == nil, "\(noReps)")
            #expect(noReps.totals.sets == 0)
            let stored = try await api.activeWorkout()
            #expect(stored.set(setId) != nil && stored.set(setId)?.completedAt == nil, "un-logged as stored, not only as answered")
            #expect(stored.set(setId)?.weightKg == 82.5)

            // With its only set un-logged, nothing is done: finishing is refused and the workout stays as it is.
            let refusal = try #require(
                await refused { try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: workoutId))) })
            #expect(refusal.status == 412, "\(refusal)")
            #expect(refusal.code == "FAILED_PRECONDITION")
            let still = try await api.activeWorkout()
            #expect(still.status == .inProgress)
            #expect(still.version == stored.version, "a refused completion changes nothing")

            // Another set logged, completing archives that one only, not the un-logged one.
            let added = try await api.patchActiveWorkout(
                body: .json(
                    .init(
                        idempotencyKey: "p5", ops: [.case4(.init(exerciseInstanceId: squat.instanceId, op: "add_set"))],
                        workoutId: workoutId))
            ).ok.body.json.data
            let other = try #require(try added.exercise(at: 0).setIds.last)
            #expect(other != setId)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: squat.instanceId, idempotencyKey: "l3", reps: 10, setId: other, weightKg: 60,
                        workoutId: workoutId))
            ).ok
            let completed = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c2", workoutId: workoutId))).ok.body.json
                .data
            #expect(completed.analytics.totals.sets == 1, "\(completed)")
            let archived = try await api.getWorkout(body: .json(.init(workoutId: workoutId))).ok.body.json.data
            #expect(archived.exercises.flatMap(\.sets).map(\.id) == [other], "\(archived)")
        }
    }

    /// A template's planned weights go with the workout started from it as `target_weight_kg`, apart from the
    /// weight lifted (`weight_kg`, null until logged); `set_field` edits the planned weight and reads legacy
    /// `weight` as `weight_kg`; the archive keeps both; a swap drops the planned weights of the old exercise.
    @Test(arguments: TestDatabases.engines)
    func plannedWeightsGoFromTheTemplateToTheWorkout(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("planned@example.com")
            let api = client.api(token)
            let templateId = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [
                            .init(
                                exerciseId: Self.squat,
                                sets: [.init(targetReps: 5, targetWeightKg: 100), .init(targetReps: 5, targetWeightKg: 102.5)]),
                            .init(exerciseId: Self.bench, sets: [.init(targetReps: 8, targetWeightKg: 60), .init(targetReps: 8)]),
                        ], name: "Heavy"))
            ).ok.body.json.data.id
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", templateId: templateId))).ok.body.json
                .data
            let workoutId = started.id
            let squat = try started.exercise(at: 0)
            let bench = try started.exercise(at: 1)

            // As stored (read back from the database, not the start's own answer).
            let stored = try await api.activeWorkout()
            #expect(stored.set(squat.setIds[0])?.targetWeightKg == 100)
            #expect(stored.set(squat.setIds[1])?.targetWeightKg == 102.5)
            #expect(stored.set(bench.setIds[0])?.targetWeightKg == 60)
            #expect(stored.set(bench.setIds[1]) != nil && stored.set(bench.setIds[1])?.targetWeightKg == nil, "no plan, null")
            #expect(stored.set(squat.setIds[0]) != nil && stored.set(squat.setIds[0])?.weightKg == nil, "nothing lifted yet")

            // Lifting leaves the plan; set_field changes it (and `weight` is read as `weight_kg`).
            let logged = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: squat.instanceId, idempotencyKey: "l1", reps: 5, setId: squat.setIds[0], weightKg: 97.5,
                        workoutId: workoutId))
            ).ok.body.json.data
            #expect(logged.set.targetWeightKg == 100, "logSet: \(logged)")
            _ = try await api.patchActiveWorkout(
                body: .json(
                    .init(
                        idempotencyKey: "p1",
                        ops: [
                            .case1(
                                .init(
                                    exerciseInstanceId: squat.instanceId, field: .targetWeightKg, op: "set_field", setId: squat.setIds[1],
                                    value: 105)),
                            .case1(
                                .init(
                                    exerciseInstanceId: squat.instanceId, field: .weight, op: "set_field", setId: squat.setIds[1],
                                    value: 104.5)),
                        ], workoutId: workoutId))
            ).ok
            let refusal = try #require(
                await refused {
                    try await api.patchActiveWorkout(
                        body: .json(
                            .init(
                                idempotencyKey: "p2",
                                ops: [
                                    .case1(
                                        .init(
                                            exerciseInstanceId: squat.instanceId, field: .targetWeightKg, op: "set_field",
                                            setId: squat.setIds[1],
                                            value: 1001))
                                ], workoutId: workoutId)))
                })
            #expect(refusal.status == 400 && refusal.details["field"] == "ops[0].value", "\(refusal)")
            let edited = try await api.activeWorkout()
            #expect(edited.set(squat.setIds[1])?.targetWeightKg == 105)
            #expect(edited.set(squat.setIds[1])?.weightKg == 104.5)

            // Swapping the bench press (nothing logged): its sets stay, their target reps too, but not its weights.
            _ = try await api.swapExercise(
                body: .json(
                    .init(exerciseInstanceId: bench.instanceId, idempotencyKey: "w1", newExerciseId: Self.curl, workoutId: workoutId))
            ).ok
            let afterSwap = try await api.activeWorkout()
            #expect(try afterSwap.exercise(at: 1).setIds == bench.setIds)
            #expect(afterSwap.set(bench.setIds[0]) != nil && afterSwap.set(bench.setIds[0])?.targetWeightKg == nil)
            #expect(afterSwap.set(bench.setIds[0])?.targetReps == 8)

            // The archive keeps what was planned beside what was lifted.
            _ = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: workoutId))).ok
            let archived = try await api.getWorkout(body: .json(.init(workoutId: workoutId))).ok.body.json.data
            #expect(archived.set(squat.setIds[0])?.targetWeightKg == 100, "getWorkout: \(archived)")
            #expect(archived.set(squat.setIds[0])?.weightKg == 97.5)
        }
    }

    /// `reorder_sets` puts the sets of one exercise in the given order with `set_index` following; an order
    /// listing a set twice is INVALID_ARGUMENT, one of other sets than the exercise's CONFLICT (a stale read),
    /// an unknown exercise NOT_FOUND.
    @Test(arguments: TestDatabases.engines)
    func reorderSets(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("reorder@example.com")
            let api = client.api(token)
            let workoutId = try await api.startActiveWorkout(body: .json(.init(name: "Order"))).ok.body.json.data.id
            let squat = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a1", sets: 3, workoutId: workoutId))
            ).ok.body.json.data.exercise(at: 0)
            let curl = try await api.addExercise(
                body: .json(.init(exerciseId: Self.curl, idempotencyKey: "a2", sets: 2, workoutId: workoutId))
            ).ok.body.json.data.exercise(at: 1)
            let s = squat.setIds
            #expect(s.count == 3)
            #expect(curl.setIds.count == 2)

            @Sendable func reorder(_ instanceId: String, _ order: [String], key: String) async throws
                -> Operations.PatchActiveWorkout.Output
            {
                try await api.patchActiveWorkout(
                    body: .json(
                        .init(
                            idempotencyKey: key, ops: [.case9(.init(exerciseInstanceId: instanceId, op: "reorder_sets", order: order))],
                            workoutId: workoutId)))
            }

            let reordered = try await reorder(squat.instanceId, [s[2], s[0], s[1]], key: "r1").ok.body.json.data
            #expect(reordered.sets(of: squat.instanceId).map(\.id) == [s[2], s[0], s[1]])
            #expect(reordered.sets(of: squat.instanceId).map(\.setIndex) == [0, 1, 2])
            let stored = try await api.activeWorkout()
            #expect(stored.sets(of: squat.instanceId).map(\.id) == [s[2], s[0], s[1]], "the order persists")
            #expect(stored.sets(of: squat.instanceId).map(\.setIndex) == [0, 1, 2])
            #expect(stored.sets(of: curl.instanceId).map(\.id) == curl.setIds, "other exercises keep theirs")
            let version = stored.version

            // A list with an id twice is malformed; a list of other sets than the exercise's was made from an
            // older read of the workout (a set added or removed since), so the client is told to reload.
            let wrongOrders: [(String, [String], String)] = [
                ("a duplicate", [s[2], s[2], s[0]], "INVALID_ARGUMENT"),
                ("a set missing", [s[2], s[0]], "CONFLICT"),
                ("an unknown set", [s[2], s[0], "nope"], "CONFLICT"),
                ("another exercise's set", [s[2], s[0], curl.setIds[0]], "CONFLICT"),
            ]
            for (index, (what, order, code)) in wrongOrders.enumerated() {
                let refusal = try #require(await refused { try await reorder(squat.instanceId, order, key: "bad-\(index)") }, "\(what)")
                #expect(refusal.status == (code == "CONFLICT" ? 409 : 400), "\(what)")
                #expect(refusal.code == code, "\(what)")
                #expect(refusal.details["field"] == "ops[0].order", "\(what)")
                if code == "CONFLICT" { #expect(refusal.details["current_version"] == "\(version)", "\(what)") }
            }
            let unknown = try #require(await refused { try await reorder("nope", [s[0], s[1], s[2]], key: "bad-exercise") })
            #expect(unknown.status == 404)
            #expect(unknown.code == "NOT_FOUND")

            let after = try await api.activeWorkout()
            #expect(after.version == version, "nothing changed")
            #expect(after.sets(of: squat.instanceId).map(\.id) == [s[2], s[0], s[1]])
        }
    }
}
