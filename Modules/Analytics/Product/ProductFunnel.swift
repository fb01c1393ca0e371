import Contracts
import Foundation
import Platform
import SQLKit
import Synchronization

/// The app's activation funnel (docs/analytics.md "Funnel"): app open → signup → first conversation → first
/// artifact → first accepted plan. Counts the distinct users who reach each step, in order, with every step's event in [from, to).
///
/// A user reaches step k when they reached step k − 1 and their first step-k event in the range is not earlier
/// than their first step-(k − 1) event. The unit is the user: `trackEvents` takes a signed-in user's token, so every
/// event has one; opens from before sign-up count when the app sends them afterwards (with their own
/// `occurred_at` and `install_id`), and an install that never signs up is not counted.
public struct ProductFunnel: Sendable {
    /// One step of the report.
    public struct Step: Sendable, Equatable {
        public var name: String
        public var users: Int
        /// `users` over the previous step's (nil for the first step, or when the previous step has no one).
        public var fromPrevious: Double?
        /// `users` over the first step's (nil when the first step has no one).
        public var fromFirst: Double?
    }

    /// What makes each step, by event name; `acceptedPlan` narrows `artifact_action` to a plan kept.
    static let stepEvents: [(step: String, events: [String])] = [
        ("app_opened", ["app_opened"]),
        ("signup_completed", ["signup_completed"]),
        ("first_conversation", ["conversation_started", "first_message_sent"]),
        ("first_artifact", ["first_artifact_received"]),
        ("first_accepted_plan", ["artifact_action"]),
    ]
    /// An accepted plan: the user accepted, or saved as a routine, an artifact that is a plan.
    static let acceptActions: Set<String> = ["accept", "save_routine"]
    static let planArtifacts: Set<String> = ["session_plan", "workout_plan", "routine_summary"]

    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// The funnel over [from, to). Throws `INVALID_ARGUMENT` when `to` is not after `from`.
    ///
    /// The range's events of the steps are read as one stream, ordered by user, and folded a user at a time
    /// (`FunnelTally`): however long the range, only the user at hand is held, never the range's rows.
    public func report(from: Date, to: Date) async throws -> [Step] {
        guard to > from else { throw ServiceError.invalidArgument(field: "to", reason: "must be after from") }
        let names = Self.stepEvents.flatMap(\.events)
        let counts = try await database.readTransaction { sql in
            let tally = FunnelTally(steps: Self.stepEvents.count)
            try await sql.raw(
                """
                SELECT user_id, name, occurred_at, CASE WHEN name = 'artifact_action' THEN params END AS params
                FROM analytics_product_events
                WHERE name IN (\(binds: names)) AND occurred_at >= \(bind: from.millisecondsSince1970)
                    AND occurred_at < \(bind: to.millisecondsSince1970)
                ORDER BY user_id
                """
            ).run { row in tally.add(row) }
            return try tally.finish()
        }
        return counts.enumerated().map { index, users in
            Step(
                name: Self.stepEvents[index].step, users: users,
                fromPrevious: index == 0 || counts[index - 1] == 0 ? nil : Double(users) / Double(counts[index - 1]),
                fromFirst: counts[0] == 0 ? nil : Double(users) / Double(counts[0]))
        }
    }

    /// The step an event makes, or nil (an `artifact_action` that is no accepted plan).
    static func step(name: String, params: String?) throws -> Int? {
        guard let index = stepEvents.firstIndex(where: { $0.events.contains(name) }) else { return nil }
        guard name == "artifact_action" else { return index }
        let decoded = try JSONDecoder().decode([String: ProductEventValue].self, from: Data((params ?? "{}").utf8))
        guard case .string(let action)? = decoded["action"], acceptActions.contains(action),
            case .string(let artifact)? = decoded["artifact_type"], planArtifacts.contains(artifact)
        else { return nil }
        return index
    }
}

/// The funnel's counts, folded from the events of a range ordered by user: each user's first time at each step is
/// kept until the next user's first row, then the user is counted at every step reached in order (a step reached
/// when its first time is not earlier than the previous step's).
final class FunnelTally: Sendable {
    private struct State {
        var counts: [Int]
        var user: String?
        var firsts: [Int64?]
        var failure: (any Error)?
    }

    private let state: Mutex<State>

    init(steps: Int) {
        state = Mutex(State(counts: Array(repeating: 0, count: steps), user: nil, firsts: Array(repeating: nil, count: steps)))
    }

    /// One row of the stream (`user_id`, `name`, `occurred_at`, `params`); a row that does not decode is kept as
    /// the failure `finish` throws.
    func add(_ row: any SQLRow) {
        do {
            let user = try row.decode(column: "user_id", as: String.self)
            let step = try ProductFunnel.step(
                name: try row.decode(column: "name", as: String.self), params: try row.decode(column: "params", as: String?.self))
            add(user: user, step: step, time: try row.decode(column: "occurred_at", as: Int64.self))
        } catch {
            state.withLock { $0.failure = $0.failure ?? error }
        }
    }

    /// An event of `user` at `time` making `step` (nil: none). Rows of one user come together.
    func add(user: String, step: Int?, time: Int64) {
        state.withLock { state in
            if state.user != user {
                Self.count(&state)
                state.user = user
            }
            guard let step else { return }
            state.firsts[step] = min(state.firsts[step] ?? time, time)
        }
    }

    /// Users per step, once every row was added.
    func finish() throws -> [Int] {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            Self.count(&state)
            return state.counts
        }
    }

    private static func count(_ state: inout State) {
        defer { state.firsts = Array(repeating: nil, count: state.firsts.count) }
        var reachedAt: Int64 = .min
        for (step, first) in state.firsts.enumerated() {
            guard let first, first >= reachedAt else { return }
            state.counts[step] += 1
            reachedAt = first
        }
    }
}
