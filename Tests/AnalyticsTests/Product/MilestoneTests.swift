import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import Synchronization
import TestSupport
import Testing

@testable import Analytics

/// A milestone is reached once per user: whatever arrives at the same moment, whatever is delivered again.
@Suite struct MilestoneTests {
    /// Many first messages of one user recorded at once (separate transactions, on PostgreSQL on separate
    /// connections): one `first_message_sent`, one milestone row, every message kept.
    @Test(arguments: TestDatabases.engines)
    func concurrentFirstsMakeOneMilestone(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            let sink = module.sink
            let time = clock.now()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        _ = try await sink.record(
                            userId: "u", name: "message_sent", params: ["message_length": .int(index)], occurredAt: time,
                            eventId: "m\(index)")
                    }
                    group.addTask {
                        _ = try await sink.record(
                            userId: "u", name: "message_sent", params: ["message_length": .int(1)], occurredAt: time, eventId: "n\(index)")
                    }
                }
                try await group.waitForAll()
            }
            let names = try await ProductTesting.names("u", in: db)
            #expect(names.filter { $0 == "message_sent" }.count == 24)
            #expect(names.filter { $0 == "first_message_sent" }.count == 1)
            #expect(try await module.milestones(userId: "u").keys.sorted() == ["first_message_sent"])
            #expect(try await ProductTesting.count("analytics_product_milestones", in: db) == 1)
        }
    }

    /// Two transactions that each store a first artifact, both open at once: on PostgreSQL the second waits on
    /// the first's milestone row (seen in `pg_stat_activity`) and then finds it; SQLite runs one writer at a time.
    @Test(arguments: TestDatabases.engines)
    func twoOpenTransactionsMakeOneMilestone(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, _, clock in
            let time = clock.now()
            @Sendable func artifact(_ id: String) -> ProductEvent {
                ProductEvent(
                    id: id, userId: "u", name: "artifact_received", params: ["artifact_type": .string("session_plan")], occurredAt: time,
                    receivedAt: time, source: .client)
            }
            @Sendable func waitingOnALock() async throws -> Bool {
                guard engine == .postgres else { return true }
                let waiting = try await db.sql.raw(
                    "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
                ).first(decodingColumn: "n", as: Int.self)
                return (waiting ?? 0) > 0
            }
            let firstInserted = Flag()
            let first = Task {
                try await db.transaction { tx in
                    let inserted = try await ProductEventStore.insert(artifact("a1"), in: tx)
                    firstInserted.set()
                    try await eventually("the second transaction waits for the first") { try await waitingOnALock() }
                    return inserted
                }
            }
            try await eventually("the first transaction stored its milestone") { firstInserted.isSet }
            let second = Task { try await db.transaction { tx in try await ProductEventStore.insert(artifact("a2"), in: tx) } }
            let firstStored = try await finished(first)
            let secondStored = try await finished(second)
            #expect(firstStored && secondStored, "each transaction stored its own event")
            #expect(try await ProductTesting.names("u", in: db) == ["artifact_received", "artifact_received", "first_artifact_received"])
            #expect(try await ProductTesting.count("analytics_product_milestones", in: db) == 1)
        }
    }

    /// A redelivered completion stores nothing again, and a later completion does not reach the milestone twice.
    @Test(arguments: TestDatabases.engines)
    func redeliveryAndLaterEventsLeaveOneMilestone(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, clock in
            for (id, workout) in [("c1", "w1"), ("c1", "w1"), ("c2", "w2"), ("c2", "w2")] {
                try await ProductEventHandlersTests.deliver(
                    WorkoutCompleted(
                        userId: "u", workoutId: workout, sourceTemplateId: nil, sourceRoutineId: nil, completedAt: clock.now(),
                        durationMinutes: 30, exerciseCount: 1, setCount: 3),
                    id: id, to: module)
                clock.advance(by: 3600)
            }
            #expect(try await ProductTesting.names("u", in: db) == ["first_workout_completed", "workout_completed", "workout_completed"])
            let reached = try await module.milestones(userId: "u")
            #expect(reached == ["first_workout_completed": FakeWallClock().now()], "reached at the first completion")
        }
    }
}

/// A flag one task sets and another waits for.
final class Flag: Sendable {
    private let state = Mutex(false)

    func set() { state.withLock { $0 = true } }

    var isSet: Bool { state.withLock { $0 } }
}
