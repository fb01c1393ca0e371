import Contracts
import Foundation

/// An in-memory search index over the catalog: accent- and case-folded names, prefix and typo matching,
/// stable ranking. The catalog is small (hundreds to a few thousand entries), so a scan is well under a
/// millisecond and needs no external search engine.
struct CatalogIndex: Sendable {
    struct Entry: Sendable {
        let exercise: Exercise
        let words: [String]
        let folded: String
        let muscles: Set<String>
        let equipment: String?
        let category: String
    }

    let entries: [Entry]
    let byID: [String: Exercise]

    init(_ exercises: [Exercise]) {
        entries = exercises.map { exercise in
            let folded = Self.fold(exercise.name)
            return Entry(
                exercise: exercise, words: folded.split(separator: " ").map(String.init), folded: folded,
                muscles: Set((exercise.primaryMuscles + exercise.secondaryMuscles).map(Self.fold)),
                equipment: exercise.equipment.map(Self.fold), category: Self.fold(exercise.category))
        }
        byID = Dictionary(exercises.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Lower-cased, accents removed, punctuation turned into single spaces.
    static func fold(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var result = ""
        var lastWasSpace = true
        for character in folded {
            if character.isLetter || character.isNumber {
                result.append(character)
                lastWasSpace = false
            } else if !lastWasSpace {
                result.append(" ")
                lastWasSpace = true
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// All matches, best first; ties by name, then id.
    func matches(text: String?, muscle: String?, equipment: String?, category: String?) -> [Exercise] {
        let tokens = text.map { Self.fold($0).split(separator: " ").map(String.init) } ?? []
        let muscle = muscle.map(Self.fold)
        let equipment = equipment.map(Self.fold)
        let category = category.map(Self.fold)
        let phrase = tokens.joined(separator: " ")
        var scored: [(score: Int, entry: Entry)] = []
        for entry in entries {
            if let muscle, !entry.muscles.contains(muscle) { continue }
            if let equipment, entry.equipment != equipment { continue }
            if let category, entry.category != category { continue }
            var score = 0
            if !tokens.isEmpty {
                var matchedAll = true
                for token in tokens {
                    let best = entry.words.map { Self.match(token, $0) }.max() ?? 0
                    if best == 0 {
                        matchedAll = false
                        break
                    }
                    score += best
                }
                if !matchedAll { continue }
                if entry.folded == phrase { score += 20 } else if entry.folded.hasPrefix(phrase) { score += 8 }
                score -= max(0, entry.words.count - tokens.count)
            }
            scored.append((score, entry))
        }
        scored.sort { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            if lhs.entry.folded != rhs.entry.folded { return lhs.entry.folded < rhs.entry.folded }
            return lhs.entry.exercise.id < rhs.entry.exercise.id
        }
        return scored.map(\.entry.exercise)
    }

    /// How well a query token matches a name word: 6 exact, 4 prefix, 2 within a small edit distance of the
    /// word or of its prefix of the token's length, 0 not at all.
    static func match(_ token: String, _ word: String) -> Int {
        if token == word { return 6 }
        if word.hasPrefix(token) { return 4 }
        let tokenCount = token.count
        guard tokenCount >= 4 else { return 0 }
        let allowed = tokenCount >= 6 ? 2 : 1
        if abs(word.count - tokenCount) <= allowed, editDistance(token, word, limit: allowed) <= allowed { return 2 }
        if word.count > tokenCount {
            let prefix = String(word.prefix(tokenCount))
            if editDistance(token, prefix, limit: allowed) <= allowed { return 2 }
            let longer = String(word.prefix(tokenCount + 1))
            if editDistance(token, longer, limit: allowed) <= allowed { return 2 }
        }
        return 0
    }

    /// Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions), stopping early
    /// once every cell exceeds `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
