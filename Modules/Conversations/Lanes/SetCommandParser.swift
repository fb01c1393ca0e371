import Contracts
import Foundation

/// A set as the user reports it: reps, the weight in kg (nil: the set's planned weight, or none for bodyweight)
/// and the effort as reps in reserve.
struct SetEntry: Sendable, Equatable {
    var reps: Int
    var weightKg: Double?
    var rir: Int?
}

/// A fast-lane message: one of a few workout commands, understood with no model.
enum SetCommand: Sendable, Equatable {
    /// "done": the next set as planned.
    case done
    /// "next set": what the next set is.
    case next
    /// "skip": the next set is not done (it is removed from the workout).
    case skip
    /// "finished", "I'm done": the end of the workout, which the coach asks to confirm (a card) before it finishes it.
    case finish
    /// A set with its numbers.
    case log(SetEntry)
    /// "A x B" with bare numbers: which is the reps is decided against the set it is logged into (`resolved`).
    case pair(first: Double, second: Double, rir: Int?)

    /// The entry of a `pair` for a set planned at `targetReps`: the reps are the one number that can be a rep
    /// count (a whole number from 1 to 30); when both can, the one equal to the planned reps; otherwise the first
    /// ("8x100" is 8 reps at 100 kg, or at 100 lb for a user who reads pounds: the weight is in `unit`). Nil for
    /// the other commands.
    func resolved(targetReps: Int?, unit: WeightUnit = .kilograms) -> SetEntry? {
        guard case .pair(let first, let second, let rir) = self else {
            if case .log(let entry) = self { return entry }
            return nil
        }
        let firstIsReps = SetCommandParser.canBeReps(first)
        let secondIsReps = SetCommandParser.canBeReps(second)
        let repsFirst: Bool
        switch (firstIsReps, secondIsReps) {
        case (true, false): repsFirst = true
        case (false, true): repsFirst = false
        case (false, false): return nil
        case (true, true):
            if let targetReps, Double(targetReps) == second, Double(targetReps) != first { repsFirst = false } else { repsFirst = true }
        }
        let (reps, weight) = repsFirst ? (first, second) : (second, first)
        return SetEntry(reps: Int(reps), weightKg: SetCommandParser.kilograms(weight, factor: unit.kilograms(1)), rir: rir)
    }
}

/// The fast lane's grammar (docs/coach.md has it with examples). A message is a command only when every word of
/// it belongs to the grammar; anything else goes to the other lanes.
///
///     command  = done | next | skip | finish | [log-word] entry [effort]
///     done     = "done" | "set done" | "log it" | "same again" | "same"
///     finish   = "finished" | "i'm done" | "all done" | "done for today" | "finish (the) workout" | "end (the) workout" …
///     next     = "next" | "next set" | "what's next" | "whats next"
///     skip     = "skip" | "skip set" | "skip it" | "skip this set" | "skip this one"
///     entry    = reps [rep-word] ("@" | "at" | "with") weight [unit]      8 @ 100 · 8 reps at 100 kg
///              | weight unit ("x" | "for" | "of") reps [rep-word]          100kg x 8 · 100 kg for 8
///              | reps rep-word ("x" | "of") weight [unit]                  8 reps x 100
///              | weight ("for") reps [rep-word]                            100 for 8
///              | a ("x" | "*" | "times") b [unit]                          8x100 · 100 x 8 (a pair: see SetCommand.resolved)
///              | reps rep-word                                             12 reps (bodyweight, or the planned weight)
///     effort   = ["@" | "at"] ("rir" n | "rpe" n)                          rir 2 · @ rpe 8 (RIR = 10 − RPE)
///     unit     = kg | kgs | kilo | kilos | lb | lbs | pound | pounds       pounds are converted to kg
///     log-word = "log" | "logged" | "did" | "i did" | "just did"
///
/// A weight without a unit is in the user's unit (`WeightUnit`, from the account's `weight_format`): "8 @ 225" is
/// 225 lb (102.06 kg) for a user who reads pounds; a unit written out always wins. Weights are kept in kilograms
/// to the hundredth. Reps are whole numbers 0–100, weights 0–1000 kg, RIR 0–10, RPE 1–10; other numbers make it no
/// command.
enum SetCommandParser {
    static let kilogramsPerPound = WeightUnit.kilogramsPerPound

    static func canBeReps(_ value: Double) -> Bool { value == value.rounded() && (1...30).contains(value) }

    /// The command of a message, its bare weights read in `unit`; nil when the message is not one.
    static func parse(_ message: String, unit: WeightUnit = .kilograms) -> SetCommand? {
        guard message.count <= 80 else { return nil }
        var tokens = tokenize(message)
        while let last = tokens.last, [".", "!", ","].contains(last) { tokens.removeLast() }
        let phrase = tokens.joined(separator: " ")
        switch phrase {
        case "done", "set done", "log it", "same", "same again": return .done
        case "finished", "i'm done", "im done", "i am done", "all done", "done for today", "finish", "finish workout", "finish the workout",
            "end workout", "end the workout", "workout done", "workout finished", "finished the workout", "i'm finished", "im finished":
            return .finish
        case "next", "next set", "what's next", "whats next": return .next
        case "skip", "skip set", "skip it", "skip this set", "skip this one": return .skip
        default: break
        }
        // Leading words that only say "I did this".
        for prefix in [["i", "just", "did"], ["just", "did"], ["i", "did"], ["logged"], ["log"], ["did"]]
        where tokens.starts(with: prefix) {
            tokens.removeFirst(prefix.count)
            break
        }
        guard let (rest, rir) = effort(tokens) else { return nil }
        return entry(rest, bare: unit.kilograms(1)).flatMap { command in
            switch command {
            case .log(var entry):
                entry.rir = rir
                return .log(entry)
            case .pair(let first, let second, _): return .pair(first: first, second: second, rir: rir)
            default: return command
            }
        }
    }

