import Contracts
import Foundation
import Platform
import Testing

@testable import Workouts

/// `logSet`'s body: the seed clients' legacy names read like the current ones.
@Suite struct LogSetInputTests {
    static func decoded(_ text: String) throws -> LogSetInput {
        try JSONCoding.makeDecoder().decode(LogSetInput.self, from: Data(text.utf8))
    }

    @Test func legacyNamesReadLikeTheCurrentOnes() throws {
        let body =
            #"{"workout_id":"w1","exercise_instance_id":"e1","set_id":"s1","weight_kg":82.5,"reps":8,"rir":2,"idempotency_key":"k-1"}"#
        let input = try Self.decoded(body)
        #expect(input.weightKg == 82.5 && input.reps == 8 && input.rir == 2 && input.workoutId == "w1")
        let legacy = try Self.decoded(
            #"{"workoutId":"w1","exercise_instance_id":"e1","set_id":"s1","weight":80,"reps":5,"idempotency_key":"k"}"#)
        #expect(legacy.workoutId == "w1" && legacy.weightKg == 80 && legacy.rir == nil)
    }

    /// A field and its alias with different values is refused, naming the field; with the same value both read it.
    @Test func aFieldAndItsAliasMustAgree() throws {
        for (text, field) in [
            (
                #"{"workout_id":"w","workoutId":"v","exercise_instance_id":"e","set_id":"s","weight_kg":1,"reps":8,"idempotency_key":"k"}"#,
                "workout_id"
            ),
            (
                #"{"workout_id":"w","exercise_instance_id":"e","set_id":"s","weight_kg":1,"weight":2,"reps":8,"idempotency_key":"k"}"#,
                "weight_kg"
            ),
        ] {
            do {
                _ = try Self.decoded(text)
                Issue.record("decoded \(text)")
            } catch let error as ServiceError {
                #expect(error.code == .invalidArgument && error.details["field"] == field, "\(error)")
            }
        }
        let input = try Self.decoded(
            #"{"workout_id":"w","workoutId":"w","exercise_instance_id":"e","set_id":"s","weight_kg":2,"weight":2.0,"reps":8,"idempotency_key":"k"}"#
        )
        #expect(input.workoutId == "w" && input.weightKg == 2)
    }
}
