import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import TestSupport
import Testing

/// `createTemplate` and `createRoutine` take an optional `idempotency_key`: a client retrying a create whose
/// answer it lost gets the first template or routine back instead of a second one.
@Suite struct PlanCreateIdempotencyTests {
    static let squat = WorkoutsFlowTests.squat

    /// The create of the template "Legs" (or another name), with `key`.
    static func legs(_ key: String?, name: String = "Legs") -> Operations.CreateTemplate.Input.Body.JsonPayload {
        .init(exercises: [.init(exerciseId: squat, sets: [.init(targetReps: 5)])], idempotencyKey: key, name: name)
    }

    @Test(arguments: TestDatabases.engines)
    func aRepeatedCreateAnswersTheFirstAndCreatesNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("creates@example.com")
            let api = client.api(token)
            let first = try await api.createTemplate(body: .json(Self.legs("t1"))).ok.body.json.data
            let templateId = first.id
            let again = try await api.createTemplate(body: .json(Self.legs("t1"))).ok.body.json.data
            #expect(again == first, "the first answer, as it was")
            let other = try #require(await refused { try await api.createTemplate(body: .json(Self.legs("t1", name: "Other"))) })
            #expect(other.status == 409)
            #expect(other.code == "CONFLICT")
            _ = try await api.createTemplate(body: .json(Self.legs(nil))).ok  // without a key every create creates

            // Retries racing each other: one template, every answer the same.
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await api.createTemplate(body: .json(Self.legs("t2"))).ok.body.json.data.id }
                }
                var ids: [String] = []
                for try await id in group { ids.append(id) }
                return ids
            }
            #expect(ids.count == 6)
            #expect(Set(ids).count == 1, "\(ids)")
            let templates = try await api.getTemplates(body: .json(.init())).ok.body.json.data.items
            #expect(templates.count == 3)

            let routine = Operations.CreateRoutine.Input.Body.JsonPayload(idempotencyKey: "r1", name: "Cycle", templateIds: [templateId])
            let firstRoutine = try await api.createRoutine(body: .json(routine)).ok.body.json.data
            let routineAgain = try await api.createRoutine(body: .json(routine)).ok.body.json.data
            #expect(routineAgain.id == firstRoutine.id)
            let routines = try await api.getRoutines(body: .json(.init())).ok.body.json.data.items
            #expect(routines.count == 1)
            // One key, one request: a key used by a template create is not reused by a routine create.
            let reused = try #require(
                await refused {
                    try await api.createRoutine(body: .json(.init(idempotencyKey: "t1", name: "Cycle", templateIds: [templateId])))
                })
            #expect(reused.code == "CONFLICT")

            let empty = try #require(await refused { try await api.createTemplate(body: .json(Self.legs(""))) })
            #expect(empty.code == "INVALID_ARGUMENT")
            #expect(empty.details["field"] == "idempotency_key")

            // Another user's identical key is theirs alone.
            let stranger = try await client.newUser("stranger@example.com")
            let theirs = try await client.api(stranger).createTemplate(body: .json(Self.legs("t1"))).ok.body.json.data
            #expect(theirs.id != templateId)
        }
    }
}
