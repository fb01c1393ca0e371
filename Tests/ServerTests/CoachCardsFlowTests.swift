import Foundation
import HTTPTypes
import HummingbirdTesting
import OpenAPIRuntime
import Platform
import PovverApp
import PovverClient
import PovverKit
import TestSupport
import Testing

/// The app's card lifecycle over HTTP: a proposed routine is rejected (or dismissed, the alias), or edited in the app
/// and accepted as edited; bad edits are refused naming the field under `data` and change nothing. The cards read
/// back decode as the app decodes them.
@Suite struct CoachCardsFlowTests {
    typealias Action = Operations.ArtifactAction.Input.Body.JsonPayload.ActionPayload
    /// A `routine_summary` card's content as the user edits it and `artifactAction` takes it back.
    typealias RoutineEdit = Operations.ArtifactAction.Input.Body.JsonPayload.DataPayload.Value2Payload
    typealias EditedExercise = RoutineEdit.RoutinePayload.TemplatesPayloadPayload.ExercisesPayloadPayload
    /// What `artifactAction` answers: the card as it now is, and the action's result.
    typealias Acted = Operations.ArtifactAction.Output.Ok.Body.JsonPayload.DataPayload
    /// A card as the app decodes it (PovverKit's; TestSupport keeps an older copy of the same name).
    typealias AppCard = PovverKit.CanvasCardModel

    /// A card proposed in a new conversation: its `artifact` event and the conversation.
    struct Proposal: Sendable {
        var artifact: CoachStreamEvent
        var conversationId: String
        var card: AppCard { get throws { try artifact.card } }
    }

    /// What accepting a card made: the routine and its templates, a changed template, or a started workout
    /// (`result`, open in the document: its fields depend on the card's type).
    struct Made: Decodable, Sendable {
        var routineId: String?
        var templateIds: [String]?
        var templateId: String?
        var workoutId: String?

        init(_ result: OpenAPIValueContainer) throws {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            self = try decoder.decode(Made.self, from: try JSONEncoder().encode(result))
        }
    }

