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
            let api = client.api(token)
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            let (a, b, c) = (templates[0], templates[1], templates[2])

            let first = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1", routineId: routineId))).ok.body.json.data
            #expect(first.sourceTemplateId == a)
            try await api.logEverySetAndComplete(first, key: "1")
            #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == a)
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == b)

            let second = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s2", routineId: routineId))).ok.body.json.data
            #expect(second.sourceTemplateId == b)
            _ = try await api.deleteTemplate(body: .json(.init(templateId: b))).ok
            #expect(try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data.templateIds == [a, c])
            try await api.logEverySetAndComplete(second, key: "2")
            #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == b)

            let next = try await api.getNextWorkout(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(next.template.id == c, "B's slot is now C's")
            #expect(next.index == 1)
        }
    }

    /// Routine [A, B, C]: A and B done, then B's workout deleted through `deleteWorkout`, which steps the cursor
    /// back before it answers: B is next again, A the last completed.
    @Test(arguments: TestDatabases.engines)
    func deletingTheLastWorkoutOfARoutineStepsItsCursorBack(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("rewind@example.com")
            let api = client.api(token)
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench, Self.curl], token: token)
            var workoutIds: [String] = []
            for (index, template) in templates.prefix(2).enumerated() {
                let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s\(index)", routineId: routineId))).ok
                    .body.json.data
                #expect(started.sourceTemplateId == template)
                try await api.logEverySetAndComplete(started, key: "\(index)")
                #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == template)
                workoutIds.append(started.id)
            }
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == templates[2])
            _ = try await api.deleteWorkout(body: .json(.init(idempotencyKey: "d1", workoutId: workoutIds[1]))).ok
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
            let api = client.api(token)
            let (templates, routineId) = try await WorkoutsHTTP.routine(
                client, of: [Self.squat, Self.bench, Self.curl, Self.squat], token: token)
            let (a, b, c, d) = (templates[0], templates[1], templates[2], templates[3])
            for (index, template) in [a, b, c].enumerated() {
                let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s\(index)", routineId: routineId))).ok
                    .body.json.data
                #expect(started.sourceTemplateId == template)
                try await api.logEverySetAndComplete(started, key: "\(index)")
                #expect(try await WorkoutsHTTP.lastCompleted(client, routineId: routineId, token: token) == template)
            }
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d)

            _ = try await api.deleteTemplate(body: .json(.init(templateId: a))).ok
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d)
            _ = try await api.deleteTemplate(body: .json(.init(templateId: c))).ok
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d, "D followed C")
            _ = try await api.patchRoutine(body: .json(.init(routineId: routineId, templateIds: [d, b]))).ok
            #expect(try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == d, "still D, now first")
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s-next", routineId: routineId))).ok.body.json
                .data
            #expect(started.sourceTemplateId == d)
        }
    }

    /// Routine [A, B, A, C] with the second A done last. Patched to [A, B, C] (that A dropped), C, which followed
    /// it, is next, not B (which followed the other A).
    @Test(arguments: TestDatabases.engines)
    func droppingTheRepeatJustDoneLeadsOnToWhatFollowedIt(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("repeat@example.com")
            let api = client.api(token)
            let a = try await WorkoutsHTTP.template(client, "A", exercise: Self.squat, token: token)
            let b = try await WorkoutsHTTP.template(client, "B", exercise: Self.bench, token: token)
            let c = try await WorkoutsHTTP.template(client, "C", exercise: Self.curl, token: token)
            let routineId = try await api.createRoutine(body: .json(.init(name: "Twice A", templateIds: [a, b, a, c]))).ok.body.json.data.id
            for (index, (template, next)) in [(a, b), (b, a), (a, c)].enumerated() {
                let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s\(index)", routineId: routineId))).ok
                    .body.json.data
                #expect(started.sourceTemplateId == template)
                try await api.logEverySetAndComplete(started, key: "\(index)")
                #expect(
                    try await WorkoutsHTTP.nextTemplate(client, routineId: routineId, token: token) == next,
                    "workout \(index): the cursor moved on to \(next)")
            }
            _ = try await api.patchRoutine(body: .json(.init(routineId: routineId, templateIds: [a, b, c]))).ok
            let next = try await api.getNextWorkout(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(next.template.id == c, "\(next)")
            #expect(next.index == 2)
            let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s-next", routineId: routineId))).ok.body.json
                .data
            #expect(started.sourceTemplateId == c)
        }
    }
}
