import Contracts
import Fakes
import Foundation
import HTTPTypes
import Platform
import PovverApp
import SQLKit
import TestSupport
import Testing

/// Product events through the whole server: the app's `trackEvents`, and the events the server records from
/// sign-up and the workout lifecycle once the outbox has delivered them.
@Suite struct ProductEventsFlowTests {
    @Test(arguments: TestDatabases.engines)
    func appAndServerEventsLandInOneUsersStream(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await TestServer.with(engine, clock: clock) { server, client in
            let event: [String: Any] = ["name": "app_opened", "params": [:] as [String: Any], "occurred_at": clock.now().rfc3339]
            #expect(try await client.call("trackEvents", ["events": [event]]).errorCode == "UNAUTHENTICATED")

            let token = try await client.newUser("events@example.com")
            let tracked = try await client.call(
                "trackEvents",
                [
                    "events": [
                        event.merging(["event_id": "open-1", "install_id": "install-1"]) { _, new in new },
                        ["name": "message_sent", "params": ["message_length": "twelve"], "occurred_at": clock.now().rfc3339],
                    ]
                ], token: token)
            #expect(tracked.status == .ok, "\(tracked.json)")
            #expect(tracked.data["accepted"] as? Int == 1)
            let rejected = try #require((tracked.data["rejected"] as? [[String: Any]])?.first)
            #expect(rejected["index"] as? Int == 1 && rejected["code"] as? String == "INVALID_ARGUMENT")
            #expect(rejected["field"] as? String == "events[1].params.message_length")
            #expect(try await client.call("trackEvents", ["events": "app_opened"], token: token).errorCode == "INVALID_ARGUMENT")

            let started = try await client.call("startActiveWorkout", ["idempotency_key": "s1"], token: token)
            let workoutId = try #require(started.data["id"] as? String)
            clock.advance(by: 300)
            #expect(
                try await client.call("cancelActiveWorkout", ["workout_id": workoutId, "idempotency_key": "c1"], token: token).status == .ok
            )
            try await AccountFlowTests.settle(server, clock: clock)

            let names = try await server.database.sql.raw("SELECT name, source FROM analytics_product_events ORDER BY name").all()
                .map { "\(try $0.decode(column: "name", as: String.self))/\(try $0.decode(column: "source", as: String.self))" }
            #expect(names == ["app_opened/client", "signup_completed/server", "workout_cancelled/server", "workout_started/server"])
        }
    }
}
