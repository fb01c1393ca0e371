import Contracts
import Foundation

/// A product event sink that keeps what it records in memory, under the live sink's rules: the same taxonomy
/// checks, one event per user and `eventId`, and a milestone the first time an event leads to it.
public actor FakeProductEventSink: ProductEventSink {
    /// One recorded event (a milestone has no parameters and the triggering event's time).
    public struct Recorded: Sendable, Equatable {
        public var userId: String
        public var name: String
        public var params: [String: ProductEventValue]
        public var occurredAt: Date
    }

    private var recorded: [Recorded] = []
    private var seen: Set<[String]> = []
    private var milestones: Set<[String]> = []

    public init() {}

    @discardableResult
    public func record(userId: String, name: String, params: [String: ProductEventValue], occurredAt: Date, eventId: String) async throws
        -> Bool
    {
        guard ProductEventTaxonomy.isValidId(eventId) else {
            throw ServiceError.invalidArgument(
                field: "event_id", reason: "must be 1 to \(ProductEventTaxonomy.maxIdLength) letters, digits, '-', '_', '.' or ':'")
        }
        let params = try ProductEventTaxonomy.validate(name: name, params: params, from: .server)
        guard seen.insert([userId, eventId]).inserted else { return false }
        recorded.append(Recorded(userId: userId, name: name, params: params, occurredAt: occurredAt))
        if let milestone = ProductEventTaxonomy.definition(named: name)?.milestone, milestones.insert([userId, milestone]).inserted {
            recorded.append(Recorded(userId: userId, name: milestone, params: [:], occurredAt: occurredAt))
        }
        return true
    }

    /// The user's events in the order they were recorded, milestones included.
    public func events(userId: String) -> [Recorded] { recorded.filter { $0.userId == userId } }
}
