import AsyncHTTPClient
import Contracts
import Fakes
import Foundation
import Logging
import Platform
import TestSupport
import Testing

@testable import Conversations

/// The coach on an OpenAI-compatible model, against a local chat-completions server that streams scripted
/// answers: what the user's stream shows, what is stored, and the exact requests the server got.
@Suite struct LanguageModelCoachTests {
    typealias H = CoachHarness
    typealias Reply = FakeChatServer.Reply

    /// The model on `base`; `adjust` changes the client's settings (timeouts, connections, tokens).
    static func model(
        _ base: String, clock: ManualClock = ManualClock(), maxSteps: Int = 4, maxToolCallsPerStep: Int = 8,
        adjust: (inout ChatCompletionsClient.Settings) -> Void = { _ in }
    ) -> LanguageModelCoach {
        var settings = ChatCompletionsClient.Settings(baseURL: base, model: "test-model", apiKey: "sk-test", retryDelay: .zero)
        adjust(&settings)
        return LanguageModelCoach(
            client: ChatCompletionsClient(settings: settings, clock: clock), maxSteps: maxSteps, maxToolCallsPerStep: maxToolCallsPerStep,
            metrics: ServerMetrics(), logger: Logger(label: "test"))
    }

    /// Runs `body` with a harness whose coach is the model on a server answering `replies`.
    static func with(
        _ engine: SQLEngine, _ replies: [Reply], clock: ManualClock = ManualClock(), maxSteps: Int = 4, maxToolCallsPerStep: Int = 8,
        adjust: @escaping @Sendable (inout ChatCompletionsClient.Settings) -> Void = { _ in },
        _ body: @escaping @Sendable (CoachHarness, FakeChatServer) async throws -> Void
    ) async throws {
        let server = FakeChatServer(replies)
        try await server.serve { base in
            let model = model(base, clock: clock, maxSteps: maxSteps, maxToolCallsPerStep: maxToolCallsPerStep, adjust: adjust)
            try await H.with(engine, model: model) { h in try await body(h, server) }
        }
    }

    /// The messages stored for the user's only conversation, oldest first.
    static func stored(_ h: CoachHarness, _ conversationId: String) async throws -> [ConversationMessage] {
        try await h.module.services.store.detail(userId: "u1", id: conversationId).messages.reversed()
    }

    @Test(arguments: TestDatabases.engines)
    func plainTextStreamsAsItComesAndTheRequestIsTheProtocols(engine: SQLEngine) async throws {
        try await Self.with(engine, [.stream(FakeChatServer.text(["Hello", " there."]))]) { h, server in
            let events = await h.send("u1", "hi")
            #expect(events.types == ["message_start", "status", "text", "text", "message_end"], "\(events)")
            #expect(events.text == "Hello there.")
            let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
            #expect(try await Self.stored(h, conversationId).map(\.content) == ["hi", "Hello there."])
            let request = try #require(server.requests.first)
            #expect(request.authorization == "Bearer sk-test")
            #expect(request.body["model"] == "test-model" && request.body["stream"] == true)
            #expect(request.body["stream_options"] == ["include_usage": true])
            let messages = try #require(request.body["messages"]?.arrayValue)
            #expect(messages.first?["role"] == "system" && messages.first?["content"]?.stringValue?.contains("Povver") == true)
            #expect(messages.last == ["role": "user", "content": "hi"])
            let tools = (request.body["tools"]?.arrayValue ?? []).compactMap { $0["function"]?["name"]?.stringValue }
            #expect(tools.contains("propose_routine") && tools.contains("search_exercises") && !tools.contains("log_set"))
            let search = request.body["tools"]?.arrayValue?.first { $0["function"]?["name"] == "search_exercises" }
            #expect(search?["type"] == "function" && search?["function"]?["parameters"]?["properties"]?["limit"]?["maximum"] == 20)
        }
    }

