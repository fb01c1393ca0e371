import Contracts
import Foundation
import Platform

/// Product events the server records from other modules' domain events. Each product event is stored under an
/// id derived from the domain event's id, in the handler's one transaction with its milestone, so a redelivery
/// (handlers run at least once) stores nothing twice. The events carry every number recorded (Workouts puts the
/// duration and counts in `WorkoutCompleted`), so Analytics reads no other module to record them.
struct ProductEventHandlers: Sendable {
    let database: Database
    let clock: any WallClock

    var all: [EventHandler] {
        [
            .on(AccountCreated.self, name: "analytics.product.signup_completed") { event, stored in
                try await record(
                    stored, userId: event.userId, "signup_completed", ["provider": .string(event.provider)], at: event.occurredAt)
            },
            .on(WorkoutStarted.self, name: "analytics.product.workout_started") { event, stored in
                try await record(
                    stored, userId: event.userId, "workout_started",
                    ["source": .string(event.source.rawValue), "workout_id": .string(event.workoutId)], at: event.startedAt)
            },
            .on(WorkoutCompleted.self, name: "analytics.product.workout_completed") { event, stored in
                // A workout imported from another app is history, not activity in the app: no event, no milestone.
                guard event.imported != true else { return }
                var params: [String: ProductEventValue] = ["workout_id": .string(event.workoutId)]
                // An event published before the counts were carried is recorded without them rather than not at all.
                if let minutes = event.durationMinutes { params["duration_min"] = .number(minutes.roundedToTenth) }
                if let count = event.exerciseCount { params["exercise_count"] = .int(count) }
                if let count = event.setCount { params["set_count"] = .int(count) }
                try await record(stored, userId: event.userId, "workout_completed", params, at: event.completedAt)
            },
            .on(WorkoutCancelled.self, name: "analytics.product.workout_cancelled") { event, stored in
                try await record(
                    stored, userId: event.userId, "workout_cancelled",
                    ["duration_min": .number(event.durationMinutes.roundedToTenth), "workout_id": .string(event.workoutId)],
                    at: event.cancelledAt)
            },
            .on(SubscriptionChanged.self, name: "analytics.product.subscription") { event, stored in
                guard let name = Self.productEvent(for: event) else { return }
                let params: [String: ProductEventValue] = event.productId.map { ["product_id": .string($0)] } ?? [:]
                try await record(stored, userId: event.userId, name, params, at: event.occurredAt)
            },
        ]
    }

    /// What a subscription change means for the funnel, following the app's `SubscriptionService.purchase()`
    /// (docs/analytics.md "Taxonomy"): entering a trial is `trial_started`; becoming `active` from no subscription
    /// (`free`, `expired`, or unknown in an older event) is `subscription_purchased`. A trial converting, a renewal recovered from
    /// grace, an expiry, and an operator's override are no purchase: nil.
    static func productEvent(for change: SubscriptionChanged) -> String? {
        guard change.source != "override" else { return nil }
        if change.status == "trial", change.previousStatus != "trial" { return "trial_started" }
        if change.status == "active", change.isPremium, [nil, "free", "expired"].contains(change.previousStatus) {
            return "subscription_purchased"
        }
        return nil
    }

    private func record(
        _ stored: StoredEvent, userId: String, _ name: String, _ params: [String: ProductEventValue], at occurredAt: Date
    ) async throws {
        let event = ProductEvent(
            id: ProductEvent.domainId(stored.id), userId: userId, name: name, params: params, occurredAt: occurredAt,
            receivedAt: clock.now(),
            source: .server)
        try await database.transaction { tx in try await ProductEventStore.insert(event, in: tx) }
    }
}
