import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Analytics

/// The activation funnel on a seeded week of users, each stopping at a different step.
@Suite struct ProductFunnelTests {
    /// 2026-01-01T00:00:00Z.
    static let weekStart = Date(timeIntervalSince1970: 1_767_225_600)

    /// Stores the scenario: `(user, event, params, day of the week, hour)`; milestones follow from the events.
    static func seed(_ module: ProductAnalytics, in db: Database) async throws {
        let plan: [String: ProductEventValue] = ["action": .string("accept"), "artifact_type": .string("session_plan")]
        let rows: [(String, String, [String: ProductEventValue], Double)] = [
            // u1 goes all the way.
            ("u1", "app_opened", [:], 0.1), ("u1", "signup_completed", ["provider": .string("email")], 0.2),
            ("u1", "conversation_started", ["entry_point": .string("home")], 0.3),
            ("u1", "artifact_received", ["artifact_type": .string("session_plan")], 1.0), ("u1", "artifact_action", plan, 1.1),
            ("u1", "app_opened", [:], 2.0),
            // u2 sends a message (no conversation_started): the first message counts as the first conversation.
            ("u2", "app_opened", [:], 0.5), ("u2", "signup_completed", ["provider": .string("apple.com")], 0.6),
            ("u2", "message_sent", ["message_length": .int(20)], 0.7),
            // u3 gets an artifact and dismisses it, and accepts something that is no plan.
            ("u3", "app_opened", [:], 1.0), ("u3", "signup_completed", ["provider": .string("email")], 1.1),
            ("u3", "conversation_started", ["entry_point": .string("home")], 1.2),
            ("u3", "artifact_received", ["artifact_type": .string("session_plan")], 1.3),
            ("u3", "artifact_action", ["action": .string("dismiss"), "artifact_type": .string("session_plan")], 1.4),
            ("u3", "artifact_action", ["action": .string("accept"), "artifact_type": .string("exercise_swap")], 1.5),
            // u4 only opens the app; u5 signs up with no open in the range; u6 signs up after it ends.
            ("u4", "app_opened", [:], 2.0),
            ("u5", "app_opened", [:], -1.0), ("u5", "signup_completed", ["provider": .string("email")], 0.5),
            ("u6", "app_opened", [:], 6.0), ("u6", "signup_completed", ["provider": .string("email")], 7.5),
            // u7's steps are out of order: signed up before the first open in the range.
            ("u7", "signup_completed", ["provider": .string("email")], 3.0), ("u7", "app_opened", [:], 3.5),
        ]
        try await db.transaction { tx in
            for (index, row) in rows.enumerated() {
                let (user, name, params, day) = row
                let time = weekStart.addingTimeInterval(day * 86_400)
                try await ProductEventStore.insert(
                    ProductEvent(
                        id: "seed-\(index)", userId: user, name: name, params: params, occurredAt: time, receivedAt: time,
                        installId: "install-\(user)", source: .client),
                    in: tx)
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func usersAreCountedAtEachStepReachedInOrder(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, _ in
            try await Self.seed(module, in: db)
            let steps = try await module.funnel.report(from: Self.weekStart, to: Self.weekStart.addingTimeInterval(7 * 86_400))
            #expect(steps.map(\.name) == ["app_opened", "signup_completed", "first_conversation", "first_artifact", "first_accepted_plan"])
            #expect(steps.map(\.users) == [6, 3, 3, 2, 1])
            let fromPrevious: [Double?] = [nil, 0.5, 1, 2.0 / 3, 0.5]
            let fromFirst: [Double?] = [1, 0.5, 0.5, 2.0 / 6, 1.0 / 6]
            #expect(steps.map(\.fromPrevious) == fromPrevious)
            #expect(steps.map(\.fromFirst) == fromFirst)
        }
    }

    /// Only events inside [from, to) count: a range that starts on day two loses the users who signed up on day one.
    @Test(arguments: TestDatabases.engines)
    func eventsOutsideTheRangeDoNotCount(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, _ in
            try await Self.seed(module, in: db)
            let day = 86_400.0
            let later = try await module.funnel.report(
                from: Self.weekStart.addingTimeInterval(day), to: Self.weekStart.addingTimeInterval(8 * day))
            #expect(later.map(\.users) == [5, 2, 1, 1, 0])
            #expect(later.last?.fromPrevious == 0)
            let empty = try await module.funnel.report(
                from: Self.weekStart.addingTimeInterval(-30 * day), to: Self.weekStart.addingTimeInterval(-20 * day))
            #expect(empty.map(\.users) == [0, 0, 0, 0, 0])
            #expect(empty.map(\.fromFirst) == [nil, nil, nil, nil, nil])
            await #expect(throws: ServiceError.self) {
                _ = try await module.funnel.report(from: Self.weekStart, to: Self.weekStart)
            }
        }
    }

    /// The report folds its stream of events a user at a time: a user's steps are judged on their own first times
    /// once their rows end, and nothing of them is kept afterwards.
    @Test func theTallyFoldsOneUserAtATime() throws {
        let tally = FunnelTally(steps: 3)
        // a: the first step-1 event comes before the first step-0 one, so a stops at step 0.
        tally.add(user: "a", step: 0, time: 10)
        tally.add(user: "a", step: 1, time: 5)
        tally.add(user: "a", step: 1, time: 20)
        tally.add(user: "b", step: 1, time: 1)
        tally.add(user: "b", step: 0, time: 0)
        tally.add(user: "b", step: 2, time: 3)
        tally.add(user: "c", step: nil, time: 0)
        #expect(try tally.finish() == [2, 1, 1])
    }

    /// Many users over one range: each is counted when the next one's rows begin, the last at the end of the stream.
    @Test(arguments: TestDatabases.engines)
    func manyUsersAreCountedFromOneStream(engine: SQLEngine) async throws {
        try await ProductTesting.with(engine) { db, module, _ in
            try await db.transaction { tx in
                for user in 0..<300 {
                    let time = Self.weekStart.addingTimeInterval(Double(user) * 60)
                    let names =
                        user % 3 == 0 ? ["app_opened", "signup_completed", "conversation_started"] : ["app_opened", "signup_completed"]
                    for (offset, name) in names.enumerated() {
                        let params: [String: ProductEventValue] =
                            switch name {
                            case "signup_completed": ["provider": .string("email")]
                            case "conversation_started": ["entry_point": .string("chat")]
                            default: [:]
                            }
                        let at = time.addingTimeInterval(Double(offset))
                        try await ProductEventStore.insert(
                            ProductEvent(
                                id: "e-\(user)-\(offset)", userId: "user-\(user)", name: name, params: params, occurredAt: at,
                                receivedAt: at,
                                source: .server),
                            in: tx)
                    }
                }
            }
            let steps = try await module.funnel.report(from: Self.weekStart, to: Self.weekStart.addingTimeInterval(86_400))
            #expect(steps.map(\.users) == [300, 300, 100, 0, 0])
        }
    }
}
