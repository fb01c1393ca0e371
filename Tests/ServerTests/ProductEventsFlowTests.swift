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
                        ["name": "tab_viewed", "params": ["tab": 12], "occurred_at": clock.now().rfc3339],
                    ]
                ], token: token)
            #expect(tracked.status == .ok, "\(tracked.json)")
            #expect(tracked.data["accepted"] as? Int == 1)
            let rejected = try #require((tracked.data["rejected"] as? [[String: Any]])?.first)
            #expect(rejected["index"] as? Int == 1 && rejected["code"] as? String == "INVALID_ARGUMENT")
            #expect(rejected["field"] as? String == "events[1].params.tab")
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

    /// `POVVER_TRACK_EVENTS_PER_HOUR` caps a user's events: past it the batch is `429 RATE_LIMITED` with `Retry-After`,
    /// `retry_after_seconds` and the limit; an event the server records is refused from the app, naming it.
    @Test(arguments: TestDatabases.engines)
    func aUsersEventsAreCappedPerHourAndServerEventsRefused(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await TestServer.with(engine, environment: ["POVVER_TRACK_EVENTS_PER_HOUR": "3"], clock: clock) { server, client in
            let token = try await client.newUser("capped@example.com")
            let open: [String: Any] = ["name": "app_opened", "occurred_at": clock.now().rfc3339]
            let message: [String: Any] = ["name": "message_sent", "params": ["message_length": 5], "occurred_at": clock.now().rfc3339]
            let first = try await client.call("trackEvents", ["events": [open, message]], token: token)
            #expect(first.data["accepted"] as? Int == 1, "\(first.json)")
            let refused = try #require((first.data["rejected"] as? [[String: Any]])?.first)
            #expect(refused["field"] as? String == "events[1].name" && refused["code"] as? String == "INVALID_ARGUMENT")
            #expect((refused["message"] as? String)?.contains("'message_sent' is recorded by the server") == true, "\(refused)")

            let over = try await client.call("trackEvents", ["events": [open, open]], token: token)
            #expect(over.status == .tooManyRequests && over.errorCode == "RATE_LIMITED", "\(over.json)")
            #expect(over.errorDetails?["limit"] as? String == "3")
            #expect(over.errorDetails?["retry_after_seconds"] as? String == "3600")
            #expect(over.headers[.retryAfter] == "3600")
            let other = try await client.newUser("other@example.com")
            #expect(try await client.call("trackEvents", ["events": [open]], token: other).data["accepted"] as? Int == 1)
            let stored = try await server.database.sql.raw("SELECT COUNT(*) AS n FROM analytics_product_events WHERE name = 'app_opened'")
                .first(decodingColumn: "n", as: Int.self)
            #expect(stored == 2)
        }
    }
}
