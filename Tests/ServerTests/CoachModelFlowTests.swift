import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import Subscription
import TestSupport
import Testing

/// The whole server with `POVVER_LLM_BASE_URL` pointing at a local chat-completions server: the slow lane is the
/// model, over HTTP and SSE; the fast lane and `/ready` do not need it.
@Suite struct CoachModelFlowTests {
    static func premiumUser(_ server: PovverServer, _ client: some TestClientProtocol, _ email: String) async throws -> String {
        let token = try await client.newUser(email)
        let user = try await client.call("getUser", token: token)
        let userId = try #require((user.data["user"] as? [String: Any])?["id"] as? String ?? user.data["id"] as? String)
        _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")
        return token
    }

    /// A stream sent with `X-Request-Id`: the id the server answered with, and the events.
    static func stream(_ client: some TestClientProtocol, _ body: [String: Any], token: String, requestId: String) async throws -> (
        String?, [[String: Any]]
    ) {
        let response = try await client.execute(
            uri: "/streamAgentNormalized", method: .post,
            headers: [
                .contentType: "application/json", .authorization: "Bearer \(token)", .accept: "text/event-stream",
                HTTPField.Name("X-Request-Id")!: requestId,
            ], body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        let events = String(buffer: response.body).split(separator: "\n").filter { $0.hasPrefix("data: ") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any]
        }
        return (response.headers[HTTPField.Name("X-Request-Id")!], events)
    }

    @Test(arguments: TestDatabases.engines)
    func theModelPlansAThreeDayRoutineThatIsAccepted(engine: SQLEngine) async throws {
        let model = FakeChatServer(FakeChatServer.threeDayPlan())
        try await model.serve { base in
            try await TestServer.with(engine, environment: ["POVVER_LLM_BASE_URL": base, "POVVER_LLM_MODEL": "test-model"]) {
                server, client in
                let token = try await Self.premiumUser(server, client, "model-coach@example.com")
                let events = try await CoachFlowTests.stream(client, ["message": "build me a 3-day full body plan"], token: token)
                #expect(events.last?["type"] as? String == "message_end", "\(events)")
                #expect(CoachFlowTests.text(events) == "Let me look. Here is your plan. Accept it to start.")
                let artifact = try #require(events.first { $0["type"] as? String == "artifact" })
                let accepted = try await client.call(
                    "artifactAction",
                    [
                        "action": "accept", "artifact_id": try #require(artifact["artifact_id"] as? String),
                        "conversation_id": try #require(events.first?["conversation_id"] as? String), "idempotency_key": "accept",
                    ], token: token)
                #expect(accepted.status == .ok, "\(accepted.json)")
                let next = try await client.call("getNextWorkout", [:], token: token)
                #expect((next.data["template"] as? [String: Any])?["name"] as? String == "Day A", "\(next.json)")
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
                let (requestId, events) = try await Self.stream(client, ["message": "hello"], token: token, requestId: "req-model-down")
                let error = try #require(events.last)
                #expect(error["type"] as? String == "error" && error["code"] as? String == "UNAVAILABLE", "\(events)")
                let message = try #require(error["message"] as? String)
                #expect(
                    requestId == "req-model-down" && message.contains("not answering") && message.contains("req-model-down"), "\(message)")
                #expect(!message.contains("loading model") && !message.contains("503") && !message.contains("127.0.0.1"), "\(message)")
                let ready = try await client.execute(uri: "/ready", method: .get)
                #expect(ready.status == .ok, "readiness does not depend on the model")
                let noWorkout = try await CoachFlowTests.stream(client, ["message": "8 @ 100"], token: token)
                #expect(
                    noWorkout.last?["type"] as? String == "message_end"
                        && CoachFlowTests.text(noWorkout).contains("no workout in progress"),
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
                let first = Task { CoachFlowTests.text(try await CoachFlowTests.stream(client, ["message": "plan my week"], token: token)) }
                let second = Task {
                    CoachFlowTests.text(try await CoachFlowTests.stream(client, ["message": "and my meals"], token: token))
                }
                try await eventually("both streams wait on the model") { model.holding == 2 }
                let third = try await client.call("streamAgentNormalized", ["message": "one more"], token: token)
                #expect(third.status == .tooManyRequests && third.headers[.retryAfter] == "5", "\(third.json)")
                let error = try #require(third.json["error"] as? [String: Any])
                #expect(error["code"] as? String == "RATE_LIMITED" && (error["details"] as? [String: Any])?["limit"] as? String == "2")
                #expect(model.requests.count == 2)
                let answered = try await CoachFlowTests.stream(client, ["message": "hello"], token: other)
                #expect(CoachFlowTests.text(answered) == "Other.", "another user is not held back: \(answered)")
                model.release()
                let answers = [try await first.value, try await second.value]
                #expect(
                    Set(answers) == ["One.", "Two."], "both held streams answer, in whichever order they reached the model: \(answers)")
            }
        }
    }
}
