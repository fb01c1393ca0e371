import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
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
                let events = try await CoachFlowTests.stream(client, ["message": "hello"], token: token)
                let error = try #require(events.last)
                #expect(error["type"] as? String == "error" && error["code"] as? String == "UNAVAILABLE", "\(events)")
                #expect((error["message"] as? String)?.contains("HTTP 503: loading model") == true)
                let ready = try await client.execute(uri: "/ready", method: .get)
                #expect(ready.status == .ok, "readiness does not depend on the model")
                let noWorkout = try await CoachFlowTests.stream(client, ["message": "8 @ 100"], token: token)
                #expect(noWorkout.last?["code"] as? String == "FAILED_PRECONDITION", "the fast lane answers without the model")
            }
        }
    }
}
