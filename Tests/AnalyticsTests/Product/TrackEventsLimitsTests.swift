import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Analytics

/// What `trackEvents` refuses so that a client can neither fill the disk nor forge its funnel: the server's own
/// events, times out of bounds, more than its hourly share of events; and raw events expire.
@Suite struct TrackEventsLimitsTests {
    static func opens(_ count: Int, at time: Date) -> [JSONValue] {
        (0..<count).map { _ in TrackEventsTests.event("app_opened", at: time) }
    }

    static let serverEvents = ["conversation_started", "message_sent", "artifact_received", "artifact_action", "recommendation_action"]

    /// Events the server records itself are refused from the app, naming the event; the server still records them
    /// (with their milestones) through the sink.
    @Test(arguments: TestDatabases.engines)
    func eventsTheServerRecordsAreRefusedFromTheApp(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            let params: [String: JSONValue] = [
                "conversation_started": ["entry_point": "chat"], "message_sent": ["message_length": 5],
                "artifact_received": ["artifact_type": "session_plan"],
                "artifact_action": ["action": "accept", "artifact_type": "session_plan"],
                "recommendation_action": ["action": "accept", "type": "progression"],
            ]
            let batch = Self.serverEvents.map { TrackEventsTests.event($0, params[$0] ?? [:], at: clock.now()) }
            let outcome = try await module.ingestion.track(userId: "u", events: batch)
            #expect(outcome.accepted == 0)
            #expect(outcome.rejected.map(\.code) == Array(repeating: "INVALID_ARGUMENT", count: Self.serverEvents.count))
            #expect(outcome.rejected.map(\.field) == Self.serverEvents.indices.map { "events[\($0)].name" })
            for (rejection, name) in zip(outcome.rejected, Self.serverEvents) {
                #expect(rejection.message.contains("'\(name)' is recorded by the server"), "\(rejection.message)")
            }
            #expect(try await ProductTesting.count("analytics_product_events", in: db) == 0)
            let offered = try JSONCoding.encodeToString(ProductAnalytics.trackEventsRequest)
            for name in Self.serverEvents { #expect(!offered.contains("\"\(name)\""), "\(name) is not offered in the API") }

            _ = try await module.sink.record(
                userId: "u", name: "message_sent", params: ["message_length": .int(5)], occurredAt: clock.now(), eventId: "m1")
            #expect(try await ProductTesting.names("u", in: db) == ["first_message_sent", "message_sent"])
        }
    }

