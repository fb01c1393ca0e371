import Contracts
import Foundation
import Platform
import TestSupport
import Testing

/// A request field its schema does not list is refused, at every depth, naming it (`KnownFields`).
@Suite struct KnownFieldsTests {
    static let template = Schema.object(
        [
            "name": Schema.string,
            "exercises": Schema.array(
                Schema.object(
                    [
                        "exercise_id": Schema.string,
                        "sets": Schema.array(Schema.object(["target_reps": Schema.integer, "target_weight_kg": Schema.number])),
                    ], required: ["exercise_id"])),
            "workout_id": Schema.string,
            "params": Schema.freeform,
            "ops": Schema.array([
                "oneOf": [
                    Schema.object(["op": Schema.enumeration(["add"]), "exercise_id": Schema.string]),
                    Schema.object(["op": Schema.enumeration(["remove"]), "set_id": Schema.string]),
                ]
            ]),
        ], required: ["name"], aliases: ["workout_id": "workoutId"])

    static func refusal(_ json: String, schema: JSONValue = template) -> String? {
        do {
            try KnownFields(schema: schema).check(Data(json.utf8))
            return nil
        } catch let error as ServiceError {
            #expect(error.code == .invalidArgument && error.details["reason"] == "unknown field")
            return error.details["field"]
        } catch {
            return "\(error)"
        }
    }

    @Test func anUnknownFieldIsNamedWhereverItIs() {
        #expect(Self.refusal(#"{"name": "x", "nmae": "y"}"#) == "nmae")
        #expect(
            Self.refusal(#"{"name": "x", "exercises": [{"exercise_id": "a", "sets": [{"target_reps": 5}, {"weight_kg": 60}]}]}"#)
                == "exercises[0].sets[1].weight_kg")
        #expect(
            Self.refusal(#"{"ops": [{"op": "add", "exercise_id": "a"}, {"op": "remove", "set_id": "s", "extra": 1}]}"#) == "ops[1].extra")
        #expect(Self.refusal(#"{"na\u006de": "x", "\u0062ad": 1}"#) == "bad", "escaped keys read as the decoder reads them")
        #expect(Self.refusal(#"{"exercises": [{"exercise_id": "a", "user_id": "u"}]}"#) == "exercises[0].user_id")
    }

    @Test func knownFieldsAliasesFreeformObjectsAndTheIgnoredUserIdPass() {
        #expect(Self.refusal(#"{"name": "x", "workoutId": "w", "userId": "u", "user_id": null}"#) == nil)
        #expect(Self.refusal(#"{"name": "x", "params": {"anything": {"nested": [1, {"at": "all"}]}}}"#) == nil)
        #expect(Self.refusal(#"{"ops": [{"op": "remove", "set_id": "s"}, {"op": "add", "exercise_id": "e"}], "exercises": []}"#) == nil)
        #expect(Self.refusal(#"{"name": "x", "exercises": null, "params": null}"#) == nil)
        #expect(Self.refusal(#"{"anything": 1}"#, schema: Schema.any) == nil)
        #expect(Self.refusal(#"{"anything": 1}"#, schema: Schema.empty) == "anything", "an endpoint that takes nothing takes no field")
    }

    /// The ignored `userId` / `user_id` are strings, as the document says: anything else is refused.
    @Test func theIgnoredUserIdIsAString() {
        for body in [#"{"name": "x", "userId": 5}"#, #"{"name": "x", "user_id": {"a": [1]}}"#] {
            do {
                try KnownFields(schema: Self.template).check(Data(body.utf8))
                Issue.record("took \(body)")
            } catch let error as ServiceError {
                #expect(error.details["reason"] == "expected string", "\(body)")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    /// Text that is not JSON is left to the decoder, whose error says what is wrong; generated text never traps.
    @Test func malformedBodiesAreLeftToTheDecoder() {
        for text in [#"{"name": "x", "#, #"{"name" "x"}"#, #"{"nmae": "unterminated"#, "{", "[", #"{"name":}"#, #"{"\"#] {
            #expect(Self.refusal(text) == nil || Self.refusal(text) == "nmae", "\(text)")
        }
        var random = SeededRandomNumberGenerator(seed: 4809)
        let body = #"{"name": "x", "exercises": [{"exercise_id": "a", "sets": [{"target_reps": 5}]}], "params": {"k": [1, 2]}}"#
        for _ in 0..<5000 { _ = Self.refusal(HostileText.mutate(body, using: &random)) }
    }
}
