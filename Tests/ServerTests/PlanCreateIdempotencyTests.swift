import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import TestSupport
import Testing

/// `createTemplate` and `createRoutine` take an optional `idempotency_key`: a client retrying a create whose
/// answer it lost gets the first template or routine back instead of a second one.
@Suite struct PlanCreateIdempotencyTests {
    static let squat = WorkoutsFlowTests.squat

    @Test(arguments: TestDatabases.engines)
    func aRepeatedCreateAnswersTheFirstAndCreatesNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("creates@example.com")
            let template: [String: Any] = ["name": "Legs", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]]]
            var keyed = template
            keyed["idempotency_key"] = "t1"
            let first = try await client.call("createTemplate", keyed, token: token)
            #expect(first.status == .ok, "\(first.json)")
            let templateId = try #require(first.data["id"] as? String)
            let again = try await client.call("createTemplate", keyed, token: token)
            #expect(again.status == .ok)
            #expect(NSDictionary(dictionary: again.data) == NSDictionary(dictionary: first.data), "the first answer, as it was")
            var renamed = keyed
            renamed["name"] = "Other"
            let other = try await client.call("createTemplate", renamed, token: token)
            #expect(other.status == .conflict)
            #expect(other.errorCode == "CONFLICT")
            let unkeyed = try await client.call("createTemplate", template, token: token)
            #expect(unkeyed.status == .ok, "without a key every create creates")

            // Retries racing each other: one template, every answer the same.
            keyed["idempotency_key"] = "t2"
            let ids = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let request: [String: Any] = [
                            "name": "Legs", "exercises": [["exercise_id": Self.squat, "sets": [["target_reps": 5]]]],
                            "idempotency_key": "t2",
                        ]
                        return try await client.call("createTemplate", request, token: token).data["id"] as? String
                    }
                }
                var ids: [String?] = []
                for try await id in group { ids.append(id) }
                return ids
            }
            #expect(ids.count == 6)
            #expect(Set(ids).count == 1 && ids[0] != nil, "\(ids)")
            let templates = try await client.call("getTemplates", [:], token: token).data["items"] as? [[String: Any]]
            #expect(templates?.count == 3)

            let routine: [String: Any] = ["name": "Cycle", "template_ids": [templateId], "idempotency_key": "r1"]
            let firstRoutine = try await client.call("createRoutine", routine, token: token)
            #expect(firstRoutine.status == .ok, "\(firstRoutine.json)")
            let routineAgain = try await client.call("createRoutine", routine, token: token)
            #expect(routineAgain.data["id"] as? String == firstRoutine.data["id"] as? String)
            let routines = try await client.call("getRoutines", [:], token: token).data["items"] as? [[String: Any]]
            #expect(routines?.count == 1)
            // One key, one request: a key used by a template create is not reused by a routine create.
            let reused = try await client.call(
                "createRoutine", ["name": "Cycle", "template_ids": [templateId], "idempotency_key": "t1"], token: token)
            #expect(reused.errorCode == "CONFLICT")

            let empty = try await client.call("createTemplate", template.merging(["idempotency_key": ""]) { _, new in new }, token: token)
            #expect(empty.errorCode == "INVALID_ARGUMENT")
            #expect(empty.errorDetails?["field"] as? String == "idempotency_key")

            // Another user's identical key is theirs alone.
            let stranger = try await client.newUser("stranger@example.com")
            let theirs = try await client.call(
                "createTemplate", keyed.merging(["idempotency_key": "t1"]) { _, new in new }, token: stranger)
            #expect(theirs.status == .ok)
            #expect(theirs.data["id"] as? String != templateId)
        }
    }
}
