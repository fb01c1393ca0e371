import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
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
        let user = try await client.call("getUser", token: token)
        return try #require((user.data["user"] as? [String: Any])?["id"] as? String ?? user.data["id"] as? String)
    }

    @Test(arguments: TestDatabases.engines)
    func templatesStopAtFiveHundredAndPage(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("caps@example.com")
            let userId = try await Self.userId(client, token: token)
            _ = try await WorkoutsHTTP.template(client, "First", exercise: "Barbell_Squat", token: token)
            try await Self.fill(server, table: "workouts_templates", userId: userId, to: 499)
            let last = try await client.call(
                "createTemplate",
                ["name": "Five hundredth", "exercises": [["exercise_id": "Barbell_Squat", "sets": [["target_reps": 5]]]]],
                token: token)
            #expect(last.status == .ok, "\(last.json)")
            let over = try await client.call(
                "createTemplate", ["name": "One too many", "exercises": [["exercise_id": "Barbell_Squat", "sets": [["target_reps": 5]]]]],
                token: token)
            #expect(
                over.status == .preconditionFailed && over.errorCode == "FAILED_PRECONDITION"
                    && over.errorDetails?["limit"] as? String == "500")
            let all = try await client.call("getTemplates", [:], token: token)
            #expect((all.data["items"] as? [[String: Any]])?.count == 500 && all.data["next_cursor"] as? String == nil)

            var seen: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                var body: [String: Any] = ["limit": 200]
                if let cursor { body["cursor"] = cursor }
                let page = try await client.call("getTemplates", body, token: token)
                seen += (page.data["items"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = page.data["next_cursor"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 3 && seen.count == 500 && Set(seen).count == 500, "pages never overlap or skip")
            #expect(try await client.call("getTemplates", ["limit": 0], token: token).errorCode == "INVALID_ARGUMENT")
            #expect(try await client.call("getTemplates", ["cursor": "nonsense"], token: token).errorCode == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func routinesStopAtOneHundredAndAPlanPastItCreatesNothing(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("routine-caps@example.com")
            let userId = try await Self.userId(client, token: token)
            let (templates, _) = try await WorkoutsHTTP.routine(client, of: ["Barbell_Squat"], token: token)
            try await Self.fill(server, table: "workouts_routines", userId: userId, to: 100)
            let over = try await client.call("createRoutine", ["name": "One too many", "template_ids": templates], token: token)
            #expect(over.errorCode == "FAILED_PRECONDITION" && over.errorDetails?["limit"] as? String == "100", "\(over.json)")
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
            let page = try await client.call("getRoutines", ["limit": 60], token: token)
            #expect((page.data["items"] as? [[String: Any]])?.count == 60 && page.data["next_cursor"] is String)
        }
    }
}
