import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import Subscription
import TestSupport
import Testing

/// The whole server with `POVVER_LLM_BASE_URL` pointing at a local chat-completions server: the slow lane is the
/// model, over HTTP and SSE; the fast lane and `/ready` do not need it.
@Suite struct CoachModelFlowTests {
    static func premiumUser(_ server: PovverServer, _ client: some TestClientProtocol, _ email: String) async throws -> String {
        let token = try await client.newUser(email)
        let userId = try await client.api(token).getUser(body: .json(.init())).ok.body.json.data.id
        _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")
        return token
    }

    @Test(arguments: TestDatabases.engines)
    func theModelPlansAThreeDayRoutineThatIsAccepted(engine: SQLEngine) async throws {
        let model = FakeChatServer(FakeChatServer.threeDayPlan())
        try await model.serve { base in
            try await TestServer.with(engine, environment: ["POVVER_LLM_BASE_URL": base, "POVVER_LLM_MODEL": "test-model"]) {
                server, client in
                let token = try await Self.premiumUser(server, client, "model-coach@example.com")
                let api = client.api(token)
                let events = try await client.coachEvents(.init(message: "build me a 3-day full body plan"), token: token)
                #expect(events.last?.type == "message_end", "\(events)")
                #expect(events.text == "Let me look. Here is your plan. Accept it to start.")
                let artifact = try #require(events.first { $0.type == "artifact" })
                _ = try await api.artifactAction(
                    body: .json(
                        .init(
                            action: .accept, artifactId: try #require(artifact.artifactId),
                            conversationId: try #require(events.first?.conversationId), idempotencyKey: "accept"))
                ).ok
                let next = try await api.getNextWorkout(body: .json(.init())).ok.body.json.data
                #expect(next.template.name == "Day A", "\(next)")
                #expect(model.requests.count == 3 && model.requests[0].body["model"] == "test-model")
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aModelThatIsDownIsAClearErrorAndTheRestWorks(engine: SQLEngine) async throws {
        let model = FakeChatServer(Array(repeating: .status(503, #"{"error":{"message":"loading model"}}"#), count: 3))
        try await model.serve { base in
            try await TestServer.with(engine, environment: ["POVVER_LLM_BASE_URL": base, "POVVER_LLM_MODEL": "test-model"]) {
                server, client in
                let token = try await Self.premiumUser(server, client, "model-down@example.com")
                let answer = try await client.coachStream(
                    .init(message: "hello"), token: token, headers: [HTTPField.Name("X-Request-Id")!: "req-model-down"])
                let requestId = answer.headers[HTTPField.Name("X-Request-Id")!]
                let error = try #require(answer.events.last)
                #expect(error.type == "error" && error.code == "UNAVAILABLE", "\(answer.events)")
                let message = try #require(error.message)
                #expect(
                    requestId == "req-model-down" && message.contains("not answering") && message.contains("req-model-down"), "\(message)")
                #expect(!message.contains("loading model") && !message.contains("503") && !message.contains("127.0.0.1"), "\(message)")
                let ready = try await client.execute(uri: "/ready", method: .get)
                #expect(ready.status == .ok, "readiness does not depend on the model")
                let noWorkout = try await client.coachEvents(.init(message: "8 @ 100"), token: token)
                #expect(
                    noWorkout.last?.type == "message_end" && noWorkout.text.contains("no workout in progress"),
                    "the fast lane answers without the model")
            }
        }
    }
}

extension CoachModelFlowTests {
    /// Over HTTP, a third stream of one user while two wait on the model is the error envelope (429, `RATE_LIMITED`,
    /// `details.limit`, `Retry-After`), never an opened stream; another user streams meanwhile.
    @Test(arguments: TestDatabases.engines)
    func aThirdConcurrentStreamOfOneUserIsRefusedBeforeItOpens(engine: SQLEngine) async throws {
        let model = FakeChatServer([
            .stream(FakeChatServer.text(["One."]), held: true), .stream(FakeChatServer.text(["Two."]), held: true),
            .stream(FakeChatServer.text(["Other."])),
        ])
        try await model.serve { base in
            try await TestServer.with(engine, environment: ["POVVER_LLM_BASE_URL": base, "POVVER_LLM_MODEL": "test-model"]) {
                server, client in
                let token = try await Self.premiumUser(server, client, "three-streams@example.com")
                let other = try await Self.premiumUser(server, client, "other-streamer@example.com")
                let first = Task { try await client.coachEvents(.init(message: "plan my week"), token: token).text }
                let second = Task { try await client.coachEvents(.init(message: "and my meals"), token: token).text }
                try await eventually("both streams wait on the model") { model.holding == 2 }
                let third = try #require(
                    await refused { try await client.api(token).streamAgentNormalized(body: .json(.init(message: "one more"))) })
                #expect(third.status == 429 && third.headers[.retryAfter] == "5", "\(third)")
                #expect(third.code == "RATE_LIMITED" && third.details["limit"] == "2")
                #expect(model.requests.count == 2)
                let answered = try await client.coachEvents(.init(message: "hello"), token: other)
                #expect(answered.text == "Other.", "another user is not held back: \(answered)")
                model.release()
                let answers = [try await first.value, try await second.value]
                #expect(
                    Set(answers) == ["One.", "Two."], "both held streams answer, in whichever order they reached the model: \(answers)")
            }
        }
    }
}
