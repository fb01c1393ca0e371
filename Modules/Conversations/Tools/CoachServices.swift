import Contracts
import Foundation
import Logging
import Platform

/// What the coach works with: the contracts of the other modules it reads and acts through, its own store, and
/// the platform's time, ids and metrics.
struct CoachServices: Sendable {
    let premium: any PremiumGate
    let catalog: any ExerciseCatalog
    let analytics: any TrainingAnalytics
    let plans: any PlanLibrary
    let workouts: any ActiveWorkoutControl
    let events: any ProductEventSink
    let accounts: any AccountDirectory
    /// The training analyst's summaries, when the composition has the analyst (Recommendations).
    let analysis: (any TrainingAnalysisSummaries)?
    let store: ConversationStore
    /// What each user told the coach (`CoachMemory`).
    let memory: CoachMemoryStore
    let clock: any WallClock
    let ids: any IDGenerator
    let metrics: ServerMetrics
    var database: Database { store.database }
}

extension CoachServices {
    /// Records what the user did for product analytics (docs/analytics.md "Taxonomy"): best effort, since a chat must not
    /// fail because analytics could not be written; a failure is logged. `eventId` makes a retry a no-op.
    func track(_ name: String, userId: String, params: [String: ProductEventValue], eventId: String, logger: Logger) async {
        do {
            try await events.record(userId: userId, name: name, params: params, occurredAt: clock.now(), eventId: eventId)
        } catch {
            logger.warning("product event not recorded", metadata: ["event": .string(name), "error": .string("\(error)")])
        }
    }
}

extension CoachServices {
    /// The unit the user reads and types weights in (kilograms for an account that has none, or is gone).
    func weightUnit(userId: String) async throws -> WeightUnit {
        try await accounts.account(userId: userId)?.weightUnit ?? .kilograms
    }
}

extension CoachServices {
    /// The analyst's newest insight and today's brief as lines for workout mode's brief; none when the composition
    /// has no analyst or it has nothing yet. Best effort: a failure is logged and the brief goes without.
    func analysisBrief(userId: String, logger: Logger) async -> [String] {
        guard let analysis else { return [] }
        do {
            let summary = try await analysis.summary(userId: userId, sections: [.insights, .dailyBrief], date: nil, limit: 1)
            return (summary.insights.prefix(1).map { "Latest insight: \($0.headline)" })
                + (summary.dailyBrief.map { ["Today's brief: \($0.headline)"] } ?? [])
        } catch {
            logger.warning("analysis summary not read", metadata: ["error": .string("\(error)")])
            return []
        }
    }
}

extension JSONValue {
    /// A Codable value as JSON (as the API writes it: snake_case keys, RFC 3339 dates).
    init(encoding value: some Encodable) throws {
        self = try JSONCoding.makeDecoder().decode(JSONValue.self, from: JSONCoding.encode(value))
    }

    /// Decodes the JSON as `T`; a mismatch is `INVALID_ARGUMENT` naming the field.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try JSONCoding.makeDecoder().decode(T.self, from: JSONCoding.encode(self))
        } catch let error as DecodingError {
            throw ErrorMapper.decodingError(error)
        }
    }
}