    /// A routine proposed in a new conversation.
    static func proposedPlan(
        _ client: some TestClientProtocol, token: String, message: String = "Build me a 4-day upper/lower plan, full gym"
    ) async throws -> Proposal {
        let events = try await client.coachEvents(.init(message: message), token: token)
        let artifact = try #require(events.first { $0.type == "artifact" }, "\(events)")
        return Proposal(artifact: artifact, conversationId: try #require(events.first?.conversationId))
    }

    /// Acts on the proposal's card (with the content the user edited, `data`); the answer must be a success.
    static func act(
        _ client: some TestClientProtocol, _ action: Action, _ plan: Proposal, token: String, key: String? = nil,
        data: RoutineEdit? = nil
    ) async throws -> Acted {
        try await request(client, action, plan, token: token, key: key, data: data).ok.body.json.data
    }

    /// Acts on the proposal's card and answers whatever the server said (for a refusal).
    static func request(
        _ client: some TestClientProtocol, _ action: Action, _ plan: Proposal, token: String, key: String? = nil,
        data: RoutineEdit? = nil
    ) async throws -> Operations.ArtifactAction.Output {
        try await client.api(token).artifactAction(
            body: .json(
                .init(
                    action: action, artifactId: try plan.card.id, conversationId: plan.conversationId, data: data.map { .init(value2: $0) },
                    idempotencyKey: key)))
    }

    /// The conversation's stored cards, decoded as the app decodes them.
    static func storedCards(_ client: some TestClientProtocol, _ conversationId: String, token: String) async throws -> [AppCard] {
        let detail = try await client.api(token).getConversation(body: .json(.init(conversationId: conversationId))).ok.body.json.data
        return try detail.artifacts.map { try AppCard.decode(try JSONEncoder().encode($0)) }
    }

    static func routineCount(_ client: some TestClientProtocol, token: String) async throws -> Int {
        try await client.api(token).getRoutines(body: .json(.init())).ok.body.json.data.items.count
    }

    @Test(arguments: TestDatabases.engines)
    func aCardIsRejectedOrDismissedAndNothingIsMade(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await CoachModelFlowTests.premiumUser(server, client, "reject-cards@example.com")
            let first = try await Self.proposedPlan(client, token: token)
            #expect(try first.card.status == .pending)
            let rejected = try await Self.act(client, .reject, first, token: token, key: "r1")
            #expect(rejected.artifact.status == .rejected && rejected.artifact.actions.isEmpty, "\(rejected)")
            let again = try #require(await refused { try await Self.request(client, .accept, first, token: token) })
            #expect(again.code == "FAILED_PRECONDITION" && again.details["status"] == "rejected", "\(again)")
            #expect(try await Self.storedCards(client, first.conversationId, token: token).map(\.status) == [.rejected])

            // `dismiss` is `reject` by its older name: the same action, so the same key replays it under either.
            let second = try await Self.proposedPlan(client, token: token)
            let dismissed = try await Self.act(client, .dismiss, second, token: token, key: "d1")
            #expect(dismissed.artifact.status == .rejected, "\(dismissed)")
            let replay = try await Self.act(client, .reject, second, token: token, key: "d1")
            #expect(replay == dismissed, "\(replay)")
            #expect(try await Self.routineCount(client, token: token) == 0, "a rejected plan makes nothing")

            // An action the document does not name: sent as JSON, since the client's action type cannot say it.
            let unknown = try await client.send(
                "artifactAction", ["action": "discard", "artifact_id": "x", "conversation_id": .string(second.conversationId)],
                token: token)
            #expect(unknown.code == "INVALID_ARGUMENT" && unknown.body["error"]?["details"]?["field"] == "action", "\(unknown.body)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aRoutineEditedInTheAppIsAcceptedAsEdited(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await CoachModelFlowTests.premiumUser(server, client, "edit-cards@example.com")
            let api = client.api(token)
            let plan = try await Self.proposedPlan(client, token: token)
            let content = try plan.artifact.content(as: RoutineEdit.self)
            // The user replaces the first day with one exercise, three heavy sets, and renames it.
            let set = EditedExercise.SetsPayloadPayload(targetReps: 12, targetRir: 1, targetWeightKg: 100)
            func editing(_ exercises: [EditedExercise], name: String = "Day one") -> RoutineEdit {
                var edited = content
                edited.routine.templates[0] = .init(exercises: exercises, name: name)
                return edited
            }
            let legPress = EditedExercise(exerciseId: "Leg_Press", sets: [set, set, set])
            var days = try #require(content.days)
            days[0].name = "Renamed in the view only"
            var renamedView = content
            renamedView.days = days
            let refusals: [(RoutineEdit, String)] = [
                (editing([.init(exerciseId: "Moon_Press", sets: [set])]), "data.routine.templates[0].exercises[0].exercise_id"),
                (editing(Array(repeating: legPress, count: 13)), "data.routine.templates[0].exercises"),
                (editing([legPress], name: " "), "data.routine.templates[0].name"),
                (renamedView, "data.days"),
            ]
            for (data, field) in refusals {
                let refusal = try #require(await refused { try await Self.request(client, .accept, plan, token: token, data: data) })
                #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["field"] == field, "\(refusal)")
            }
            // A set's field the document does not declare (`weight_kg`, not `target_weight_kg`): the client's set type
            // cannot say it, so this edit is sent as JSON.
            let offDocument = Self.replacing(
                try Self.json(
                    Operations.ArtifactAction.Input.Body.JsonPayload(
                        action: .accept, artifactId: try plan.card.id, conversationId: plan.conversationId,
                        data: .init(value2: editing([.init(exerciseId: "Leg_Press", sets: [.init()])])))),
                at: ["data", "routine", "templates", 0, "exercises", 0, "sets", 0], with: ["weight_kg": 100])
            let unknownField = try await client.send("artifactAction", offDocument, token: token)
            #expect(
                unknownField.code == "INVALID_ARGUMENT"
                    && unknownField.body["error"]?["details"]?["field"] == "data.routine.templates[0].exercises[0].sets[0].weight_kg",
                "\(unknownField.body)")
            let withData = try #require(await refused { try await Self.request(client, .reject, plan, token: token, data: content) })
            #expect(withData.code == "INVALID_ARGUMENT" && withData.details["field"] == "data", "\(withData)")
            #expect(try await Self.routineCount(client, token: token) == 0, "refusals make nothing")
            #expect(try await Self.storedCards(client, plan.conversationId, token: token).map(\.status) == [.pending])

            let edited = editing([legPress])
            let accepted = try await Self.act(client, .accept, plan, token: token, key: "a1", data: edited)
            let result = try Made(accepted.result)
            let templateIds = try #require(result.templateIds)
            let template = try await api.getTemplate(body: .json(.init(templateId: templateIds[0]))).ok.body.json.data
            #expect(template.name == "Day one" && template.exercises.map(\.exerciseId) == ["Leg_Press"])
            #expect(template.exercises[0].sets.map(\.targetWeightKg) == [100, 100, 100])
            let active = try await api.getNextWorkout(body: .json(.init())).ok.body.json.data
            #expect(active.routineId == result.routineId, "accepted: the routine is active")
            let replay = try await Self.act(client, .accept, plan, token: token, key: "a1", data: edited)
            #expect(replay == accepted, "the key replays the first answer")

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
                let dismissed = try await Self.act(client, .dismiss, first, token: token)
                #expect(dismissed.artifact.status == .rejected, "\(dismissed)")

                let second = try await Self.proposedPlan(client, token: token, message: "another one please")
                var edited = try second.artifact.content(as: RoutineEdit.self)
                edited.routine.frequency = 2
                edited.routine.templates = [try #require(edited.routine.templates.first)]
                let accepted = try await Self.act(client, .accept, second, token: token, data: edited)
                let routineId = try #require(try Made(accepted.result).routineId)
                let stored = try await client.api(token).getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
                #expect(stored.frequency == 2 && stored.templateIds.count == 1, "\(stored)")
                let cards = try await Self.storedCards(client, second.conversationId, token: token)
                #expect(cards.map(\.status) == [.accepted] && cards.first?.subtitle == "1 day")
            }
        }
    }

    /// A typed body as it goes on the wire.
    static func json(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }

    /// `value` with what is at `path` (object keys, array indices) replaced by `replacement`.
    static func replacing(_ value: JSONValue, at path: ArraySlice<JSONValue>, with replacement: JSONValue) -> JSONValue {
        guard let step = path.first else { return replacement }
        switch (value, step) {
        case (.object(var object), .string(let key)):
            object[key] = replacing(object[key] ?? .null, at: path.dropFirst(), with: replacement)
            return .object(object)
        case (.array(var array), .int(let index)) where array.indices.contains(index):
            array[index] = replacing(array[index], at: path.dropFirst(), with: replacement)
            return .array(array)
        default:
            return value
        }
    }
}
