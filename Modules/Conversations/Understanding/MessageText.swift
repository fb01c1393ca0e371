import Foundation

/// A message as `MessageUnderstanding` reads it: lower-case words and numbers, each with the clause it is in.
///
/// - Apostrophes go ("don't" is "dont", "what's" "whats"); other punctuation separates words, and `,` `.` `;` `:`
///   `!` `?` `(` `)` and line breaks also end a clause (a decimal point between digits stays: "62.5").
/// - Chat shorthand is spelled out ("2day" is "today", "pls" "please", "gimme" "give me", "w/o" "without").
/// - A number is split from a word it touches ("45min" is "45 min", "3x" "3 x", "5x5" "5 x 5"; not "1rm", "e1rm").
/// - Number words are digits ("four" is "4", "twice" is "2 times").
/// - A word the vocabulary lacks is corrected to the nearest one it has (`TypoCorrector`: "rotuine" is "routine").
///
/// Only the first `maxTokens` words are read, so a pasted essay costs no more than a message.
struct MessageText {
    static let maxTokens = 80

    /// The words, in order.
    let tokens: [String]
    /// Each word's clause number, counted from 0.
    let clauses: [Int]
    /// Whether the message holds a question mark.
    let asksQuestion: Bool

    init(_ text: String, corrector: TypoCorrector? = nil) {
        var raw: [(word: String, clause: Int)] = []
        var clause = 0
        var word = ""
        let characters = Array(Self.expandingSlashes(text.lowercased()))
        var asks = false
        func flush() {
            if !word.isEmpty { raw.append((word, clause)) }
            word = ""
        }
        for (index, character) in characters.enumerated() where raw.count <= Self.maxTokens {
            if character == "'" || character == "’" || character == "‘" || character == "`" { continue }
            let isDecimalPoint =
                character == "." && index > 0 && index + 1 < characters.count && characters[index - 1].isNumber
                && characters[index + 1].isNumber && !word.isEmpty
            if character.isLetter || character.isNumber || isDecimalPoint {
                word.append(character)
                continue
            }
            flush()
            if character == "?" { asks = true }
            if ",.;:!?()\n\r".contains(character) { clause += 1 }
        }
        flush()
        var tokens: [String] = []
        var clauses: [Int] = []
        for (word, clause) in raw {
            for piece in Self.pieces(of: word) {
                tokens.append(piece)
                clauses.append(clause)
            }
        }
        (tokens, clauses) = Self.numbers(tokens, clauses)
        tokens = Array(tokens.prefix(Self.maxTokens))
        self.tokens = corrector.map { tokens.map($0.corrected) } ?? tokens
        self.clauses = Array(clauses.prefix(Self.maxTokens))
        asksQuestion = asks
    }

    private init(tokens: [String], clauses: [Int], asksQuestion: Bool) {
        self.tokens = tokens
        self.clauses = clauses
        self.asksQuestion = asksQuestion
    }

    /// Words that call off what came before ("forget it", "never mind").
    static let cancelWords: Set<String> = [
        "forget", "nevermind", "nvm", "never", "scratch", "scrap", "cancel", "ignore", "stop", "actually",
    ]

    /// The message without a first clause that only calls off what came before: "forget it, how am I doing?" is read
    /// as "how am I doing?", so a new request after a question is that request. A message of one clause is kept.
    func droppingCalledOff() -> MessageText {
        guard let first = clauses.first, let end = clauses.firstIndex(where: { $0 != first }), end <= 4,
            tokens[..<end].contains(where: Self.cancelWords.contains)
        else { return self }
        return MessageText(tokens: Array(tokens[end...]), clauses: Array(clauses[end...]), asksQuestion: asksQuestion)
    }

    /// "w/o" and "w/" as words.
    static func expandingSlashes(_ text: String) -> String {
        text.replacingOccurrences(of: "w/o ", with: " without ").replacingOccurrences(of: "w/ ", with: " with ")
    }

    /// The words one written word stands for: its shorthand spelled out, or it split where digits meet letters.
    static func pieces(of word: String) -> [String] {
        if let spelled = shorthand[word] { return spelled.split(separator: " ").map(String.init) }
        if keptWhole.contains(word) { return [word] }
        var pieces: [String] = []
        var current = ""
        for character in word {
            if let last = current.last, last != ".", character != ".", last.isNumber != character.isNumber {
                pieces.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { pieces.append(current) }
        return pieces
    }

    /// Chat shorthand and what it says.
    static let shorthand: [String: String] = [
        "2day": "today", "2nite": "tonight", "tonite": "tonight", "2moro": "tomorrow", "2morrow": "tomorrow", "tmrw": "tomorrow",
        "tmr": "tomorrow", "tomoz": "tomorrow", "u": "you", "ur": "your", "ya": "you", "pls": "please", "plz": "please",
        "gimme": "give me", "wanna": "want to", "gonna": "going to", "lemme": "let me", "gotta": "got to", "wat": "what",
        "wut": "what", "wot": "what", "b4": "before", "bc": "because", "cuz": "because", "coz": "because", "rn": "right now",
        "sesh": "session", "thru": "through", "dunno": "do not know", "w": "with", "wo": "without",
    ]
    /// Words with digits that are one word.
    static let keptWhole: Set<String> = ["1rm", "e1rm", "3rm", "5rm", "531"]

    /// The number words and what they become.
    static let units = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9]
    static let small = ["ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15]
    static let tens = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    static let frequencies = ["once": "1", "twice": "2", "thrice": "3"]

    /// Number words as digits ("forty five" is 45, "twice" is "2 times"), each word keeping
    /// its clause.
    static func numbers(_ tokens: [String], _ clauses: [Int]) -> ([String], [Int]) {
        var outTokens: [String] = []
        var outClauses: [Int] = []
        func append(_ token: String, _ clause: Int) {
            outTokens.append(token)
            outClauses.append(clause)
        }
        var index = 0
        while index < tokens.count {
            let (token, clause) = (tokens[index], clauses[index])
            index += 1
            if let ten = Self.tens[token] {
                if index < tokens.count, clauses[index] == clause, let unit = Self.units[tokens[index]] {
                    append(String(ten + unit), clause)
                    index += 1
                } else {
                    append(String(ten), clause)
                }
            } else if let number = Self.units[token] ?? Self.small[token] {
                append(String(number), clause)
            } else if let times = Self.frequencies[token] {
                append(times, clause)
                append("times", clause)
            } else {
                append(token, clause)
            }
        }
        return (outTokens, outClauses)
    }
}
