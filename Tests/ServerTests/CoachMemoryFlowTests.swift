import Foundation
import HTTPTypes
import Platform
import PovverApp
import PovverClient
import TestSupport
import Testing

/// `getCoachMemory` and `updateCoachMemory` over HTTP: the user's own facts, set, refused out of range, forgotten,
/// and gone with the account.
@Suite struct CoachMemoryFlowTests {
    @Test(arguments: TestDatabases.engines)
    func aUserReadsChangesAndForgetsWhatTheCoachKeeps(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("memory@example.com")
            let api = client.api(token)
            let empty = try await api.getCoachMemory(body: .json(.init())).ok.body.json.data
            #expect(empty == .init(), "\(empty)")
            let set = try await api.updateCoachMemory(
                body: .json(.init(days: 3, equipment: [.dumbbell], experience: .beginner, injuries: ["lower back"]))
            ).ok.body.json.data
            #expect(set.days == 3 && set.updatedAt != nil, "\(set)")
            let refusal = try #require(await refused { try await api.updateCoachMemory(body: .json(.init(days: 8, goal: .strength))) })
            #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["field"] == "days", "\(refusal)")
            let read = try await api.getCoachMemory(body: .json(.init())).ok.body.json.data
            #expect(read.goal == nil && read.injuries == ["lower back"], "nothing changed: \(read)")
            let forgot = try await api.updateCoachMemory(body: .json(.init(forget: [.injuries, .days], goal: .strength))).ok.body.json.data
            #expect(forgot.injuries == nil && forgot.days == nil && forgot.goal == .strength)
            let other = try await client.newUser("other-memory@example.com")
            #expect(
                try await client.api(other).getCoachMemory(body: .json(.init())).ok.body.json.data == .init(),
                "another user's are their own")
        }
    }
}
