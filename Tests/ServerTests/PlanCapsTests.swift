import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import SQLKit
import TestSupport
import Testing

/// No list a user can grow is unbounded: an account keeps at most 500 templates and 100 routines (a clear
/// `FAILED_PRECONDITION` past them, nothing created), and both lists page with `limit` and `cursor`.
@Suite struct PlanCapsTests {
    /// Copies the user's one row of `table` until the user has `count` rows (ids and times of their own).
    static func fill(_ server: PovverServer, table: String, userId: String, to count: Int) async throws {
        let row = try #require(
            try await server.database.sql.raw("SELECT id, document, created_at FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)")
                .first())
        let document = try row.decode(column: "document", as: String.self)
        let id = try row.decode(column: "id", as: String.self)
        let created = try row.decode(column: "created_at", as: Int64.self)
        try await server.database.transaction { tx in
            for index in 1..<count {
                try await tx.sql.raw(
                    """
                    INSERT INTO \(unsafeRaw: table) (id, user_id, version, document, created_at, updated_at)
                    VALUES (\(bind: "copy-\(index)"), \(bind: userId), 1, \(bind: document.replacingOccurrences(of: id, with: "copy-\(index)")), \(bind: created + Int64(index)), \(bind: created + Int64(index)))
                    """
                ).run()
            }
        }
    }

    static func userId(_ client: some TestClientProtocol, token: String) async throws -> String {
        try await client.api(token).getUser(body: .json(.init())).ok.body.json.data.id
    }

    @Test(arguments: TestDatabases.engines)
    func templatesStopAtFiveHundredAndPage(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("caps@example.com")
            let userId = try await Self.userId(client, token: token)
            _ = try await WorkoutsHTTP.template(client, "First", exercise: "Barbell_Squat", token: token)
            try await Self.fill(server, table: "workouts_templates", userId: userId, to: 499)
            let api = client.api(token)
            @Sendable func create(_ name: String) async throws -> Operations.CreateTemplate.Output {
                try await api.createTemplate(
                    body: .json(.init(exercises: [.init(exerciseId: "Barbell_Squat", sets: [.init(targetReps: 5)])], name: name)))
            }
            _ = try await create("Five hundredth").ok
            let over = try #require(await refused { try await create("One too many") })
            #expect(over.status == 412 && over.code == "FAILED_PRECONDITION" && over.details["limit"] == "500", "\(over)")
            let all = try await api.getTemplates(body: .json(.init())).ok.body.json.data
            #expect(all.items.count == 500 && all.nextCursor == nil)

            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await api.getTemplates(body: .json(.init(cursor: cursor, limit: 200))).ok.body.json.data
                seen += page.items.map(\.id)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3 && seen.count == 500 && Set(seen).count == 500, "pages never overlap or skip")
            #expect(try await refused { try await api.getTemplates(body: .json(.init(limit: 0))) }?.code == "INVALID_ARGUMENT")
            #expect(try await refused { try await api.getTemplates(body: .json(.init(cursor: "nonsense"))) }?.code == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func routinesStopAtOneHundredAndAPlanPastItCreatesNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("routine-caps@example.com")
            let userId = try await Self.userId(client, token: token)
            let (templates, _) = try await WorkoutsHTTP.routine(client, of: ["Barbell_Squat"], token: token)
            try await Self.fill(server, table: "workouts_routines", userId: userId, to: 100)
            let api = client.api(token)
            let over = try #require(
                await refused { try await api.createRoutine(body: .json(.init(name: "One too many", templateIds: templates))) })
            #expect(over.code == "FAILED_PRECONDITION" && over.details["limit"] == "100", "\(over)")
            // The coach's plan (templates and a routine in one transaction) past the cap leaves no template behind.
            let plans = try server.composition.require(Contract.planLibrary, by: "test")
            await expectCode(.failedPrecondition, "a plan past the routine cap") {
                _ = try await plans.createRoutine(
                    userId: userId,
                    plan: RoutinePlan(
                        name: "Coach plan",
                        templates: [
                            TemplatePlan(
                                name: "Day", exercises: [PlannedExercise(exerciseId: "Barbell_Squat", sets: [TemplateSet(targetReps: 5)])])
                        ]))
            }
            #expect(try await plans.templates(userId: userId).count == 1, "nothing of the refused plan was kept")
            let page = try await api.getRoutines(body: .json(.init(limit: 60))).ok.body.json.data
            #expect(page.items.count == 60 && page.nextCursor != nil)
        }
    }
}
