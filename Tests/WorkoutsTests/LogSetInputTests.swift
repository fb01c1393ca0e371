import Contracts
import Foundation
import Platform
import Testing

@testable import Workouts

/// `logSet`'s body read without JSONDecoder: whenever the fast reader answers, it answers what JSONDecoder
/// decodes; what it declines goes to JSONDecoder.
@Suite struct LogSetInputTests {
    static func fast(_ text: String) -> LogSetInput? {
        FlatJSONObject(Data(text.utf8)).flatMap(LogSetInput.init(flat:))
    }

    static func decoded(_ text: String) -> LogSetInput? {
        try? JSONCoding.makeDecoder().decode(LogSetInput.self, from: Data(text.utf8))
    }

    @Test func theUsualBodyTakesTheFastPath() throws {
        let body =
            #"{"workout_id":"w1","exercise_instance_id":"e1","set_id":"s1","weight_kg":82.5,"reps":8,"rir":2,"idempotency_key":"k-1"}"#
        let input = try #require(Self.fast(body))
        #expect(input == Self.decoded(body))
        #expect(input.weightKg == 82.5 && input.reps == 8 && input.rir == 2 && input.workoutId == "w1")
        let legacy = #"{"workoutId":"w1","exercise_instance_id":"e1","set_id":"s1","weight":80,"reps":5,"idempotency_key":"k"}"#
        #expect(Self.fast(legacy) == Self.decoded(legacy))
        #expect(Self.fast(legacy)?.weightKg == 80)
    }

    @Test func itDeclinesWhatItDoesNotKnowAndJSONDecoderStillDecidesIt() {
        for text in [
            #"{"workout_id":"w","exercise_instance_id":"e","set_id":"s","weight_kg":1,"reps":8.0,"idempotency_key":"k"}"#,
            #"{"workout_id":"w","exercise_instance_id":"e","set_id":"s","weight_kg":1,"reps":8,"idempotency_key":"k","x":{"a":1}}"#,
            #"{"workout_id":"w","workout_id":"v","exercise_instance_id":"e","set_id":"s","weight_kg":1,"reps":8,"idempotency_key":"k"}"#,
            #"{"workout_id":"w","exercise_instance_id":"e","set_id":"s","weight_kg":01,"reps":8,"idempotency_key":"k"}"#,
            #"{"workout_id":"\ud83d\ude00","exercise_instance_id":"e","set_id":"s","weight_kg":1,"reps":8,"idempotency_key":"k"}"#,
            #"{"workout_id":"w","exercise_instance_id":"e","set_id":"s","weight_kg":"1","reps":8,"idempotency_key":"k"}"#,
            #"{"workout_id":"w","exercise_instance_id":"e","set_id":"s","weight_kg":1,"reps":8,"idempotency_key":"k"} x"#,
            #"{"workout_id":"w","exercise_instance_id":"e","set_id":"s","weight_kg":1,"reps":99999999999999999999,"idempotency_key":"k"}"#,
            "{\"workout_id\":\"w\u{1}\",\"exercise_instance_id\":\"e\",\"set_id\":\"s\",\"weight_kg\":1,\"reps\":8,\"idempotency_key\":\"k\"}",
            "", "[]", "{}", "{\"a\":1,}",
        ] {
            #expect(Self.fast(text) == nil, "\(text)")
        }
    }

    /// A field and its alias with different values: the fast reader declines and JSONDecoder refuses, naming the
    /// field; with the same value both read it.
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
            #expect(Self.fast(text) == nil, "\(text)")
            do {
                _ = try JSONCoding.makeDecoder().decode(LogSetInput.self, from: Data(text.utf8))
                Issue.record("decoded \(text)")
            } catch let error as ServiceError {
                #expect(error.code == .invalidArgument && error.details["field"] == field, "\(error)")
            }
        }
        let agreeing =
            #"{"workout_id":"w","workoutId":"w","exercise_instance_id":"e","set_id":"s","weight_kg":2,"weight":2.0,"reps":8,"idempotency_key":"k"}"#
        let input = try #require(Self.fast(agreeing))
        #expect(input == Self.decoded(agreeing) && input.workoutId == "w" && input.weightKg == 2)
    }

    /// Random bodies: shuffled keys, spacing, escapes, unknown keys, nulls, every number form.
    @Test func randomBodiesDecodeAlike() {
        var generator = SystemRandomNumberGenerator()
        let strings = [#""w1""#, #""a\/b""#, #""\u00e9t\u00E9""#, #""tab\tnew\nline""#, #""quote\"back\\""#, #""Ünï 🏋️""#, #""""#]
        let numbers = ["0", "-0", "8", "-3", "1000", "82.5", "1e2", "1.5E+1", "2e-1", "0.1", "7.0"]
        let odd = ["null", "3", "true", "12345678901234567890", "1e400", "-", "1.", ".5", "01", "\"8\"", "{}", "[1]"]
        var accepted = 0
        for _ in 0..<5_000 {
            var fields: [(String, String)] = []
            func maybe(_ key: String, _ choices: [String], always: Bool = false) {
                guard always || Int.random(in: 0..<12, using: &generator) > 0 else { return }
                let pool = Int.random(in: 0..<15, using: &generator) == 0 ? odd : choices
                fields.append((key, pool.randomElement(using: &generator)!))
            }
            maybe(Bool.random(using: &generator) ? "workout_id" : "workoutId", strings, always: Bool.random(using: &generator))
            if Int.random(in: 0..<4, using: &generator) == 0 { maybe("workout_id", strings) }
            maybe("exercise_instance_id", strings)
            maybe("set_id", strings)
            maybe(Bool.random(using: &generator) ? "weight_kg" : "weight", numbers)
            if Int.random(in: 0..<4, using: &generator) == 0 { maybe("weight", numbers) }
            maybe("reps", numbers)
            maybe("rir", numbers)
            maybe("idempotency_key", strings)
            if Bool.random(using: &generator) { maybe("extra", strings + numbers + ["null", "true"]) }
            fields.shuffle(using: &generator)
            let space = [" ", "", "\n", "\t", "  "]
            let text =
                "{"
                + fields.map { key, value in
                    "\(space.randomElement(using: &generator)!)\"\(key)\"\(space.randomElement(using: &generator)!):\(space.randomElement(using: &generator)!)\(value)"
                }.joined(separator: ",") + "}"
            if let fast = Self.fast(text) {
                accepted += 1
                #expect(fast == Self.decoded(text), "\(text)")
            }
        }
        #expect(accepted > 100, "the fast path was taken \(accepted) times")
    }
}
