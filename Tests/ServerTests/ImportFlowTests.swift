import Fakes
import Foundation
import HTTPTypes
import Platform
import PovverApp
import TestSupport
import Testing

/// `importWorkouts` over HTTP: bounded, and limited per user.
@Suite struct ImportFlowTests {
    static let file = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2024-03-04 18:30:00,Push,1h,Bench Press (Barbell),1,80,8,0,0,,,
        """

    /// Ten imports an hour a user; the eleventh is `RATE_LIMITED` with the wait, changes nothing, and another user
    /// and the next hour are not affected.
    @Test(arguments: TestDatabases.engines)
    func importsAreLimitedPerUserAndHour(engine: SQLEngine) async throws {
        let clock = FakeWallClock(Date(timeIntervalSince1970: 1_767_225_600 + 600))
        try await TestServer.with(engine, clock: clock) { _, client in
            let token = try await client.newUser("importer@example.com")
            for _ in 0..<10 {
                let reply = try await client.call("importWorkouts", ["format": "strong_csv", "content": Self.file], token: token)
                #expect(reply.status == .ok, "\(reply.json)")
            }
            let refused = try await client.call("importWorkouts", ["format": "strong_csv", "content": Self.file], token: token)
            #expect(refused.errorCode == "RATE_LIMITED" && refused.errorDetails?["retry_after_seconds"] as? String == "3000")
            let other = try await client.newUser("other-importer@example.com")
            #expect(try await client.call("importWorkouts", ["format": "strong_csv", "content": Self.file], token: other).status == .ok)
            clock.advance(by: 3000)
            let signedIn = try await client.call("signIn", ["email": "importer@example.com", "password": "secret-password"])
            let fresh = try #require(signedIn.accessToken, "\(signedIn.json)")
            let next = try await client.call("importWorkouts", ["format": "strong_csv", "content": Self.file], token: fresh)
            #expect(next.status == .ok && next.data["imported"] as? Int == 0, "the same file again adds nothing")
        }
    }
}
