import Contracts
import TestSupport
import Testing

@testable import Conversations

/// The fast lane's grammar: the issue's examples, how "A x B" resolves, and properties over many generated
/// messages (every way of writing a set reads back the same numbers; anything with a word outside the grammar
/// is not a command).
@Suite struct SetCommandParserTests {
    @Test func theExamplesRead() {
        let log = { (reps: Int, weight: Double?, rir: Int?) in SetCommand.log(SetEntry(reps: reps, weightKg: weight, rir: rir)) }
        #expect(SetCommandParser.parse("done") == .done)
        #expect(SetCommandParser.parse("Done!") == .done)
        #expect(SetCommandParser.parse("next set") == .next)
        #expect(SetCommandParser.parse("Skip") == .skip && SetCommandParser.parse("skip this set") == .skip)
        #expect(SetCommandParser.parse("8 @ 100") == log(8, 100, nil))
        #expect(SetCommandParser.parse("8 reps at 100 kg") == log(8, 100, nil))
        #expect(SetCommandParser.parse("100kg x 8") == log(8, 100, nil))
        #expect(SetCommandParser.parse("log 5 at 80 rir 2") == log(5, 80, 2))
        #expect(SetCommandParser.parse("8 @ 100 @ rpe 8") == log(8, 100, 2))
        #expect(SetCommandParser.parse("12 reps") == log(12, nil, nil))
        #expect(SetCommandParser.parse("225 lbs for 5") == log(5, 102.06, nil))
        #expect(SetCommandParser.parse("8x100") == .pair(first: 8, second: 100, rir: nil))
        #expect(SetCommandParser.parse("8×100") == .pair(first: 8, second: 100, rir: nil))
    }

    @Test func aBarePairResolvesByWhatCanBeReps() {
        // One side cannot be a rep count: it is the weight.
        #expect(SetCommand.pair(first: 100, second: 8, rir: nil).resolved(targetReps: nil) == SetEntry(reps: 8, weightKg: 100, rir: nil))
        #expect(SetCommand.pair(first: 8, second: 100, rir: nil).resolved(targetReps: nil) == SetEntry(reps: 8, weightKg: 100, rir: nil))
        #expect(SetCommand.pair(first: 8, second: 62.5, rir: 1).resolved(targetReps: 8) == SetEntry(reps: 8, weightKg: 62.5, rir: 1))
        // Both can: the planned reps decide, else the first is the reps.
        #expect(SetCommand.pair(first: 20, second: 10, rir: nil).resolved(targetReps: 10) == SetEntry(reps: 10, weightKg: 20, rir: nil))
        #expect(SetCommand.pair(first: 20, second: 10, rir: nil).resolved(targetReps: 12) == SetEntry(reps: 20, weightKg: 10, rir: nil))
        #expect(SetCommand.pair(first: 12, second: 12, rir: nil).resolved(targetReps: 12) == SetEntry(reps: 12, weightKg: 12, rir: nil))
        // Neither can (no whole number up to 30): no command.
        #expect(SetCommandParser.parse("100 x 80") == nil)
        #expect(SetCommandParser.parse("8.5 x 100") == nil)
    }