    /// `occurred_at` is at most 10 minutes ahead, at most 30 days old, and not more than a day before the account was
    /// created (the app's opens from just before sign-up still count).
    @Test(arguments: TestDatabases.engines)
    func occurredAtIsBoundedByTheClockTheLast30DaysAndTheAccount(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let now = clock.now()
        let day: TimeInterval = 86_400
        let accounts = FakeAccountDirectory([
            AccountSummary(
                userId: "new", email: "new@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                createdAt: now.addingTimeInterval(-2 * day)),
            AccountSummary(
                userId: "old", email: "old@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                createdAt: now.addingTimeInterval(-400 * day)),
        ])
        try await ProductTesting.with(engine, accounts: accounts) { db, module, _ in
            func outcome(_ userId: String, _ offsets: [TimeInterval]) async throws -> [String?] {
                let events = offsets.map { TrackEventsTests.event("app_opened", at: now.addingTimeInterval($0)) }
                let rejected = try await module.ingestion.track(userId: userId, events: events).rejected
                return offsets.indices.map { index in rejected.first { $0.index == index }.map { $0.message } }
            }
            let old = try await outcome("old", [-30 * day + 60, -30 * day - 60, 9 * 60, 11 * 60, -20 * 365 * day])
            #expect(old[0] == nil && old[2] == nil)
            #expect(old[1]?.contains("more than 30 days ago") == true, "\(String(describing: old[1]))")
            #expect(old[3]?.contains("more than 10 minutes ahead") == true, "\(String(describing: old[3]))")
            #expect(old[4]?.contains("more than 30 days ago") == true, "a made-up time years back")

            let new = try await outcome("new", [-3 * day + 60, -3 * day - 60, -29 * day])
            #expect(new[0] == nil, "an open from the day before sign-up counts")
            #expect(new[1]?.contains("more than a day before the account was created") == true, "\(String(describing: new[1]))")
            #expect(new[2]?.contains("more than a day before the account was created") == true)
            // An account the directory does not know (being deleted): the 30 days alone.
            #expect(try await outcome("gone", [-29 * day, -31 * day]).map { $0 == nil } == [true, false])
            #expect(try await ProductTesting.count("analytics_product_events", in: db) == 4)
        }
    }

    /// A user's events are counted per hour, stored or not; a batch that takes them past the limit is refused
    /// whole with `RATE_LIMITED`, when to retry and the limit; other users are not affected.
    @Test(arguments: TestDatabases.engines)
    func eventsArePerUserRateLimited(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine, settings: AnalyticsSettings(trackEventsPerHour: 150)) { db, module, clock in
            let first = try await module.ingestion.track(userId: "u", events: Self.opens(100, at: clock.now()))
            #expect(first.accepted == 100)
            clock.advance(by: 600)
            let error = await #expect(throws: ServiceError.self) {
                _ = try await module.ingestion.track(userId: "u", events: Self.opens(60, at: clock.now()))
            }
            #expect(error?.code == .rateLimited)
            #expect(error?.details["limit"] == "150")
            #expect(error?.details["retry_after_seconds"] == "3000", "the hour's window ends in 50 minutes")
            #expect(error?.message.contains("at most 150 per hour") == true, "\(String(describing: error?.message))")
            #expect(try await ProductTesting.count("analytics_product_events", in: db) == 100, "nothing of the refused batch is stored")
            #expect(
                try await module.ingestion.track(userId: "v", events: Self.opens(100, at: clock.now())).accepted == 100,
                "each user has their own")
            clock.advance(by: 3000)
            #expect(try await module.ingestion.track(userId: "u", events: Self.opens(60, at: clock.now())).accepted == 60)
        }
    }

    /// Raw events go once older than the retention (by `occurred_at`), milestone events with them; the milestones
    /// themselves stay, so a later event makes none again.
    @Test(arguments: TestDatabases.engines)
    func eventsPastTheirRetentionArePurged(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine, settings: AnalyticsSettings(productEventRetentionDays: 400)) { db, module, clock in
            let day: TimeInterval = 86_400
            _ = try await module.sink.record(
                userId: "u", name: "message_sent", params: ["message_length": .int(1)],
                occurredAt: clock.now().addingTimeInterval(-401 * day),
                eventId: "m1")
            _ = try await module.sink.record(
                userId: "u", name: "message_sent", params: ["message_length": .int(2)],
                occurredAt: clock.now().addingTimeInterval(-399 * day),
                eventId: "m2")
            #expect(try await ProductTesting.names("u", in: db) == ["first_message_sent", "message_sent", "message_sent"])
            #expect(try await module.purgeExpiredEvents() == 2)
            #expect(try await ProductTesting.names("u", in: db) == ["message_sent"])
            #expect(try await module.purgeExpiredEvents() == 0)
            _ = try await module.sink.record(
                userId: "u", name: "message_sent", params: ["message_length": .int(3)], occurredAt: clock.now(), eventId: "m3")
            #expect(try await ProductTesting.names("u", in: db) == ["message_sent", "message_sent"], "the milestone is made once")
            #expect(try await module.milestones(userId: "u").keys.sorted() == ["first_message_sent"])
        }
    }

    /// The settings' defaults, and a bad value stops the start naming its variable.
    @Test func settingsAreReadAndCheckedFromTheEnvironment() throws {
        let defaults = try AnalyticsSettings(environment: [:])
        #expect(defaults.productEventRetentionDays == 400 && defaults.trackEventsPerHour == 600)
        let set = try AnalyticsSettings(
            environment: ["POVVER_PRODUCT_EVENTS_RETENTION_DAYS": "90", "POVVER_TRACK_EVENTS_PER_HOUR": "1000"])
        #expect(set.productEventRetentionDays == 90 && set.trackEventsPerHour == 1000)
        for (name, value) in [("POVVER_PRODUCT_EVENTS_RETENTION_DAYS", "0"), ("POVVER_TRACK_EVENTS_PER_HOUR", "many")] {
            let error = #expect(throws: ServiceError.self) { _ = try AnalyticsSettings(environment: [name: value]) }
            #expect(error?.details["field"] == name)
        }
    }
}