    /// The issue's "done when": the model searches the catalog, proposes a routine, and the user accepts it.
    @Test(arguments: TestDatabases.engines)
    func aThreeDayPlanIsSearchedProposedAndAccepted(engine: SQLEngine) async throws {
        let replies = FakeChatServer.threeDayPlan(squat: H.squat, bench: H.bench)
        try await Self.with(engine, replies) { h, server in
            let events = await h.send("u1", "build me a 3-day full body plan")
            #expect(events.types.last == "message_end", "\(events)")
            #expect(events.text == "Let me look. Here is your plan. Accept it to start.")
            let tools = events.filter { $0["phase"] == "tool_start" }.compactMap { $0["tool"]?.stringValue }
            #expect(tools == ["search_exercises", "propose_routine"])
            let artifact = try #require(events.artifacts.first?["data"])
            #expect(artifact["type"] == "routine_summary" && artifact["data"]?["days"]?.arrayValue?.count == 3)

            // What the model was told: its calls, and their results under their ids.
            #expect(server.requests.count == 3)
            let second = server.requests[1].body["messages"]?.arrayValue ?? []
            let call = try #require(second.first { $0["role"] == "assistant" })
            #expect(call["tool_calls"]?.arrayValue?.first?["id"] == "call_search" && call["content"] == "Let me look. ")
            #expect(call["tool_calls"]?.arrayValue?.first?["function"]?["arguments"] == #"{"query":"squat","limit":3}"#)
            let result = try #require(second.last)
            #expect(result["role"] == "tool" && result["tool_call_id"] == "call_search")
            #expect(result["content"]?.stringValue?.contains(H.squat) == true)
            let third = server.requests[2].body["messages"]?.arrayValue ?? []
            #expect(third.last?["tool_call_id"] == "call_plan" && third.last?["content"]?.stringValue?.contains("artifact_id") == true)

            let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
            let accepted = try await h.module.actions.perform(
                userId: "u1",
                request: .init(action: .accept, artifactId: artifact["id"]?.stringValue ?? "", conversationId: conversationId),
                idempotencyKey: "accept"
            ).value()
            let routine = try #require(try await h.plans.activeRoutine(userId: "u1"))
            #expect(accepted.result["routine_id"] == .string(routine.id) && routine.templateIds.count == 3 && routine.frequency == 3)
            #expect(try await Self.stored(h, conversationId).last?.content == events.text)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func parallelCallsAreAnsweredEachUnderItsId(engine: SQLEngine) async throws {
        let replies: [Reply] = [
            .stream(
                FakeChatServer.toolCalls([
                    ("a", "get_user_profile", ["{", "}"]), ("b", "get_exercise_details", [#"{"exercise_id":"#, #""Barbell_Squat"}"#]),
                ])),
            .stream(FakeChatServer.text(["Done."])),
        ]
        try await Self.with(engine, replies) { h, server in
            let events = await h.send("u1", "who am I and what is a squat")
            #expect(events.text == "Done." && events.types.last == "message_end")
            let messages = server.requests.last?.body["messages"]?.arrayValue ?? []
            let results = messages.filter { $0["role"] == "tool" }
            #expect(results.map { $0["tool_call_id"]?.stringValue ?? "" } == ["a", "b"])
            #expect(results[0]["content"]?.stringValue?.contains("Europe/Berlin") == true)
            #expect(results[1]["content"]?.stringValue?.contains("quadriceps") == true)
            #expect(messages.last(where: { $0["role"] == "assistant" })?["content"] == .null)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func badCallsGoBackToTheModelAsToolErrors(engine: SQLEngine) async throws {
        let replies: [Reply] = [
            .stream(
                FakeChatServer.toolCalls([
                    ("bad-json", "search_exercises", [#"{"query": "#]), ("unknown", "delete_everything", ["{}"]),
                    ("bad-type", "get_exercise_progress", [#"{"exercise_id": 5}"#]),
                ])),
            .stream(FakeChatServer.text(["Sorry, let me answer plainly."])),
        ]
        try await Self.with(engine, replies) { h, server in
            let events = await h.send("u1", "show me things")
            #expect(events.text == "Sorry, let me answer plainly." && events.types.last == "message_end", "\(events)")
            let results = (server.requests.last?.body["messages"]?.arrayValue ?? []).filter { $0["role"] == "tool" }
            let errors = try results.map {
                try JSONDecoder().decode(JSONValue.self, from: Data(($0["content"]?.stringValue ?? "").utf8))["error"]
            }
            #expect(errors.map { $0?["code"] } == ["INVALID_ARGUMENT", "INVALID_ARGUMENT", "INVALID_ARGUMENT"])
            #expect(errors.map { $0?["field"] } == ["arguments", "tool", "exercise_id"])
        }
    }

    /// The equipment is read as the rule-based coach reads it, negation too ("no barbell").
    @Test(arguments: TestDatabases.engines, ["build me a 3-day plan with dumbbells", "No barbell, just dumbbells. 3 day full body"])
    func aPlanWithEquipmentTheUserDoesNotHaveIsRefusedNamingTheExercise(engine: SQLEngine, message: String) async throws {
        let plan: JSONValue = [
            "name": "Dumbbell days",
            "templates": [["name": "A", "exercises": [["exercise_id": .string(H.squat), "sets": [["target_reps": 8]]]]]],
        ]
        let replies: [Reply] = [
            .stream(FakeChatServer.toolCalls([("p", "propose_routine", [LanguageModelCoach.text(plan)])])),
            .stream(FakeChatServer.text(["Let me fix that."])),
        ]
        try await Self.with(engine, replies) { h, server in
            let events = await h.send("u1", message)
            #expect(events.artifacts.isEmpty && events.text == "Let me fix that.", "\(events)")
            let result = (server.requests.last?.body["messages"]?.arrayValue ?? []).last { $0["role"] == "tool" }
            let error = try JSONDecoder().decode(JSONValue.self, from: Data((result?["content"]?.stringValue ?? "").utf8))["error"]
            #expect(error?["field"] == "templates[0].exercises[0].exercise_id")
            #expect(
                error?["reason"]?.stringValue?.contains("needs barbell and the user has dumbbells") == true, "\(String(describing: error))")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aModelThatLoopsOnToolsIsStopped(engine: SQLEngine) async throws {
        let loop = (0..<4).map { Reply.stream(FakeChatServer.toolCalls([("c\($0)", "get_user_profile", ["{}"])])) }
        try await Self.with(engine, loop, maxSteps: 4) { h, server in
            let events = await h.send("u1", "loop")
            #expect(events.text.contains("I stopped here") && events.types.last == "message_end", "\(events)")
            #expect(server.requests.count == 4)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aStreamCutMidwayEndsWithAnErrorAndStoresNothing(engine: SQLEngine) async throws {
        try await Self.with(engine, [.stream(Array(FakeChatServer.text(["Half", " an answer"]).prefix(2)), done: false)]) { h, server in
            let conversation = try await h.module.services.store.create(userId: "u1", workoutId: nil)
            let log = RecordedLog()
            let events = await h.send("u1", "hi", conversationId: conversation.id, logger: log.logger(requestId: "req-cut"))
            #expect(events.types == ["message_start", "status", "text", "text", "error"], "\(events)")
            #expect(events.errorCode == "UNAVAILABLE")
            #expect(events.last?["message"]?.stringValue?.contains("not answering") == true)
            #expect(log.events("coach_model_failed").first?.metadata["upstream"]?.description.contains("[DONE]") == true, "\(log.text)")
            #expect(try await Self.stored(h, conversation.id).isEmpty, "nothing half-written")
            #expect(server.requests.count == 1, "no retry once the user saw text")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func failuresBeforeTheFirstChunkAreRetriedThenReported(engine: SQLEngine) async throws {
        let replies: [Reply] = [.status(429, #"{"error":{"message":"slow down"}}"#), .stream(FakeChatServer.text(["Fine."]))]
        try await Self.with(engine, replies) { h, server in
            let events = await h.send("u1", "hi")
            #expect(events.text == "Fine." && server.requests.count == 2)
        }
        let failing: [Reply] = Array(repeating: .status(500, #"{"error":{"message":"model crashed"}}"#), count: 3)
        try await Self.with(engine, failing) { h, server in
            let log = RecordedLog()
            let events = await h.send("u1", "hi", logger: log.logger(requestId: "req-500"))
            #expect(events.errorCode == "UNAVAILABLE" && events.types == ["message_start", "status", "error"], "\(events)")
            #expect(events.last?["message"]?.stringValue?.contains("not answering") == true)
            #expect(log.events("coach_model_failed").first?.metadata["upstream"] == "HTTP 500: model crashed", "\(log.text)")
            #expect(log.events("coach_model_retry").count == 2)
            #expect(server.requests.count == 3, "one try and two retries")
            // The fast lane needs no model.
            _ = await h.startWorkout("u1")
            #expect(await h.send("u1", "8 @ 100").types.last == "message_end")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aSlowFirstTokenTimesOut(engine: SQLEngine) async throws {
        let clock = ManualClock()
        try await Self.with(engine, [.stream(FakeChatServer.text(["Late."]), held: true)], clock: clock) { h, server in
            let log = RecordedLog()
            let turn = Task { () async throws -> [JSONValue] in await h.send("u1", "hi", logger: log.logger()) }
            try await eventually("the watchdog waits for the first chunk") { !clock.sleepers.isEmpty && !server.requests.isEmpty }
            clock.advance(by: .seconds(30))
            let events = try await finished(turn)
            server.release()
            #expect(events.errorCode == "UNAVAILABLE" && events.last?["message"]?.stringValue?.contains("not answering") == true)
            #expect(log.events("coach_model_failed").first?.metadata["upstream"]?.description.contains("no answer within 30") == true)
            #expect(server.requests.count == 1)
        }
    }
}
