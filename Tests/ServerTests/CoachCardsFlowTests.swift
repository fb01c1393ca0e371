import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import TestSupport
import Testing

/// The app's card lifecycle over HTTP: a proposed routine is rejected (or dismissed, the alias), or edited in the app
/// and accepted as edited; bad edits are refused naming the field under `data` and change nothing. The cards read
/// back decode as the app decodes them.
@Suite struct CoachCardsFlowTests {
    /// A routine proposed in a new conversation: the card (the `artifact` event's data) and the conversation.
    static func proposedPlan(
        _ client: some TestClientProtocol, token: String, message: String = "Build me a 4-day upper/lower plan, full gym"
    ) async throws -> (card: [String: Any], conversationId: String) {
        let events = try await CoachFlowTests.stream(client, ["message": message], token: token)
        let card = try #require(events.first { $0["type"] as? String == "artifact" }?["data"] as? [String: Any], "\(events)")
        return (card, try #require(events.first?["conversation_id"] as? String))
    }

    static func act(
        _ client: some TestClientProtocol, _ action: String, _ plan: (card: [String: Any], conversationId: String), token: String,
        key: String? = nil, data: Any? = nil
    ) async throws -> Reply {
        var body: [String: Any] = ["action": action, "artifact_id": plan.card["id"] ?? "", "conversation_id": plan.conversationId]
        if let key { body["idempotency_key"] = key }
        if let data { body["data"] = data }
        return try await client.call("artifactAction", body, token: token)
    }

    /// The conversation's stored cards, decoded as the app decodes them.
    static func storedCards(_ client: some TestClientProtocol, _ conversationId: String, token: String) async throws -> [CanvasCardModel] {
        let detail = try await client.call("getConversation", ["conversation_id": conversationId], token: token)
        return try (detail.data["artifacts"] as? [Any] ?? []).map {
            try CanvasCardModel.decode(try JSONSerialization.data(withJSONObject: $0))
        }
    }

    static func routineCount(_ client: some TestClientProtocol, token: String) async throws -> Int {
        (try await client.call("getRoutines", [:], token: token).data["items"] as? [Any])?.count ?? -1
    }

    @Test(arguments: TestDatabases.engines)
    func aCardIsRejectedOrDismissedAndNothingIsMade(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await CoachModelFlowTests.premiumUser(server, client, "reject-cards@example.com")
            let first = try await Self.proposedPlan(client, token: token)
            #expect(try CanvasCardModel.decode(try JSONSerialization.data(withJSONObject: first.card)).status == .pending)
            let rejected = try await Self.act(client, "reject", first, token: token, key: "r1")
            #expect(rejected.status == .ok, "\(rejected.json)")
            let card = try #require(rejected.data["artifact"] as? [String: Any])
            #expect(card["status"] as? String == "rejected" && (card["actions"] as? [Any])?.isEmpty == true)
            let again = try await Self.act(client, "accept", first, token: token)
            #expect(again.errorCode == "FAILED_PRECONDITION" && again.errorDetails?["status"] as? String == "rejected", "\(again.json)")
            #expect(try await Self.storedCards(client, first.conversationId, token: token).map(\.status) == [.rejected])

            // `dismiss` is `reject` by its older name: the same action, so the same key replays it under either.
            let second = try await Self.proposedPlan(client, token: token)
            let dismissed = try await Self.act(client, "dismiss", second, token: token, key: "d1")
            #expect((dismissed.data["artifact"] as? [String: Any])?["status"] as? String == "rejected", "\(dismissed.json)")
            let replay = try await Self.act(client, "reject", second, token: token, key: "d1")
            #expect(replay.status == .ok && NSDictionary(dictionary: replay.data).isEqual(to: dismissed.data), "\(replay.json)")
            #expect(try await Self.routineCount(client, token: token) == 0, "a rejected plan makes nothing")

            let unknown = try await client.call(
                "artifactAction", ["action": "discard", "artifact_id": "x", "conversation_id": second.conversationId], token: token)
            #expect(unknown.errorCode == "INVALID_ARGUMENT" && unknown.errorDetails?["field"] as? String == "action", "\(unknown.json)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aRoutineEditedInTheAppIsAcceptedAsEdited(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await CoachModelFlowTests.premiumUser(server, client, "edit-cards@example.com")
            let plan = try await Self.proposedPlan(client, token: token)
            let content = try #require(plan.card["data"] as? [String: Any])
            // The user replaces the first day with one exercise, three heavy sets, and renames it.
            let set: [String: Any] = ["target_reps": 12, "target_rir": 1, "target_weight_kg": 100]
            func editing(_ exercises: [[String: Any]], days: Any? = nil, name: String = "Day one") throws -> [String: Any] {
                var routine = try #require(content["routine"] as? [String: Any])
                var templates = try #require(routine["templates"] as? [[String: Any]])
                templates[0] = ["name": name, "exercises": exercises]
                routine["templates"] = templates
                var edited = content
                edited["routine"] = routine
                if let days { edited["days"] = days }
                return edited
            }
            let legPress: [String: Any] = ["exercise_id": "Leg_Press", "sets": [set, set, set]]
            var days = try #require(content["days"] as? [[String: Any]])
            days[0]["name"] = "Renamed in the view only"
            let refusals: [(Any, String)] = [
                (try editing([["exercise_id": "Moon_Press", "sets": [set]]]), "data.routine.templates[0].exercises[0].exercise_id"),
                (try editing(Array(repeating: legPress, count: 13)), "data.routine.templates[0].exercises"),
                (
                    try editing([["exercise_id": "Leg_Press", "sets": [["weight_kg": 100]]]]),
                    "data.routine.templates[0].exercises[0].sets[0].weight_kg"
                ),
                (try editing([legPress], name: " "), "data.routine.templates[0].name"),
                (
                    {
                        var view = content
                        view["days"] = days
                        return view
                    }(), "data.days"
                ),
            ]
            for (data, field) in refusals {
                let refused = try await Self.act(client, "accept", plan, token: token, data: data)
                #expect(refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == field, "\(refused.json)")
            }
            let withData = try await Self.act(client, "reject", plan, token: token, data: content)
            #expect(withData.errorCode == "INVALID_ARGUMENT" && withData.errorDetails?["field"] as? String == "data", "\(withData.json)")
            #expect(try await Self.routineCount(client, token: token) == 0, "refusals make nothing")
            #expect(try await Self.storedCards(client, plan.conversationId, token: token).map(\.status) == [.pending])

            let edited = try editing([legPress])
            let accepted = try await Self.act(client, "accept", plan, token: token, key: "a1", data: edited)
            #expect(accepted.status == .ok, "\(accepted.json)")
            let result = try #require(accepted.data["result"] as? [String: Any])
            let templateIds = try #require(result["template_ids"] as? [String])
            let template = try await client.call("getTemplate", ["template_id": templateIds[0]], token: token).data
            let exercises = try #require(template["exercises"] as? [[String: Any]])
            #expect(template["name"] as? String == "Day one" && exercises.map { $0["exercise_id"] as? String } == ["Leg_Press"])
            #expect((exercises[0]["sets"] as? [[String: Any]])?.map { $0["target_weight_kg"] as? Double } == [100, 100, 100])
            let active = try await client.call("getNextWorkout", [:], token: token).data
            #expect(active["routine_id"] as? String == result["routine_id"] as? String, "accepted: the routine is active")
            let replay = try await Self.act(client, "accept", plan, token: token, key: "a1", data: edited)
            #expect(NSDictionary(dictionary: replay.data).isEqual(to: accepted.data), "the key replays the first answer")

            // The card keeps what was accepted, its days drawn from it.
            let cards = try await Self.storedCards(client, plan.conversationId, token: token)
            #expect(cards.map(\.status) == [.accepted] && cards.first?.actions == [] && cards.first?.lane == .planning)
            guard case .routineSummary(let summary)? = cards.first?.data else {
                Issue.record("\(cards)")
                return
            }
            #expect(summary.routine.templates[0].name == "Day one" && summary.days[0].name == "Day one")
            #expect(summary.days[0].exercises.map(\.exerciseId) == ["Leg_Press"] && summary.days[0].exercises[0].sets == 3)
        }
    }

