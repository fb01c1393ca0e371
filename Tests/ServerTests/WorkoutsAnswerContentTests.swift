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

/// What the Workouts answers hold, through HTTP on every engine: every optional field (null when empty), and
/// the time of the write that made them.
@Suite struct WorkoutsAnswerContentTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat

    /// Empty optional fields are sent as null, never left out: every answer carries the keys its schema lists (docs/api.md).
    /// What this reads is the wire shape (a key present with null, not absent), which the generated client's decoded
    /// answers cannot tell apart, so the calls whose answers it reads are sent and read as JSON; so is a patch with an
    /// explicit null description (the generated client omits a nil field).
    @Test(arguments: TestDatabases.engines)
    func emptyOptionalFieldsAreNullNotMissing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("nulls@example.com")
            let api = client.api(token)
            func expectNull(_ keys: [String], in object: JSONValue?, _ what: String) {
                for key in keys { #expect(object?[key] == .null, "\(what).\(key) in \(object.map { "\($0)" } ?? "nil")") }
            }
            func send(_ operation: String, _ body: JSONValue = [:]) async throws -> RawReply {
                let reply = try await client.send(operation, body, token: token)
                #expect(reply.status == .ok, "\(operation): \(reply.body)")
                return reply
            }
            let started = try await send("startActiveWorkout", ["idempotency_key": "s1"])
            expectNull(["name", "source_template_id", "source_routine_id"], in: started.data, "startActiveWorkout")
            let workoutId = try #require(started.data["id"]?.stringValue)
            expectNull(
                ["name", "source_template_id", "source_routine_id"], in: try await send("getActiveWorkout").data, "getActiveWorkout")
            let squat = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a1", sets: 1, workoutId: workoutId))
            ).ok.body.json.data.exercise(at: 0)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: squat.instanceId, idempotencyKey: "l1", reps: 0, setId: squat.setIds[0], weightKg: 0,
                        workoutId: workoutId))
            ).ok
            _ = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: workoutId))).ok
            let archived = try await send("getWorkout", ["workout_id": .string(workoutId)])
            expectNull(["name", "source_template_id", "source_routine_id"], in: archived.data, "getWorkout")
            let perExercise = archived.data["analytics"]?["exercises"]?.arrayValue?.first
            expectNull(["best_e1rm"], in: perExercise, "getWorkout.analytics.exercises[0]")

            let templateId = try await WorkoutsHTTP.template(client, "Plain", exercise: Self.squat, token: token)
            let plain = try await send("getTemplate", ["template_id": .string(templateId)]).data
            expectNull(["description"], in: plain, "getTemplate")
            // A planned set with reps only says so with nulls for the rest.
            let plannedSet = plain["exercises"]?.arrayValue?.first?["sets"]?.arrayValue?.first
            #expect(plannedSet?["target_reps"] == 5)
            expectNull(["target_rir", "target_weight_kg"], in: plannedSet, "getTemplate.exercises[0].sets[0]")
            let next = try await send("getTemplates").data
            let listedSet = next["items"]?.arrayValue?.first?["exercises"]?.arrayValue?.first?["sets"]?.arrayValue?.first
            expectNull(["target_rir", "target_weight_kg"], in: listedSet, "getTemplates.items[0].exercises[0].sets[0]")
            let routine = try await send("createRoutine", ["name": "Plain", "template_ids": [.string(templateId)]])
            expectNull(["description", "frequency", "last_completed_template_id", "last_completed_at"], in: routine.data, "createRoutine")

            // A blank description is none; a patch with "" removes one, a patch with null or without it keeps it.
            let routineId = try #require(routine.data["id"]?.stringValue)
            for (kind, idField, id) in [("Template", "template_id", templateId), ("Routine", "routine_id", routineId)] {
                let described = try await send("patch\(kind)", [idField: .string(id), "description": "Heavy day"])
                #expect(described.data["description"] == "Heavy day", "patch\(kind): \(described.body)")
                let kept = try await send("patch\(kind)", [idField: .string(id), "description": .null, "name": "Renamed"])
                #expect(kept.data["description"] == "Heavy day", "patch\(kind) with null: \(kept.body)")
                let cleared = try await send("patch\(kind)", [idField: .string(id), "description": ""])
                expectNull(["description"], in: cleared.data, "patch\(kind) with \"\"")
                expectNull(["description"], in: try await send("get\(kind)", [idField: .string(id)]).data, "get\(kind) after clearing")
                #expect(Self.int(cleared.data["version"]) == Self.int(kept.data["version"]).map { $0 + 1 })
            }
            let blank = try await send(
                "createTemplate",
                ["name": "Blank", "description": "  ", "exercises": [["exercise_id": .string(Self.squat), "sets": [["target_reps": 5]]]]])
            expectNull(["description"], in: blank.data, "createTemplate with a blank description")
            let blankRoutine = try await send("createRoutine", ["name": "Blank", "description": "", "template_ids": [.string(templateId)]])
            expectNull(["description"], in: blankRoutine.data, "createRoutine with an empty description")
            // A catalog exercise without equipment (stretches) says so with null.
            let stretches = try await send("searchExercises", ["category": "stretching", "limit": 100])
            let bare = stretches.data["items"]?.arrayValue?.first { $0["equipment"] == .null || $0["equipment"] == nil }
            expectNull(["equipment"], in: try #require(bare, "a stretch without equipment in \(stretches.body)"), "searchExercises.items[]")
        }
    }

    /// The `updated_at` of a write's answer is the time of that write (what getActiveWorkout shows right
    /// after), not the previous write's; a logged set's `completed_at` is that write's time too. The clock
    /// moves at least a millisecond per reading, so no two writes share a time.
    @Test(arguments: TestDatabases.engines)
    func answersCarryTheTimeOfTheirOwnWrite(engine: SQLEngine) async throws {
        try await TestServer.with(engine, clock: ShiftedClock()) { _, client in
            let token = try await client.newUser("timely@example.com")
            let api = client.api(token)
            let started = try await api.startActiveWorkout(body: .json(.init(name: "Times"))).ok.body.json.data
            let workoutId = started.id
            var previous = try #require(started.updatedAt)

            /// The answer's `updated_at` is the stored one, and new.
            func expectOwnTime(_ updatedAt: Date?, _ name: String) async throws {
                let answered = try #require(updatedAt, "\(name)")
                let stored = try await api.activeWorkout().updatedAt
                #expect(answered == stored, "\(name) answered \(answered), the workout says \(stored.map { "\($0)" } ?? "nil")")
                #expect(answered != previous, "\(name) answered the previous write's time")
                previous = answered
            }

            let added = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a1", sets: 2, workoutId: workoutId))
            ).ok.body.json.data
            try await expectOwnTime(added.updatedAt, "addExercise")
            let squat = try added.exercise(at: 0)
            let patched = try await api.patchActiveWorkout(
                body: .json(
                    .init(
                        idempotencyKey: "p1",
                        ops: [
                            .case2(
                                .init(
                                    exerciseInstanceId: squat.instanceId, field: .targetReps, op: "set_field", setId: squat.setIds[0],
                                    value: 8))
                        ], workoutId: workoutId))
            ).ok.body.json.data
            try await expectOwnTime(patched.updatedAt, "patchActiveWorkout")
            let swapped = try await api.swapExercise(
                body: .json(
                    .init(exerciseInstanceId: squat.instanceId, idempotencyKey: "w1", newExerciseId: Self.bench, workoutId: workoutId))
            ).ok.body.json.data
            try await expectOwnTime(swapped.updatedAt, "swapExercise")

            let bench = try swapped.exercise(at: 0)
            let logged = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: bench.instanceId, idempotencyKey: "l1", reps: 8, setId: bench.setIds[0], weightKg: 60,
                        workoutId: workoutId))
            ).ok.body.json.data
            let completedAt = try #require(logged.set.completedAt)
            let current = try await api.activeWorkout()
            #expect(completedAt == current.updatedAt, "the set was completed at the time of its write")
            #expect(current.set(bench.setIds[0])?.completedAt == completedAt)
        }
    }

    /// An integer of an answer read as sent.
    static func int(_ value: JSONValue?) -> Int? {
        if case .int(let number)? = value { return number }
        return nil
    }
}
