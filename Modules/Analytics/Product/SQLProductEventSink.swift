import Contracts
import Foundation
import Platform

/// The `ProductEventSink` other modules record server-side product events through: checked against the
/// taxonomy as a server event, stored under an id derived from the caller's `eventId`, with its milestone, in
/// one transaction.
public struct SQLProductEventSink: ProductEventSink {
    let database: Database
    let clock: any WallClock

    public init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    @discardableResult
    public func record(userId: String, name: String, params: [String: ProductEventValue], occurredAt: Date, eventId: String) async throws
        -> Bool
    {
        guard ProductEventTaxonomy.isValidId(eventId) else {
            throw ServiceError.invalidArgument(
                field: "event_id", reason: "must be 1 to \(ProductEventTaxonomy.maxIdLength) letters, digits, '-', '_', '.' or ':'")
        }
        let event = ProductEvent(
            id: ProductEvent.sinkId(userId: userId, eventId: eventId), userId: userId, name: name,
            params: try ProductEventTaxonomy.validate(name: name, params: params, from: .server), occurredAt: occurredAt,
            receivedAt: clock.now(), source: .server)
        return try await database.transaction { tx in try await ProductEventStore.insert(event, in: tx) }
    }
}
