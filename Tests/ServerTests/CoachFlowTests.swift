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

/// The coach over HTTP with Server-Sent Events, on the whole server: the premium gate, progress answers that
/// match `getExerciseProgress`, and set commands in workout mode.
@Suite struct CoachFlowTests {
    /// The events of one `streamAgentNormalized` answer, as JSON objects in order.
    static func stream(_ client: some TestClientProtocol, _ body: [String: Any], token: String) async throws -> [[String: Any]] {
        var headers: HTTPFields = [.contentType: "application/json", .authorization: "Bearer \(token)"]
        headers[.accept] = "text/event-stream"
        let response = try await client.execute(
            uri: "/streamAgentNormalized", method: .post, headers: headers,
            body: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body)))
        #expect(response.status == .ok && response.headers[.contentType]?.hasPrefix("text/event-stream") == true)
        let text = String(buffer: response.body)
        var ids: [Int] = []
        var events: [[String: Any]] = []
        for block in text.components(separatedBy: "\n\n") where !block.isEmpty {
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { ids.append(Int(line.dropFirst(4)) ?? -1) }
                if line.hasPrefix("data: "),
                    let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
                {
                    events.append(object)
                }
            }
        }
        #expect(ids == Array(1...max(1, ids.count)), "events numbered from 1 in order")
        return events
    }

    static func text(_ events: [[String: Any]]) -> String {
        events.filter { $0["type"] as? String == "text" }.compactMap { $0["delta"] as? String }.joined()
    }

    @Test(arguments: TestDatabases.engines)
    func aPremiumUserIsCoachedAndAFreeUserIsNot(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let free = try await client.newUser("free-coach@example.com")
            let refused = try await Self.stream(client, ["message": "how is my bench going?"], token: free)
            #expect(refused.count == 1 && refused[0]["type"] as? String == "error" && refused[0]["code"] as? String == "PREMIUM_REQUIRED")
            // The app's premium paywall reads `error.code`: the same error, nested.
            let nested = try #require(refused.first?["error"] as? [String: Any], "\(refused)")
            #expect(nested["code"] as? String == "PREMIUM_REQUIRED" && nested["message"] as? String == refused[0]["message"] as? String)
            #expect(try await client.call("initializeSession", [:], token: free).errorCode == "PREMIUM_REQUIRED", "no empty conversations")

            let token = try await client.newUser("coach@example.com")
            let user = try await client.call("getUser", token: token)
            let userId = try #require((user.data["user"] as? [String: Any])?["id"] as? String ?? user.data["id"] as? String)
            _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")

            // A 4-day plan, accepted: the routine is active and its first day comes next.
            let planned = try await Self.stream(client, ["message": "Build me a 4-day upper/lower plan, full gym"], token: token)
            let artifact = try #require(planned.first { $0["type"] as? String == "artifact" }, "\(planned)")
            let summary = try #require(artifact["data"] as? [String: Any])
            #expect(summary["type"] as? String == "routine_summary" && summary["lane"] as? String == "planning")
            #expect(planned.last?["type"] as? String == "message_end" && planned.last?["lane"] as? String == "slow")
            let days = try #require((summary["data"] as? [String: Any])?["days"] as? [[String: Any]])
            #expect(days.count == 4)
            let planConversation = try #require(planned.first?["conversation_id"] as? String)
            let accepted = try await client.call(
                "artifactAction",
                [
                    "action": "accept", "artifact_id": try #require(artifact["artifact_id"] as? String),
                    "conversationId": planConversation, "idempotency_key": "accept-plan",
                ], token: token)
            #expect(accepted.status == .ok, "\(accepted.json)")
            let routineId = try #require((accepted.data["result"] as? [String: Any])?["routine_id"] as? String)
            let next = try await client.call("getNextWorkout", [:], token: token)
            #expect(next.data["routine_id"] as? String == routineId && next.data["index"] as? Int == 0)
            #expect((next.data["template"] as? [String: Any])?["name"] as? String == days[0]["name"] as? String, "\(next.json)")
            let replay = try await client.call(
                "artifactAction",
                [
                    "action": "accept", "artifact_id": artifact["artifact_id"] as! String, "conversation_id": planConversation,
                    "idempotency_key": "accept-plan",
                ], token: token)
            #expect((replay.data["result"] as? [String: Any])?["routine_id"] as? String == routineId, "the key replays the answer")
            let routines = try await client.call("getRoutines", [:], token: token)
            #expect(((routines.data["items"] ?? routines.data["routines"]) as? [Any])?.count == 1, "\(routines.json)")

            // Two workouts of bench press, then the question.
            _ = try await AnalyticsFlowTests.complete(
                client, token: token, exercise: AnalyticsFlowTests.bench, sets: [(80, 8), (82.5, 6)], key: "a")
            _ = try await AnalyticsFlowTests.complete(
                client, token: token, exercise: AnalyticsFlowTests.bench, sets: [(85, 5), (85, 5)], key: "b")
            try await AnalyticsFlowTests.settle(server)
            let session = try await client.call("initializeSession", [:], token: token)
            let conversationId = try #require(session.data["conversation_id"] as? String)
            let answer = try await Self.stream(
                client, ["conversationId": conversationId, "message": "How is my bench going?"], token: token)
            #expect(answer.first?["type"] as? String == "message_start" && answer.last?["type"] as? String == "message_end")
            let progress = try await client.call("getExerciseProgress", ["exercise_id": AnalyticsFlowTests.bench], token: token)
            let points = try #require(progress.data["points"] as? [[String: Any]])
            let best = try #require(points.compactMap { $0["e1rm_kg"] as? Double }.max())
            let bestText = best == best.rounded() ? "\(Int(best)) kg" : String(format: "%.1f kg", best)
            #expect(Self.text(answer).contains(bestText), "\(Self.text(answer)) vs \(points)")
            #expect(answer.contains { $0["type"] as? String == "artifact" })

            // Workout mode: "8 @ 100" and "done" log the next sets.
            let started = try await client.call("startActiveWorkout", ["name": "Bench day", "idempotency_key": "start-c"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            _ = try await client.call(
                "addExercise", ["workout_id": workoutId, "exercise_id": AnalyticsFlowTests.bench, "sets": 2, "idempotency_key": "add-c"],
                token: token)
            let logged = try await Self.stream(client, ["workoutId": workoutId, "message": "8 @ 100"], token: token)
            #expect(Self.text(logged).hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 8 × 100 kg."), "\(logged)")
            #expect(logged.last?["type"] as? String == "message_end" && logged.last?["lane"] as? String == "fast", "the coach's lane")
            let conversations = try await client.call("getConversations", ["include_workout": true], token: token)
            let workoutChat = try #require(
                (conversations.data["items"] as? [[String: Any]])?.first { $0["workout_id"] as? String == workoutId }?["id"] as? String)
            let done = try await Self.stream(client, ["conversation_id": workoutChat, "message": "done"], token: token)
            #expect(Self.text(done).contains("set 2"), "\(done)")
            let active = try await client.call("getActiveWorkout", [:], token: token)
            let sets =
                (((active.data["workout"] as? [String: Any] ?? active.data)["exercises"] as? [[String: Any]])?.first?["sets"]
                    as? [[String: Any]]) ?? []
            #expect(sets.count == 2 && sets.allSatisfy { $0["completed_at"] != nil && !($0["completed_at"] is NSNull) }, "\(active.json)")

            let detail = try await client.call("getConversation", ["conversation_id": workoutChat], token: token)
            #expect((detail.data["messages"] as? [[String: Any]])?.count == 4)
            #expect(try await client.call("getConversation", ["conversation_id": workoutChat], token: free).errorCode == "NOT_FOUND")
            #expect(try await client.call("deleteConversation", ["conversation_id": workoutChat], token: token).status == .ok)
            #expect(try await client.call("getConversation", ["conversation_id": workoutChat], token: token).errorCode == "NOT_FOUND")
        }
    }
}
