import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Analytics

/// `trackEvents`: each event is checked on its own; the good ones are stored, the bad ones come back with their
/// index and the field at fault.
@Suite struct TrackEventsTests {
    static func event(
        _ name: String, _ params: JSONValue = [:], at time: Date, eventId: String? = nil, installId: String? = nil
    ) -> JSONValue {
        var fields: [String: JSONValue] = ["name": .string(name), "params": params, "occurred_at": .string(time.rfc3339)]
        if let eventId { fields["event_id"] = .string(eventId) }
        if let installId { fields["install_id"] = .string(installId) }
        return .object(fields)
    }

    @Test(arguments: TestDatabases.engines)
    func badEventsAreRejectedOneByOneAndTheRestStored(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            let now = clock.now()
            let events: [JSONValue] = [
                Self.event("app_opened", at: now, installId: "install-1"),
                Self.event("tab_viewed", ["tab": "coach"], at: now),
                Self.event("no_such_event", at: now),
                Self.event("tab_viewed", ["tab": 12], at: now),
                Self.event("tab_viewed", ["tab": "coach", "words": 3], at: now),
                Self.event("tab_viewed", [:], at: now),
                Self.event("screen_viewed", ["screen": .string(String(repeating: "s", count: 101))], at: now),
                Self.event("app_opened", at: now.addingTimeInterval(2 * 86_400)),
                Self.event("app_opened", at: now, eventId: "not an id"),
                Self.event("signup_completed", ["provider": "email"], at: now),
                Self.event("first_message_sent", at: now),
                ["name": "app_opened", "occurred_at": "yesterday"],
                ["name": "app_opened"],
                "app_opened",
                Self.event("paywall_shown", ["trigger": "coach"], at: now.addingTimeInterval(300)),
            ]
            let outcome = try await module.ingestion.track(userId: "u", events: events)
            #expect(outcome.accepted == 3)
            #expect(outcome.rejected.map(\.index) == Array(2...13))
            #expect(Set(outcome.rejected.map(\.code)) == ["INVALID_ARGUMENT"])
            #expect(
                outcome.rejected.map(\.field) == [
                    "events[2].name", "events[3].params.tab", "events[4].params.words", "events[5].params.tab",
                    "events[6].params.screen", "events[7].occurred_at", "events[8].event_id", "events[9].name", "events[10].name",
                    "events[11].occurred_at", "events[12].occurred_at", "events[13]",
                ])
            #expect(outcome.rejected[1].message.contains("events[3].params.tab"), "the message names the field")
            #expect(try await ProductTesting.names("u", in: db) == ["app_opened", "paywall_shown", "tab_viewed"])
            let stored = try await module.recentEvents(userId: "u", limit: 10)
            #expect(stored.first { $0.name == "app_opened" }?.installId == "install-1")
            #expect(Set(stored.map(\.source)) == [.client])
        }
    }

    /// A whole number written `12.0` is stored as `12` (the server's events carry the integers).
    @Test func aWholeNumberIsStoredAsAnInteger() throws {
        #expect(
            try ProductEventTaxonomy.validate(name: "message_sent", params: ["message_length": .number(12)], from: .server)
                == ["message_length": .int(12)])
    }

    /// A batch sent again (its answer was lost) and an id repeated inside one batch are accepted and stored once.
    @Test(arguments: TestDatabases.engines)
    func aRepeatedEventIdIsAcceptedAndStoredOnce(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            let batch: [JSONValue] = [
                Self.event("tab_viewed", ["tab": "coach"], at: clock.now(), eventId: "e-1"),
                Self.event("tab_viewed", ["tab": "coach"], at: clock.now(), eventId: "e-1"),
                Self.event("tab_viewed", ["tab": "history"], at: clock.now(), eventId: "e-2"),
            ]
            #expect(try await module.ingestion.track(userId: "u", events: batch) == .init(accepted: 3, rejected: []))
            #expect(try await module.ingestion.track(userId: "u", events: batch) == .init(accepted: 3, rejected: []))
            #expect(try await ProductTesting.names("u", in: db) == ["tab_viewed", "tab_viewed"])
            // Another user's event ids are theirs.
            _ = try await module.ingestion.track(userId: "v", events: batch)
            #expect(try await ProductTesting.count("analytics_product_events", in: db) == 4)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func moreThanABatchIsRefusedWhole(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            let batch = (0...ProductEventIngestion.maxBatch).map { _ in Self.event("app_opened", at: clock.now()) }
            let error = await #expect(throws: ServiceError.self) {
                _ = try await module.ingestion.track(userId: "u", events: batch)
            }
            #expect(error?.code == .invalidArgument && error?.details["field"] == "events")
            let stored = try await ProductTesting.count("analytics_product_events", in: db)
            #expect(stored == 0)
            let full = try await module.ingestion.track(userId: "u", events: Array(batch.dropLast()))
            #expect(full.accepted == ProductEventIngestion.maxBatch)
        }
    }

    /// Parameters are capped at 1 KB of JSON as a whole besides 100 characters per string: characters that JSON
    /// escapes (six bytes each) pass the second and not the first.
    @Test func parametersOverAKilobyteAreRefused() throws {
        let escaped = String(repeating: "\u{1}", count: ProductEventTaxonomy.maxStringLength)
        let error = #expect(throws: ServiceError.self) {
            try ProductEventTaxonomy.validate(
                name: "artifact_action", params: ["action": .string(escaped), "artifact_type": .string(escaped)], from: .server)
        }
        #expect(error?.details["field"] == "params")
        let plain = String(repeating: "x", count: ProductEventTaxonomy.maxStringLength)
        #expect(
            try ProductEventTaxonomy.validate(
                name: "artifact_action", params: ["action": .string(plain), "artifact_type": .string(plain)], from: .server
            )
            .count == 2)
    }
}
