import Contracts
import Foundation
import Platform

/// What a user does with a recommendation (`reviewRecommendation`). Premium only (gate 2 of the three in docs/recommendations.md: a
/// user who downgraded cannot apply a recommendation made while premium).
///
/// Accepting a template-scoped recommendation applies its weights to the template only if the template is still
/// at the version the recommendation was made against: a template changed since is `CONFLICT` and nothing is
/// applied. The change goes through the Workouts contract under the recommendation's own idempotency key, so an
/// accept retried after a lost answer (or racing auto-pilot) applies it once. An exercise-scoped accept only
/// acknowledges.
struct RecommendationReview: Sendable {
    enum Action: String, Codable, Sendable {
        case accept, reject
    }

    let database: Database
    let clock: any WallClock
    let store: RecommendationStore
    let plans: any PlanLibrary
    let premium: any PremiumGate
    let events: any ProductEventSink

    func review(userId: String, id: String, action: Action) async throws -> Recommendation {
        try await premium.requirePremium(userId: userId)
        guard let (item, proposed) = try await store.find(userId: userId, id: id) else {
            throw ServiceError(.notFound, "No such recommendation.")
        }
        let done: RecommendationStatus = action == .accept ? .accepted : .rejected
        if item.status == done { return item }
        guard item.status == .pendingReview else {
            throw ServiceError(
                .failedPrecondition,
                "This recommendation is \(item.status.rawValue.replacingOccurrences(of: "_", with: " ")) and can no longer be reviewed.")
        }
        if action == .accept, item.scope == .template {
            try await Self.apply(item, proposed: proposed, userId: userId, plans: plans)
        }
        let now = clock.now()
        let store = self.store
        let resolved = try await database.transaction { tx in try await store.resolve(userId: userId, id: id, to: done, at: now, in: tx) }
        guard let current = try await store.find(userId: userId, id: id)?.item else {
            throw ServiceError(.notFound, "No such recommendation.")
        }
        if resolved {
            try await events.record(
                userId: userId, name: "recommendation_action",
                params: ["action": .string(action.rawValue), "type": .string(item.scope.rawValue)], occurredAt: now,
                eventId: "recommendation:\(id):\(action.rawValue)")
        } else if current.status != done {
            // Someone else resolved it meanwhile (the sweep expired it, auto-pilot applied it, the other action won).
            throw ServiceError(.failedPrecondition, "This recommendation was resolved meanwhile: it is \(current.status.rawValue).")
        }
        return current
    }

    /// Applies a template-scoped recommendation's weights through the Workouts contract if the template is still at
    /// the version it was made against. Throws `CONFLICT` when it changed, `FAILED_PRECONDITION` when it is gone.
    static func apply(_ item: Recommendation, proposed: [PlannedExercise]?, userId: String, plans: any PlanLibrary) async throws {
        guard let templateId = item.target.templateId, let version = item.target.templateVersion, let proposed else {
            throw ServiceError(.failedPrecondition, "This recommendation has no template change to apply.")
        }
        do {
            _ = try await plans.applyTemplateChanges(
                userId: userId, templateId: templateId, expectedVersion: version, exercises: proposed,
                idempotencyKey: "recommendation:\(item.id)")
        } catch let error as ServiceError where error.code == .conflict {
            throw ServiceError(.conflict, "The template changed since this recommendation was made; nothing was applied.")
        } catch let error as ServiceError where error.code == .notFound {
            throw ServiceError(.failedPrecondition, "The template of this recommendation no longer exists.")
        }
    }
}
