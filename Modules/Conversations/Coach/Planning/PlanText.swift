import Foundation

/// A message as `PlanRequestReader` reads it: lower-case words and numbers, with number words written as digits.
///
/// Punctuation separates words ("upper/lower" is "upper lower", "4-day" is "4 day"), a number is split from a
/// word it touches ("3x" is "3 x", "45min" is "45 min"), a decimal point between digits is kept ("1.5"), and
/// "one" … "ten", "twenty" … "ninety" (with a unit: "forty five" is 45), "once", "twice" and "thrice" ("2 times")
/// become digits.
struct PlanText {
    /// The words and numbers, in order.
    let tokens: [String]
    /// The tokens joined with single spaces and padded with one on each side, so " phrase " finds whole words.
    private let padded: String

    init(_ text: String) {
        let characters = Array(text.lowercased())
        var spaced = ""
        for (index, character) in characters.enumerated() {
            let isDecimalPoint =
                character == "." && index > 0 && index + 1 < characters.count && characters[index - 1].isNumber
                && characters[index + 1].isNumber
            let kept: Character = character.isLetter || character.isNumber || isDecimalPoint ? character : " "
            if let last = spaced.last, last != " ", kept != " ", !isDecimalPoint, last != ".", last.isNumber != kept.isNumber {
                spaced.append(" ")
            }
            spaced.append(kept)
        }
        tokens = Self.digits(spaced.split(separator: " ").map(String.init))
        padded = " " + tokens.joined(separator: " ") + " "
    }

    /// Whether the text holds the phrase as whole words ("upper lower", "gym").
    func contains(_ phrase: String) -> Bool {
        padded.contains(" \(phrase) ")
    }

    /// Whether the text holds any of the phrases.
    func containsAny(_ phrases: [String]) -> Bool {
        phrases.contains(where: contains)
    }

    /// Where the first of the phrases starts, in characters of the normalised text; nil when none is there. Orders
    /// two mentions ("strength and size": strength first).
    func firstOffset(of phrases: [String]) -> Int? {
        phrases.compactMap { phrase in
            padded.range(of: " \(phrase) ").map { padded.distance(from: padded.startIndex, to: $0.lowerBound) }
        }.min()
    }

    /// The text with the phrases taken out, so that a longer phrase ("home gym") does not also count as a
    /// shorter one inside it ("gym").
    func removing(_ phrases: [String]) -> PlanText {
        var text = padded
        for phrase in phrases {
            while text.contains(" \(phrase) ") { text = text.replacingOccurrences(of: " \(phrase) ", with: " ") }
        }
        return PlanText(text)
    }

    /// The index of the first token that is the phrase's first word and starts the whole phrase; nil when absent.
    func tokenIndex(of phrase: String) -> Int? {
        let words = phrase.split(separator: " ").map(String.init)
        guard !words.isEmpty, tokens.count >= words.count else { return nil }
        return (0...(tokens.count - words.count)).first { start in Array(tokens[start..<(start + words.count)]) == words }
    }

    /// The number words and what they become.
    static let units = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9]
    static let small = ["ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15]
    static let tens = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    static let frequencies = ["once": "1", "twice": "2", "thrice": "3"]

    /// Number words as digits: "forty five" is "45", "twice" is "2 times".
    private static func digits(_ words: [String]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            if let ten = tens[word] {
                if index + 1 < words.count, let unit = units[words[index + 1]] {
                    result.append(String(ten + unit))
                    index += 2
                    continue
                }
                result.append(String(ten))
            } else if let number = units[word] ?? small[word] {
                result.append(String(number))
            } else if let times = frequencies[word] {
                result += [times, "times"]
            } else {
                result.append(word)
            }
            index += 1
        }
        return result
    }
}
