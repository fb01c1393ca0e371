import Foundation
import HTTPTypes
import Platform
import PovverApp
import TestSupport
import Testing

/// `getCoachMemory` and `updateCoachMemory` over HTTP: the user's own facts, set, refused out of range, forgotten,
/// and gone with the account.
@Suite struct CoachMemoryFlowTests {
    @Test(arguments: TestDatabases.engines)
    func aUserReadsChangesAndForgetsWhatTheCoachKeeps(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("memory@example.com")
            let empty = try await client.call("getCoachMemory", token: token)
            #expect(empty.status == .ok && empty.data.isEmpty, "\(empty.json)")
            let set = try await client.call(
                "updateCoachMemory", ["equipment": ["dumbbell"], "days": 3, "injuries": ["lower back"], "experience": "beginner"],
                token: token)
            #expect(set.status == .ok && set.data["days"] as? Int == 3 && set.data["updated_at"] is String, "\(set.json)")
            let refused = try await client.call("updateCoachMemory", ["days": 8, "goal": "strength"], token: token)
            #expect(refused.errorCode == "INVALID_ARGUMENT" && refused.errorDetails?["field"] as? String == "days", "\(refused.json)")
            let read = try await client.call("getCoachMemory", token: token)
            #expect(read.data["goal"] == nil && read.data["injuries"] as? [String] == ["lower back"], "nothing changed: \(read.json)")
            let forgot = try await client.call("updateCoachMemory", ["forget": ["injuries", "days"], "goal": "strength"], token: token)
            #expect(forgot.data["injuries"] == nil && forgot.data["days"] == nil && forgot.data["goal"] as? String == "strength")
            let other = try await client.newUser("other-memory@example.com")
            #expect(try await client.call("getCoachMemory", token: other).data.isEmpty, "another user's are their own")
        }
    }
}