    /// The same on the model: a plan the model proposes is dismissed, another is edited and accepted as edited.
    @Test(arguments: TestDatabases.engines)
    func aModelsPlanIsDismissedOrAcceptedAsEdited(engine: SQLEngine) async throws {
        let model = FakeChatServer(FakeChatServer.threeDayPlan() + FakeChatServer.threeDayPlan())
        try await model.serve { base in
            try await TestServer.with(engine, environment: ["POVVER_LLM_BASE_URL": base, "POVVER_LLM_MODEL": "test-model"]) {
                server, client in
                let token = try await CoachModelFlowTests.premiumUser(server, client, "model-cards@example.com")
                let first = try await Self.proposedPlan(client, token: token, message: "build me a 3-day full body plan")
                let dismissed = try await Self.act(client, "dismiss", first, token: token)
                #expect((dismissed.data["artifact"] as? [String: Any])?["status"] as? String == "rejected", "\(dismissed.json)")

                let second = try await Self.proposedPlan(client, token: token, message: "another one please")
                var edited = try #require(second.card["data"] as? [String: Any])
                var routine = try #require(edited["routine"] as? [String: Any])
                routine["frequency"] = 2
                routine["templates"] = [try #require((routine["templates"] as? [Any])?.first)]
                edited["routine"] = routine
                let accepted = try await Self.act(client, "accept", second, token: token, data: edited)
                #expect(accepted.status == .ok, "\(accepted.json)")
                let routineId = try #require((accepted.data["result"] as? [String: Any])?["routine_id"] as? String)
                let stored = try await client.call("getRoutine", ["routine_id": routineId], token: token).data
                #expect(stored["frequency"] as? Int == 2 && (stored["template_ids"] as? [Any])?.count == 1, "\(stored)")
                let cards = try await Self.storedCards(client, second.conversationId, token: token)
                #expect(cards.map(\.status) == [.accepted] && cards.first?.subtitle == "1 day")
            }
        }
    }
}
