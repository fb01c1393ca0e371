import Fakes
import Foundation
import HTTPTypes
import Platform
import PovverApp
import PovverClient
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
            let file = Operations.ImportWorkouts.Input.Body.JsonPayload(content: Self.file, format: .strongCsv)
            for _ in 0..<10 { _ = try await client.api(token).importWorkouts(body: .json(file)).ok }
            let refusal = try #require(await refused { try await client.api(token).importWorkouts(body: .json(file)) })
            #expect(refusal.code == "RATE_LIMITED" && refusal.details["retry_after_seconds"] == "3000", "\(refusal)")
            let other = try await client.newUser("other-importer@example.com")
            _ = try await client.api(other).importWorkouts(body: .json(file)).ok
            clock.advance(by: 3000)
            let fresh = try await client.api().signIn(body: .json(.init(email: "importer@example.com", password: "secret-password"))).ok
                .body
                .json.data.tokens.accessToken
            let next = try await client.api(fresh).importWorkouts(body: .json(file)).ok.body.json.data
            #expect(next.imported == 0, "the same file again adds nothing")
        }
    }
}