    /// Splits into lower-case words, numbers and the signs `@`, `x`, `*`, `,`: "100kg×8" is `100 kg x 8`.
    static func tokenize(_ message: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var currentIsNumber = false
        func flush() {
            if !current.isEmpty { tokens.append(current) }
            current = ""
        }
        for character in message.lowercased() {
            if character.isNumber || (character == "." && currentIsNumber) {
                if !currentIsNumber { flush() }
                currentIsNumber = true
                current.append(character)
            } else if character.isLetter || character == "'" || character == "’" {
                if currentIsNumber { flush() }
                currentIsNumber = false
                current.append(character == "’" ? "'" : character)
            } else {
                flush()
                currentIsNumber = false
                if "@×*,!.-".contains(character) { tokens.append(character == "×" ? "x" : String(character)) }
            }
        }
        flush()
        return tokens
    }

    /// Takes "rir n" / "rpe n" (with an optional "@" or "at" before) off the end; nil when it is malformed.
    static func effort(_ tokens: [String]) -> ([String], Int?)? {
        guard let index = tokens.firstIndex(where: { $0 == "rir" || $0 == "rpe" }) else { return (tokens, nil) }
        guard index + 2 == tokens.count, let value = Double(tokens[index + 1]), value == value.rounded() else { return nil }
        var rest = Array(tokens[..<index])
        if let last = rest.last, last == "@" || last == "at" || last == "," { rest.removeLast() }
        if tokens[index] == "rir" {
            guard (0...10).contains(value) else { return nil }
            return (rest, Int(value))
        }
        guard (1...10).contains(value) else { return nil }
        return (rest, 10 - Int(value))
    }

    static let repWords: Set<String> = ["reps", "rep", "r"]
    static let kilograms: Set<String> = ["kg", "kgs", "kilo", "kilos"]
    static let pounds: Set<String> = ["lb", "lbs", "pound", "pounds"]

    /// The numbers of an entry, with what the words around them say; `bare` is the kilograms of one unit of a weight
    /// written without a unit.
    static func entry(_ tokens: [String], bare: Double = 1) -> SetCommand? {
        var items: [(value: Double, role: Role)] = []
        var separators: [String] = []
        var index = 0
        while index < tokens.count {
            guard let value = Double(tokens[index]), value.isFinite, value >= 0 else {
                separators.append(tokens[index])
                index += 1
                continue
            }
            var role = Role.bare
            if index + 1 < tokens.count {
                let next = tokens[index + 1]
                if repWords.contains(next) {
                    role = .reps
                    index += 1
                } else if kilograms.contains(next) {
                    role = .weight(factor: 1)
                    index += 1
                } else if pounds.contains(next) {
                    role = .weight(factor: kilogramsPerPound)
                    index += 1
                }
            }
            items.append((value, role))
            index += 1
        }
        let joiners: Set<String> = ["@", "at", "with", "x", "*", "times", "for", "of"]
        guard separators.allSatisfy(joiners.contains), separators.count == max(0, items.count - 1) else { return nil }
        switch items.count {
        case 1:
            guard case .reps = items[0].role else { return nil }
            return reps(items[0].value).map { .log(SetEntry(reps: $0, weightKg: nil, rir: nil)) }
        case 2:
            let (first, second, joiner) = (items[0], items[1], separators[0])
            switch (first.role, second.role) {
            case (.reps, .weight(let factor)): return log(reps: first.value, weight: second.value * factor)
            case (.weight(let factor), .reps): return log(reps: second.value, weight: first.value * factor)
            case (.reps, .bare): return log(reps: first.value, weight: second.value * bare)
            case (.bare, .reps): return log(reps: second.value, weight: first.value * bare)
            case (.weight(let factor), .bare): return log(reps: second.value, weight: first.value * factor)
            case (.bare, .weight(let factor)):
                return ["@", "at", "with", "x", "*", "times"].contains(joiner) ? log(reps: first.value, weight: second.value * factor) : nil
            case (.bare, .bare):
                switch joiner {
                case "@", "at", "with": return log(reps: first.value, weight: second.value * bare)
                case "for": return log(reps: second.value, weight: first.value * bare)
                case "x", "*", "times":
                    guard first.value <= 1000, second.value <= 1000 else { return nil }
                    let pair = SetCommand.pair(first: first.value, second: second.value, rir: nil)
                    return pair.resolved(targetReps: nil) == nil ? nil : pair
                default: return nil
                }
            default: return nil
            }
        default: return nil
        }
    }

    enum Role {
        case bare, reps
        case weight(factor: Double)
    }

    static func reps(_ value: Double) -> Int? {
        value == value.rounded() && (0...100).contains(value) ? Int(value) : nil
    }

    static func log(reps value: Double, weight: Double) -> SetCommand? {
        guard let reps = reps(value), weight <= 1000 else { return nil }
        return .log(SetEntry(reps: reps, weightKg: kilograms(weight, factor: 1), rir: nil))
    }

    /// `value × factor` kilograms, to the hundredth (as a weight is kept).
    static func kilograms(_ value: Double, factor: Double) -> Double { (value * factor * 100).rounded() / 100 }
}
