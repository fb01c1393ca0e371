/// Phrases of one or more words, each with a value, found in a message's words: the longest phrase starting at a
/// word wins ("bench press" over "bench").
struct PhraseTable<Value: Sendable>: Sendable {
    /// Phrases by their first word, longest first.
    private let byFirst: [String: [(words: [String], value: Value)]]

    /// A table of phrases written as words separated by single spaces; a phrase listed twice keeps its first value.
    init(_ entries: [(String, Value)]) {
        var byFirst: [String: [(words: [String], value: Value)]] = [:]
        var seen = Set<String>()
        for (phrase, value) in entries where seen.insert(phrase).inserted {
            let words = phrase.split(separator: " ").map(String.init)
            guard let first = words.first else { continue }
            byFirst[first, default: []].append((words, value))
        }
        self.byFirst = byFirst.mapValues { entries in
            entries.enumerated().sorted { ($0.element.words.count, $1.offset) > ($1.element.words.count, $0.offset) }.map(\.element)
        }
    }

    /// A table where every phrase has the same value.
    init(_ phrases: [String], value: Value) {
        self.init(phrases.map { ($0, value) })
    }

    /// The longest phrase that starts at `index` and lies on words `usable` allows: its length in words and value.
    func match(_ tokens: [String], at index: Int, usable: (Int) -> Bool = { _ in true }) -> (count: Int, value: Value)? {
        guard index < tokens.count, let entries = byFirst[tokens[index]] else { return nil }
        for entry in entries where index + entry.words.count <= tokens.count {
            let range = index..<(index + entry.words.count)
            if range.allSatisfy({ tokens[$0] == entry.words[$0 - index] && usable($0) }) {
                return (entry.words.count, entry.value)
            }
        }
        return nil
    }

    /// Every phrase in the words, left to right, none overlapping another.
    func matches(in tokens: [String], usable: (Int) -> Bool = { _ in true }) -> [(range: Range<Int>, value: Value)] {
        var found: [(range: Range<Int>, value: Value)] = []
        var index = 0
        while index < tokens.count {
            if let (count, value) = match(tokens, at: index, usable: usable) {
                found.append((index..<(index + count), value))
                index += count
            } else {
                index += 1
            }
        }
        return found
    }

    /// Every word the phrases use.
    var words: [String] {
        byFirst.keys.sorted().flatMap { key in byFirst[key, default: []].flatMap(\.words) }
    }
}
