import Contracts
import Fakes
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Platform
import PovverApp
import PovverClient
import SQLKit
import TestSupport
import Testing

/// Product events through the whole server: the app's `trackEvents`, and the events the server records from
/// sign-up and the workout lifecycle once the outbox has delivered them.
@Suite struct ProductEventsFlowTests {
    typealias Event = Operations.TrackEvents.Input.Body.JsonPayload.EventsPayloadPayload

    /// An event of the app's own (`value1`, the document's first alternative).
    static func event(
        _ name: Event.Value1Payload.NamePayload, at date: Date, params: [String: (any Sendable)?]? = nil, eventId: String? = nil,
        installId: String? = nil
    ) throws -> Event {
        .init(
            value1: .init(
                eventId: eventId, installId: installId, name: name, occurredAt: date,
                params: try params.map { .init(additionalProperties: try OpenAPIObjectContainer(unvalidatedValue: $0)) }))
    }

    @Test(arguments: TestDatabases.engines)
    func appAndServerEventsLandInOneUsersStream(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await TestServer.with(engine, clock: clock) { server, client in
            let opened = try Self.event(.appOpened, at: clock.now(), params: [:])
            let anonymous = try #require(await refused { try await client.api().trackEvents(body: .json(.init(events: [opened]))) })
            #expect(anonymous.code == "UNAUTHENTICATED")

            let token = try await client.newUser("events@example.com")
            let api = client.api(token)
            let tracked = try await api.trackEvents(
                body: .json(
                    .init(events: [
                        try Self.event(.appOpened, at: clock.now(), params: [:], eventId: "open-1", installId: "install-1"),
                        try Self.event(.tabViewed, at: clock.now(), params: ["tab": 12]),
                    ]))
            ).ok.body.json.data
            #expect(tracked.accepted == 1, "\(tracked)")
            let rejected = try #require(tracked.rejected.first)
            #expect(rejected.index == 1 && rejected.code == "INVALID_ARGUMENT")
            #expect(rejected.field == "events[1].params.tab")
            // `events` of the wrong type is a body outside the document, so it is written as JSON.
            #expect(try await client.send("trackEvents", ["events": "app_opened"], token: token).code == "INVALID_ARGUMENT")

            let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s1"))).ok.body.json.data.id
            clock.advance(by: 300)
            _ = try await api.cancelActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: workoutId))).ok
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
            let api = client.api(token)
            let open = try Self.event(.appOpened, at: clock.now())
            // An event name the app may not send goes in the document's second alternative ("anything else").
            let message = Event(
                value2: try OpenAPIValueContainer(
                    unvalidatedValue: [
                        "name": "message_sent", "params": ["message_length": 5] as [String: (any Sendable)?],
                        "occurred_at": clock.now().rfc3339,
                    ] as [String: (any Sendable)?]))
            let first = try await api.trackEvents(body: .json(.init(events: [open, message]))).ok.body.json.data
            #expect(first.accepted == 1, "\(first)")
            let refusedEvent = try #require(first.rejected.first)
            #expect(refusedEvent.field == "events[1].name" && refusedEvent.code == "INVALID_ARGUMENT")
            #expect(refusedEvent.message.contains("'message_sent' is recorded by the server"), "\(refusedEvent)")

            let over = try #require(await refused { try await api.trackEvents(body: .json(.init(events: [open, open]))) })
            #expect(over.status == 429 && over.code == "RATE_LIMITED", "\(over)")
            #expect(over.details["limit"] == "3")
            #expect(over.details["retry_after_seconds"] == "3600")
            #expect(over.headers[.retryAfter] == "3600")
            let other = try await client.newUser("other@example.com")
            #expect(try await client.api(other).trackEvents(body: .json(.init(events: [open]))).ok.body.json.data.accepted == 1)
            let stored = try await server.database.sql.raw("SELECT COUNT(*) AS n FROM analytics_product_events WHERE name = 'app_opened'")
                .first(decodingColumn: "n", as: Int.self)
            #expect(stored == 2)
        }
    }
}
