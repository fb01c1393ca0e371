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
            let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.squat, Self.bench], token: token)
            let exercises: [[String: Any]] = [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]
            for patch in [["name": "A"], ["exercises": exercises], ["name": "A", "exercises": exercises]] as [[String: Any]] {
                var body = patch
                (body["template_id"], body["expected_version"]) = (templates[0], 1)
                let repeated = try await client.call("patchTemplate", body, token: token)
                #expect(repeated.status == .ok && repeated.data["version"] as? Int == 1, "\(patch): \(repeated.json)")
            }
            let renamed = try await client.call(
                "patchTemplate", ["template_id": templates[0], "name": "A2", "expected_version": 1], token: token)
            #expect(renamed.data["version"] as? Int == 2, "\(renamed.json)")

            for patch in [["name": "Cycle"], ["template_ids": templates], ["name": "Cycle", "template_ids": templates]] as [[String: Any]] {
                var body = patch
                (body["routine_id"], body["expected_version"]) = (routineId, 1)
                let repeated = try await client.call("patchRoutine", body, token: token)
                #expect(repeated.status == .ok && repeated.data["version"] as? Int == 1, "\(patch): \(repeated.json)")
            }
            let reordered = try await client.call(
                "patchRoutine", ["routine_id": routineId, "template_ids": Array(templates.reversed()), "expected_version": 1], token: token)
            #expect(reordered.data["version"] as? Int == 2, "\(reordered.json)")
            #expect(reordered.data["template_ids"] as? [String] == Array(templates.reversed()))
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

            let empty = try #require(await refused { try await api.setActiveRoutine(body: .json(.init())) })
            #expect(empty.status == 400 && empty.code == "INVALID_ARGUMENT" && empty.details["field"] == "routine_id", "\(empty)")
            #expect(try await api.getNextWorkout(body: .json(.init())).ok.body.json.data.routineId == routineId, "still the active routine")

            // Null clears; the generated client omits a nil field (`{}`), so the clearing call is written as JSON.
            let cleared = try await client.send("setActiveRoutine", ["routine_id": .null], token: token)
            #expect(cleared.status == .ok && cleared.data["active_routine_id"] == .null, "\(cleared.body)")
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
            let template = try await WorkoutsHTTP.template(client, "T", exercise: Self.squat, token: token)
            let push = try await client.call(
                "createRoutine", ["name": "Push", "template_ids": [template], "idempotency_key": "c1"], token: token)
            let pull = try await client.call("createRoutine", ["name": "Pull", "template_ids": [template]], token: token)
            #expect(push.data["is_active"] as? Bool == false && pull.data["is_active"] as? Bool == false, "a new routine is not active")
            let pushId = try #require(push.data["id"] as? String)
            let pullId = try #require(pull.data["id"] as? String)

            func flags() async throws -> [String: Bool] {
                let items = try await client.call("getRoutines", token: token).data["items"] as? [[String: Any]] ?? []
                return Dictionary(
                    uniqueKeysWithValues: items.compactMap { item in
                        (item["id"] as? String).map { ($0, item["is_active"] as? Bool ?? false) }
                    })
            }
            func one(_ id: String) async throws -> Bool? {
                try await client.call("getRoutine", ["routine_id": id], token: token).data["is_active"] as? Bool
            }
            #expect(try await flags() == [pushId: false, pullId: false])

            _ = try await client.call("setActiveRoutine", ["routine_id": pushId], token: token)
            #expect(try await flags() == [pushId: true, pullId: false])
            #expect(try await one(pushId) == true)
            #expect(try await one(pullId) == false)
            let renamed = try await client.call("patchRoutine", ["routine_id": pushId, "name": "Push A"], token: token)
            #expect(renamed.data["is_active"] as? Bool == true, "\(renamed.json)")
            // Another user's active routine is theirs alone.
            let theirs = try await client.call(
                "createRoutine",
                ["name": "Theirs", "template_ids": [try await WorkoutsHTTP.template(client, "T", exercise: Self.squat, token: other)]],
                token: other)
            _ = try await client.call("setActiveRoutine", ["routine_id": theirs.data["id"] as Any], token: other)
            #expect(try await flags() == [pushId: true, pullId: false])

            _ = try await client.call("setActiveRoutine", ["routine_id": pullId], token: token)
            #expect(try await flags() == [pushId: false, pullId: true])
            let deleted = try await client.call("deleteRoutine", ["routine_id": pullId], token: token)
            #expect(deleted.data["is_active"] as? Bool == true, "answered as it was: \(deleted.json)")
            #expect(try await flags() == [pushId: false], "none is active once the active one is gone")
        }
    }
}
