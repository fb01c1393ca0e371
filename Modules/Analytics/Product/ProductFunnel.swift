import Contracts
import Foundation
import Platform
import SQLKit

/// The activation funnel of seed 003: app open → signup → first conversation → first artifact → first accepted
/// plan. Counts the distinct users who reach each step, in order, with every step's event in [from, to).
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
    public func report(from: Date, to: Date) async throws -> [Step] {
        guard to > from else { throw ServiceError.invalidArgument(field: "to", reason: "must be after from") }
        let firsts = try await database.readTransaction { sql in
            var firsts: [[String: Int64]] = []
            for (_, events) in Self.stepEvents {
                firsts.append(try await Self.firstTimes(of: events, from: from, to: to, sql: sql))
            }
            return firsts
        }
        var reached: [String: Int64] = firsts[0]
        var counts = [reached.count]
        for step in firsts.dropFirst() {
            reached = reached.reduce(into: [:]) { next, user in
                if let time = step[user.key], time >= user.value { next[user.key] = time }
            }
            counts.append(reached.count)
        }
        return counts.enumerated().map { index, users in
            Step(
                name: Self.stepEvents[index].step, users: users,
                fromPrevious: index == 0 || counts[index - 1] == 0 ? nil : Double(users) / Double(counts[index - 1]),
                fromFirst: counts[0] == 0 ? nil : Double(users) / Double(counts[0]))
        }
    }

    /// Each user's first event of `names` in [from, to), in milliseconds.
    static func firstTimes(of names: [String], from: Date, to: Date, sql: any SQLDatabase) async throws -> [String: Int64] {
        let range: SQLQueryString = "occurred_at >= \(bind: from.millisecondsSince1970) AND occurred_at < \(bind: to.millisecondsSince1970)"
        var firsts: [String: Int64] = [:]
        if names == ["artifact_action"] {
            // The action and artifact are parameters: read and kept here (few rows per user).
            for row in try await sql.raw(
                "SELECT user_id, occurred_at, params FROM analytics_product_events WHERE name IN (\(binds: names)) AND \(range)"
            )
            .all() {
                let params = try JSONDecoder().decode(
                    [String: ProductEventValue].self, from: Data(try row.decode(column: "params", as: String.self).utf8))
                guard case .string(let action)? = params["action"], acceptActions.contains(action),
                    case .string(let artifact)? = params["artifact_type"], planArtifacts.contains(artifact)
                else { continue }
                let user = try row.decode(column: "user_id", as: String.self)
                let time = try row.decode(column: "occurred_at", as: Int64.self)
                firsts[user] = min(firsts[user] ?? time, time)
            }
            return firsts
        }
        for row in try await sql.raw(
            "SELECT user_id, MIN(occurred_at) AS first_at FROM analytics_product_events WHERE name IN (\(binds: names)) AND \(range) GROUP BY user_id"
        ).all() {
            firsts[try row.decode(column: "user_id", as: String.self)] = try row.decode(column: "first_at", as: Int64.self)
        }
        return firsts
    }
}
