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

/// Template and routine writes through HTTP on every engine: a new version only for a real change, the active
/// routine set and shown on every routine answer.
@Suite struct PlanWritesTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat

    /// A patch that repeats what a template or routine already holds makes no new version, so a client holding
    /// that version can still write with it; a real change then makes the next version as usual.
    @Test(arguments: TestDatabases.engines)
    func aPatchThatRepeatsTheStoredValuesMakesNoNewVersion(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("repeat-patch@example.com")
            let api = client.api(token)
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench], token: token)
            typealias TemplatePatch = Operations.PatchTemplate.Input.Body.JsonPayload
            let exercises: TemplatePatch.ExercisesPayload = [.init(exerciseId: Self.squat, sets: [.init(targetReps: 5)])]
            let templatePatches: [(String, TemplatePatch)] = [
                ("name", .init(expectedVersion: 1, name: "A", templateId: templates[0])),
                ("exercises", .init(exercises: exercises, expectedVersion: 1, templateId: templates[0])),
                ("name and exercises", .init(exercises: exercises, expectedVersion: 1, name: "A", templateId: templates[0])),
            ]
            for (patch, body) in templatePatches {
                let repeated = try await api.patchTemplate(body: .json(body)).ok.body.json.data
                #expect(repeated.version == 1, "\(patch): \(repeated)")
            }
            let renamed = try await api.patchTemplate(body: .json(.init(expectedVersion: 1, name: "A2", templateId: templates[0]))).ok
            #expect(try renamed.body.json.data.version == 2, "\(renamed)")

            typealias RoutinePatch = Operations.PatchRoutine.Input.Body.JsonPayload
            let routinePatches: [(String, RoutinePatch)] = [
                ("name", .init(expectedVersion: 1, name: "Cycle", routineId: routineId)),
                ("template_ids", .init(expectedVersion: 1, routineId: routineId, templateIds: templates)),
                ("name and template_ids", .init(expectedVersion: 1, name: "Cycle", routineId: routineId, templateIds: templates)),
            ]
            for (patch, body) in routinePatches {
                let repeated = try await api.patchRoutine(body: .json(body)).ok.body.json.data
                #expect(repeated.version == 1, "\(patch): \(repeated)")
            }
            let reordered = try await api.patchRoutine(
                body: .json(.init(expectedVersion: 1, routineId: routineId, templateIds: Array(templates.reversed())))
            ).ok.body.json.data
            #expect(reordered.version == 2, "\(reordered)")
            #expect(reordered.templateIds == Array(templates.reversed()))
        }
    }

    /// `setActiveRoutine` needs `routine_id`: `{}` is INVALID_ARGUMENT and changes nothing, null clears.
    @Test(arguments: TestDatabases.engines)
    func setActiveRoutineNeedsTheRoutineId(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("active@example.com")
            let api = client.api(token)
            let template = try await api.createTemplate(
                body: .json(.init(exercises: [.init(exerciseId: Self.squat, sets: [.init(targetReps: 5)])], name: "T"))
            ).ok.body.json.data.id
            let routineId = try await api.createRoutine(body: .json(.init(name: "R", templateIds: [template]))).ok.body.json.data.id
            #expect(try await api.setActiveRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data.activeRoutineId == routineId)

            // `{}`: the client never sends it (a nil routine goes as the null the document requires), so it goes as JSON.
            let empty = try await client.send("setActiveRoutine", [:], token: token)
            #expect(empty.status == .badRequest && empty.code == "INVALID_ARGUMENT", "\(empty.body)")
            #expect(empty.body["error"]?["details"]?["field"] == "routine_id", "\(empty.body)")
            #expect(try await api.getNextWorkout(body: .json(.init())).ok.body.json.data.routineId == routineId, "still the active routine")

            // Null clears: the client sends a nil routine as null (`RequiredNulls`).
            let cleared = try await api.setActiveRoutine(body: .json(.init(routineId: nil))).ok.body.json.data
            #expect(cleared.activeRoutineId == nil)
            #expect(try #require(await refused { try await api.getNextWorkout(body: .json(.init())) }).code == "FAILED_PRECONDITION")
        }
    }

    /// Every routine answer says whether it is the user's active routine (`is_active`, the original app's
    /// `isActive`), so a second device can show which one is: create, list, get, patch, and delete (as it was).
    @Test(arguments: TestDatabases.engines)
    func routineAnswersSayWhichIsActive(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("badge@example.com")
            let other = try await client.newUser("elsewhere@example.com")
            let (api, theirApi) = (client.api(token), client.api(other))
            let template = try await WorkoutsHTTP.template(client, "T", exercise: Self.squat, token: token)
            let push = try await api.createRoutine(body: .json(.init(idempotencyKey: "c1", name: "Push", templateIds: [template]))).ok
                .body.json.data
            let pull = try await api.createRoutine(body: .json(.init(name: "Pull", templateIds: [template]))).ok.body.json.data
            #expect(push.isActive == false && pull.isActive == false, "a new routine is not active")
            let (pushId, pullId) = (push.id, pull.id)

            func flags() async throws -> [String: Bool] {
                let items = try await api.getRoutines(body: .json(.init())).ok.body.json.data.items
                return Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.isActive) })
            }
            func one(_ id: String) async throws -> Bool {
                try await api.getRoutine(body: .json(.init(routineId: id))).ok.body.json.data.isActive
            }
            #expect(try await flags() == [pushId: false, pullId: false])

            _ = try await api.setActiveRoutine(body: .json(.init(routineId: pushId))).ok
            #expect(try await flags() == [pushId: true, pullId: false])
            #expect(try await one(pushId) == true)
            #expect(try await one(pullId) == false)
            let renamed = try await api.patchRoutine(body: .json(.init(name: "Push A", routineId: pushId))).ok.body.json.data
            #expect(renamed.isActive == true, "\(renamed)")
            // Another user's active routine is theirs alone.
            let theirTemplate = try await WorkoutsHTTP.template(client, "T", exercise: Self.squat, token: other)
            let theirs = try await theirApi.createRoutine(body: .json(.init(name: "Theirs", templateIds: [theirTemplate]))).ok.body.json
                .data
            _ = try await theirApi.setActiveRoutine(body: .json(.init(routineId: theirs.id))).ok
            #expect(try await flags() == [pushId: true, pullId: false])

            _ = try await api.setActiveRoutine(body: .json(.init(routineId: pullId))).ok
            #expect(try await flags() == [pushId: false, pullId: true])
            let deleted = try await api.deleteRoutine(body: .json(.init(routineId: pullId))).ok.body.json.data
            #expect(deleted.isActive == true, "answered as it was: \(deleted)")
            #expect(try await flags() == [pushId: false], "none is active once the active one is gone")
        }
    }
}
