import Analytics
import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

struct ProductEventFixture: Sendable {
    /// The names of the user's stored events, milestones included, sorted.
    var names: @Sendable (_ userId: String) async throws -> [String]
}

/// The `ProductEventSink` contract: an event is stored once per user and `eventId`, its first occurrence makes
/// the milestone once, and an event the taxonomy refuses is `INVALID_ARGUMENT` naming the field and stores nothing.
func productEventSinkConformance(_ sink: some ProductEventSink, fixture: ProductEventFixture) async throws {
    let time = Date(timeIntervalSince1970: 1_767_225_600)
    #expect(
        try await sink.record(userId: "u1", name: "message_sent", params: ["message_length": .int(12)], occurredAt: time, eventId: "m1"))
    #expect(
        try await sink.record(userId: "u1", name: "message_sent", params: ["message_length": .int(12)], occurredAt: time, eventId: "m1")
            == false, "a repeat of the same event id stores nothing")
    #expect(
        try await sink.record(
            userId: "u1", name: "message_sent", params: ["message_length": .number(30)], occurredAt: time.addingTimeInterval(60),
            eventId: "m2"))
    #expect(try await fixture.names("u1") == ["first_message_sent", "message_sent", "message_sent"])
    #expect(try await sink.record(userId: "u2", name: "message_sent", params: ["message_length": .int(1)], occurredAt: time, eventId: "m1"))
    #expect(try await fixture.names("u2") == ["first_message_sent", "message_sent"], "an event id is the user's own")
    #expect(
        try await sink.record(
            userId: "u1", name: "artifact_action", params: ["action": .string("accept"), "artifact_type": .string("session_plan")],
            occurredAt: time, eventId: "a1"))

    let long = String(repeating: "x", count: ProductEventTaxonomy.maxStringLength + 1)
    let refused: [(name: String, params: [String: ProductEventValue], eventId: String, field: String)] = [
        ("no_such_event", [:], "r1", "name"),
        ("first_message_sent", [:], "r2", "name"),
        ("message_sent", [:], "r3", "params.message_length"),
        ("message_sent", ["message_length": .string("12")], "r4", "params.message_length"),
        ("message_sent", ["message_length": .number(1.5)], "r5", "params.message_length"),
        ("message_sent", ["message_length": .int(-1)], "r6", "params.message_length"),
        ("message_sent", ["message_length": .int(1), "mesage_length": .int(1)], "r7", "params.mesage_length"),
        ("artifact_received", ["artifact_type": .string(long)], "r8", "params.artifact_type"),
        ("message_sent", ["message_length": .int(1)], "", "event_id"),
        ("message_sent", ["message_length": .int(1)], "has space", "event_id"),
    ]
    for case (let name, let params, let eventId, let field) in refused {
        let error = await #expect(throws: ServiceError.self, "\(name) \(params) \(eventId)") {
            try await sink.record(userId: "u1", name: name, params: params, occurredAt: time, eventId: eventId)
        }
        #expect(error?.code == .invalidArgument && error?.details["field"] == field, "\(name) \(params): \(String(describing: error))")
    }
    #expect(try await fixture.names("u1") == ["artifact_action", "first_message_sent", "message_sent", "message_sent"])
}

@Suite struct ProductEventSinkConformanceTests {
    @Test func fake() async throws {
        let sink = FakeProductEventSink()
        try await productEventSinkConformance(
            sink, fixture: ProductEventFixture { userId in await sink.events(userId: userId).map(\.name).sorted() })
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("analytics", ProductAnalytics.migrations)]) { db in
            let product = ProductAnalytics(database: db, clock: FakeWallClock(), ids: RandomIDGenerator(), accounts: FakeAccountDirectory())
            try await productEventSinkConformance(
                product.sink,
                fixture: ProductEventFixture { userId in
                    try await db.sql.raw("SELECT name FROM analytics_product_events WHERE user_id = \(bind: userId)")
                        .all(decodingColumn: "name", as: String.self).sorted()
                })
        }
    }
}
