import Contracts
import Foundation

/// One stored product event. `id` is what makes a repeat store nothing: derived from the client's `event_id`,
/// the domain event's id, or the sink caller's id (a random one only for a client event without `event_id`).
public struct ProductEvent: Sendable, Equatable {
    public var id: String
    public var userId: String
    public var name: String
    public var params: [String: ProductEventValue]
    public var occurredAt: Date
    public var receivedAt: Date
    public var installId: String?
    public var source: ProductEventSource

    public init(
        id: String, userId: String, name: String, params: [String: ProductEventValue], occurredAt: Date, receivedAt: Date,
        installId: String? = nil, source: ProductEventSource
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.params = params
        self.occurredAt = occurredAt
        self.receivedAt = receivedAt
        self.installId = installId
        self.source = source
    }

    /// The stored id of the client's event `eventId` (unique per user).
    static func clientId(userId: String, eventId: String) -> String { "client:\(userId):\(eventId)" }

    /// The stored id of a server event recorded through `ProductEventSink` under the caller's `eventId`.
    static func sinkId(userId: String, eventId: String) -> String { "sink:\(userId):\(eventId)" }

    /// The stored id of the product event made from the domain event `domainEventId` (outbox ids are unique).
    static func domainId(_ domainEventId: String) -> String { "domain:\(domainEventId)" }

    /// The stored id of the user's milestone event: one per user and milestone.
    static func milestoneId(userId: String, milestone: String) -> String { "milestone:\(userId):\(milestone)" }
}
