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

/// The routine cursor through HTTP on every engine: a completion moves it on and a deletion steps it back before
/// answering, and it follows the routine's list when templates are deleted, removed, reordered or listed twice.
@Suite struct RoutineCursorFlowTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat
    static let curl = WorkoutsFlowTests.curl

    /// Routine [A, B, C]: A done, B started from the routine, B deleted while it runs, B completed. The cursor
    /// continues with C (the template that took B's slot), not A.
    @Test(arguments: TestDatabases.engines)
    func cursorContinuesAfterTheRunningTemplateIsDeleted(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("cursor@example.com")
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            let (a, b, c) = (templates[0], templates[1], templates[2])

            let first = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s1"], token: token)
            #expect(first.data["source_template_id"] as? String == a)
            try await WorkoutsHTTP.logEverySetAndComplete(client, first.data, key: "1", token: token)
            #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == a)
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == b)

            let second = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s2"], token: token)
            #expect(second.data["source_template_id"] as? String == b)
            #expect(try await client.call("deleteTemplate", ["template_id": b], token: token).status == .ok)
            #expect(
                try await client.call("getRoutine", ["routine_id": routineId], token: token).data["template_ids"] as? [String] == [a, c])
            try await WorkoutsHTTP.logEverySetAndComplete(client, second.data, key: "2", token: token)
            #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == b)

            let next = try await client.call("getNextWorkout", ["routine_id": routineId], token: token)
            #expect((next.data["template"] as? [String: Any])?["id"] as? String == c, "B's slot is now C's")
            #expect(next.data["index"] as? Int == 1)
        }
    }

    /// Routine [A, B, C]: A and B done, then B's workout deleted through `deleteWorkout`, which steps the cursor
    /// back before it answers: B is next again, A the last completed.
    @Test(arguments: TestDatabases.engines)
    func deletingTheLastWorkoutOfARoutineStepsItsCursorBack(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("rewind@example.com")
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            var workoutIds: [String] = []
            for (index, template) in templates.prefix(2).enumerated() {
                let started = try await client.call(
                    "startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(index)"], token: token)
                #expect(started.data["source_template_id"] as? String == template)
                try await WorkoutsHTTP.logEverySetAndComplete(client, started.data, key: "\(index)", token: token)
                #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == template)
                workoutIds.append(try #require(started.data["id"] as? String))
            }
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == templates[2])
            #expect(
                try await client.call("deleteWorkout", ["workout_id": workoutIds[1], "idempotency_key": "d1"], token: token).status == .ok)
            #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == templates[0])
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == templates[1])
        }
    }

    /// Routine [A, B, C, D] with C done last. Deleting A, then C itself, then reordering what is left: D, which
    /// followed C, stays next through every change (the cursor moves with the list, not a stale slot).
    @Test(arguments: TestDatabases.engines)
    func cursorSurvivesSuccessiveRemovalsAndAReorder(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("successive@example.com")
            let (templates, routineId) = try await WorkoutsHTTP.routine(
                client, of: [Self.squat, Self.bench, Self.curl, Self.squat], token: token)
            let (a, b, c, d) = (templates[0], templates[1], templates[2], templates[3])
            for (index, template) in [a, b, c].enumerated() {
                let started = try await client.call(
                    "startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(index)"], token: token)
                #expect(started.data["source_template_id"] as? String == template)
                try await WorkoutsHTTP.logEverySetAndComplete(client, started.data, key: "\(index)", token: token)
                #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == template)
            }
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d)

            #expect(try await client.call("deleteTemplate", ["template_id": a], token: token).status == .ok)
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d)
            #expect(try await client.call("deleteTemplate", ["template_id": c], token: token).status == .ok)
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d, "D followed C")
            let reordered = try await client.call("patchRoutine", ["routine_id": routineId, "template_ids": [d, b]], token: token)
            #expect(reordered.status == .ok, "\(reordered.json)")
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d, "still D, now first")
            let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s-next"], token: token)
            #expect(started.data["source_template_id"] as? String == d)
        }
    }

    /// Routine [A, B, A, C] with the second A done last. Patched to [A, B, C] (that A dropped), C, which followed
    /// it, is next, not B (which followed the other A).
    @Test(arguments: TestDatabases.engines)
    func droppingTheRepeatJustDoneLeadsOnToWhatFollowedIt(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("repeat@example.com")
            let a = try await WorkoutsHTTP.template(client, "A", exercise: Self.squat, token: token)
            let b = try await WorkoutsHTTP.template(client, "B", exercise: Self.bench, token: token)
            let c = try await WorkoutsHTTP.template(client, "C", exercise: Self.curl, token: token)
            let created = try await client.call("createRoutine", ["name": "Twice A", "template_ids": [a, b, a, c]], token: token)
            let routineId = try #require(created.data["id"] as? String, "\(created.json)")
            for (index, (template, next)) in [(a, b), (b, a), (a, c)].enumerated() {
                let started = try await client.call(
                    "startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s\(index)"], token: token)
                #expect(started.data["source_template_id"] as? String == template)
                try await WorkoutsHTTP.logEverySetAndComplete(client, started.data, key: "\(index)", token: token)
                #expect(
                    try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == next,
                    "workout \(index): the cursor moved on to \(next)")
            }
            let patched = try await client.call("patchRoutine", ["routine_id": routineId, "template_ids": [a, b, c]], token: token)
            #expect(patched.status == .ok, "\(patched.json)")
            let next = try await client.call("getNextWorkout", ["routine_id": routineId], token: token)
            #expect((next.data["template"] as? [String: Any])?["id"] as? String == c, "\(next.json)")
            #expect(next.data["index"] as? Int == 2)
            let started = try await client.call("startActiveWorkout", ["routine_id": routineId, "idempotency_key": "s-next"], token: token)
            #expect(started.data["source_template_id"] as? String == c)
        }
    }
}
