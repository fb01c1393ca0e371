import Contracts
import Fakes
import Foundation
import SQLKit
import TestSupport
import Testing

@testable import Analytics
@testable import Platform

/// Server-side product events from other modules' domain events: one product event per domain event however
/// often it is delivered.
@Suite struct ProductEventHandlersTests {
    /// Delivers `event` to the analytics handler for its type, as the outbox does (stored under `id`).
    static func deliver<E: DomainEvent>(_ event: E, id: String, to module: ProductAnalytics) async throws {
        let stored = StoredEvent(id: id, type: E.eventType, payload: try JSONCoding.encodeToString(event), occurredAt: Date())
        for handler in module.eventHandlers where handler.eventType == E.eventType {
            try await handler.handle(stored)
        }
    }

    /// A workout imported from another app's export is history: no `workout_completed`, no milestone.
    @Test(arguments: TestDatabases.engines)
    func importedWorkoutsAreNoActivity(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            try await Self.deliver(
                WorkoutCompleted(
                    userId: "u", workoutId: "imp-1", sourceTemplateId: nil, sourceRoutineId: nil, completedAt: clock.now(),
                    durationMinutes: 60,
                    exerciseCount: 2, setCount: 8, imported: true),
                id: "workout-completed:imp-1", to: module)
            #expect(try await ProductTesting.names("u", in: db).isEmpty)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func domainEventsBecomeProductEventsOnceEach(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            let start = clock.now()
            let end = start.addingTimeInterval(45 * 60)
            for _ in 0..<2 {
                try await Self.deliver(
                    AccountCreated(userId: "u", provider: "apple.com", occurredAt: start), id: "account-created:u", to: module)
                try await Self.deliver(
                    WorkoutStarted(userId: "u", workoutId: "w1", source: .routine, startedAt: start), id: "workout-started:w1", to: module)
                try await Self.deliver(
                    WorkoutCompleted(
                        userId: "u", workoutId: "w1", sourceTemplateId: "t", sourceRoutineId: "r", completedAt: end, durationMinutes: 45.04,
                        exerciseCount: 3, setCount: 12),
                    id: "workout-completed:w1", to: module)
                try await Self.deliver(
                    WorkoutCancelled(userId: "u", workoutId: "w2", startedAt: start, cancelledAt: start.addingTimeInterval(90)),
                    id: "workout-cancelled:w2", to: module)
            }
            #expect(
                try await ProductTesting.names("u", in: db) == [
                    "first_workout_completed", "signup_completed", "workout_cancelled", "workout_completed", "workout_started",
                ])
            let events = Dictionary(
                try await module.recentEvents(userId: "u", limit: 10).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }
            )
            #expect(events["signup_completed"]?.params == ["provider": .string("apple.com")])
            #expect(events["workout_started"]?.params == ["source": .string("routine"), "workout_id": .string("w1")])
            #expect(
                events["workout_completed"]?.params == [
                    "duration_min": .number(45), "exercise_count": .int(3), "set_count": .int(12), "workout_id": .string("w1"),
                ])
            #expect(events["workout_cancelled"]?.params == ["duration_min": .number(1.5), "workout_id": .string("w2")])
            #expect(events["first_workout_completed"]?.occurredAt == end)
            // What the server records meets the taxonomy it holds the app to.
            for event in events.values where !(ProductEventTaxonomy.definition(named: event.name)?.isMilestone ?? true) {
                #expect(throws: Never.self) { try ProductEventTaxonomy.validate(name: event.name, params: event.params, from: .server) }
            }
            #expect(Set(events.values.map(\.source)) == [.server])
        }
    }

    /// Trials and purchases as the app's `purchase()` reports them; renewals, conversions, expiries and
    /// operators' overrides are no purchase.
    @Test func subscriptionChangesThatAreTrialsOrPurchases() {
        func change(_ status: String, from previous: String?, premium: Bool = true, source: String = "webhook") -> String? {
            ProductEventHandlers.productEvent(
                for: SubscriptionChanged(
                    userId: "u", tier: premium ? "premium" : "free", status: status, isPremium: premium, source: source, occurredAt: Date(),
                    previousStatus: previous))
        }
        #expect(change("trial", from: "free") == "trial_started")
        #expect(change("trial", from: "expired") == "trial_started")
        #expect(change("trial", from: "trial") == nil)
        #expect(change("active", from: "free") == "subscription_purchased")
        #expect(change("active", from: "expired", source: "sync") == "subscription_purchased")
        #expect(change("active", from: nil) == "subscription_purchased", "an event from before previous_status was carried")
        #expect(change("active", from: "trial") == nil, "a trial converting is not a purchase")
        #expect(change("active", from: "grace_period") == nil, "a renewal recovered is not a purchase")
        #expect(change("expired", from: "active", premium: false) == nil)
        #expect(change("active", from: "free", source: "override") == nil)
    }

    @Test(arguments: TestDatabases.engines)
    func aPurchaseIsRecordedOnceWithItsProduct(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            let purchase = SubscriptionChanged(
                userId: "u", tier: "premium", status: "active", isPremium: true, source: "webhook", occurredAt: clock.now(),
                previousStatus: "free", productId: "povver.premium.monthly")
            try await Self.deliver(purchase, id: "s1", to: module)
            try await Self.deliver(purchase, id: "s1", to: module)
            let events = try await module.recentEvents(userId: "u", limit: 10)
            #expect(events.map(\.name) == ["subscription_purchased"])
            #expect(events.first?.params == ["product_id": .string("povver.premium.monthly")])
        }
    }
}
