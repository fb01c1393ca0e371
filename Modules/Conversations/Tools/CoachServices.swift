import Contracts
import Foundation
import Platform

/// What the coach works with: the contracts of the other modules it reads and acts through, its own store, and
/// the platform's time, ids and metrics.
struct CoachServices: Sendable {
    let premium: any PremiumGate
    let catalog: any ExerciseCatalog
    let analytics: any TrainingAnalytics
    let plans: any PlanLibrary
    let workouts: any ActiveWorkoutControl
    let store: ConversationStore
    let clock: any WallClock
    let ids: any IDGenerator
    let metrics: ServerMetrics
    var database: Database { store.database }
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
