import Foundation

/// Records product events that happen on the server (the coach's `message_sent` and `artifact_received`, an
/// artifact's `artifact_action`, the analyst's `recommendation_action`). Provided by Analytics; consumed by
/// any module that reports what its users do.
public protocol ProductEventSink: Sendable {
    /// Records the event `name` of the user with `params` typed as `ProductEventTaxonomy` says, and the
    /// milestone it leads to (a first `message_sent` makes `first_message_sent`) in the same write. `eventId` is
    /// the caller's stable id for this occurrence: recording it again (a retried job, a redelivered domain event)
    /// changes nothing and returns false. Returns true when the event was new.
    /// Throws `INVALID_ARGUMENT` naming the field for an unknown name, a milestone name (milestones are derived,
    /// never recorded), a missing, mistyped, oversize or unknown parameter, or an empty or overlong `eventId`;
    /// otherwise only on storage failure.
    @discardableResult
    func record(userId: String, name: String, params: [String: ProductEventValue], occurredAt: Date, eventId: String) async throws -> Bool
}