    @Test func aBareWeightIsInTheUsersUnitAndAWrittenUnitWins() {
        let log = { (reps: Int, weight: Double?) in SetCommand.log(SetEntry(reps: reps, weightKg: weight, rir: nil)) }
        #expect(SetCommandParser.parse("8 @ 225", unit: .pounds) == log(8, 102.06))
        #expect(SetCommandParser.parse("8 @ 135", unit: .pounds) == log(8, 61.23))
        #expect(SetCommandParser.parse("135 for 8", unit: .pounds) == log(8, 61.23))
        #expect(SetCommandParser.parse("8 reps x 135", unit: .pounds) == log(8, 61.23))
        #expect(SetCommandParser.parse("8 @ 100 kg", unit: .pounds) == log(8, 100))
        #expect(SetCommandParser.parse("100kg x 8", unit: .pounds) == log(8, 100))
        #expect(SetCommandParser.parse("8 @ 225 lb", unit: .pounds) == log(8, 102.06))
        #expect(SetCommandParser.parse("8 @ 225 lb", unit: .kilograms) == log(8, 102.06))
        #expect(SetCommandParser.parse("8 @ 225", unit: .kilograms) == log(8, 225))
        #expect(SetCommandParser.parse("12 reps", unit: .pounds) == log(12, nil))
        // A bare pair is resolved in the user's unit too.
        #expect(
            SetCommand.pair(first: 8, second: 135, rir: nil).resolved(targetReps: nil, unit: .pounds) == SetEntry(reps: 8, weightKg: 61.23))
        #expect(
            SetCommand.pair(first: 135, second: 8, rir: 2).resolved(targetReps: 8, unit: .pounds)
                == SetEntry(reps: 8, weightKg: 61.23, rir: 2))
        // 2,000 lb is more than 1,000 kg's cap is not: the cap is in kilograms whatever was typed.
        #expect(SetCommandParser.parse("1 @ 2000", unit: .pounds) == log(1, 907.18))
        #expect(SetCommandParser.parse("1 @ 2300", unit: .pounds) == nil)
    }

    /// A pound user's sets, typed every way in pounds (0–700 lb in half pounds), are stored in kilograms to the
    /// hundredth and read back as the pounds typed.
    @Test func aPoundUsersSetsReadBackAsTyped() {
        var random = SeededRandomNumberGenerator(seed: 41)
        for _ in 0..<3000 {
            let reps = Int.random(in: 1...30, using: &random)
            let pounds = Double(Int.random(in: 0...1400, using: &random)) / 2
            let w = pounds == pounds.rounded() ? "\(Int(pounds))" : "\(pounds)"
            let form = ["\(reps) @ \(w)", "\(reps) reps at \(w)", "\(w) for \(reps)", "\(reps) @ \(w) lbs", "\(w) lb x \(reps)"]
                .randomElement(using: &random)!
            guard case .log(let entry) = SetCommandParser.parse(form, unit: .pounds), let kilograms = entry.weightKg else {
                Issue.record("\(form) is a set")
                continue
            }
            #expect(entry.reps == reps && kilograms == (pounds * WeightUnit.kilogramsPerPound * 100).rounded() / 100, "\(form)")
            #expect(WeightUnit.pounds.text(kilograms: kilograms) == "\(w) lb", "\(form) reads back")
        }
    }

    @Test func otherMessagesAreNotCommands() {
        for message in [
            "how is my bench going?", "hello", "8", "done with bench, what next?", "I did 8 reps at 100 kg and it felt heavy", "100",
            "log", "rir 2", "8 @ 100 rir", "8 @ 100 rir 11", "8 @ 100 rpe 0", "-8 @ 100", "8 @ 2000", "8 @ 100 @ 100", "8 bananas at 100",
            String(repeating: "8 @ 100 ", count: 20),
        ] {
            #expect(SetCommandParser.parse(message) == nil, "\(message)")
        }
    }

    /// Every way of writing a set reads back its numbers: reps 1–30, weights 0–300 kg in 0.5 steps, with or
    /// without RIR, in kg or pounds.
    @Test func everyFormReadsBackItsNumbers() {
        var random = SeededRandomNumberGenerator(seed: 37)
        for _ in 0..<5000 {
            let reps = Int.random(in: 1...30, using: &random)
            let weight = Double(Int.random(in: 0...600, using: &random)) / 2
            let rir = Bool.random(using: &random) ? Int.random(in: 0...5, using: &random) : nil
            let w = weight == weight.rounded() ? "\(Int(weight))" : "\(weight)"
            let forms = [
                "\(reps) @ \(w)", "\(reps)@\(w)", "\(reps) reps at \(w) kg", "\(w)kg x \(reps)", "\(w) kg for \(reps) reps",
                "log \(reps) at \(w)", "\(reps) reps x \(w)", "I did \(reps) @ \(w)kg", "\(w) for \(reps)",
            ]
            let form = forms.randomElement(using: &random)!
            let message = rir.map { "\(form) rir \($0)" } ?? form
            #expect(SetCommandParser.parse(message) == .log(SetEntry(reps: reps, weightKg: weight, rir: rir)), "\(message)")
            // In any letter case, and with pounds converted.
            #expect(SetCommandParser.parse(message.uppercased()) == SetCommandParser.parse(message))
            let pounds = SetCommandParser.parse("\(reps) @ \(w) lbs")
            #expect(
                pounds
                    == .log(SetEntry(reps: reps, weightKg: (weight * SetCommandParser.kilogramsPerPound * 100).rounded() / 100, rir: nil)))
            // A bare pair resolves to the same set whichever way round it is written, when the weight cannot be reps.
            if weight > 30 || weight != weight.rounded() {
                let pair = SetCommandParser.parse("\(w) x \(reps)")?.resolved(targetReps: nil)
                #expect(pair == SetEntry(reps: reps, weightKg: weight, rir: nil), "\(w) x \(reps)")
                #expect(SetCommandParser.parse("\(reps)x\(w)")?.resolved(targetReps: nil) == pair)
            }
        }
    }

    /// Random text never crashes the parser, and a message with a word outside the grammar is never a command.
    @Test func randomTextIsSafe() {
        var random = SeededRandomNumberGenerator(seed: 11)
        let pieces = [
            "8", "100", "@", "x", "kg", "reps", "rir", "2", "at", "for", "log", "banana", "done", " ", ".", "-", "1e9", "×", "lbs",
        ]
        for _ in 0..<5000 {
            let message = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined(
                separator: " ")
            let command = SetCommandParser.parse(message)
            if message.contains("banana") || message.contains("1e9") { #expect(command == nil, "\(message)") }
        }
    }
}
