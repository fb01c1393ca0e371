/// Corrects a misspelt word to the nearest word of a vocabulary (the reader's word lists and the phrasing table's
/// training rows): "rotuine" is "routine", "sqaut" "squat", "dyas" "days".
///
/// Only words of letters alone, 4 to 20 of them, that the vocabulary lacks are corrected: to a word at most one edit
/// away (a letter added, dropped, changed, or two neighbours swapped), or two for words of 8 letters or more; a word of
/// 4 letters only by two neighbours swapped ("dyas"), as most 4-letter words are one letter from another. Among
/// equally near words the shortest, then the one listed first, wins, so the correction is the same on every run.
struct TypoCorrector: Sendable {
    private let known: Set<String>
    /// The vocabulary as Unicode scalars by length, in listing order.
    private let byLength: [Int: [(word: String, scalars: [UInt32])]]

    /// A corrector over the words, in order of preference (duplicates ignored).
    init(vocabulary: [String]) {
        var known = Set<String>()
        var byLength: [Int: [(word: String, scalars: [UInt32])]] = [:]
        for word in vocabulary where known.insert(word).inserted {
            let scalars = word.unicodeScalars.map(\.value)
            byLength[scalars.count, default: []].append((word, scalars))
        }
        self.known = known
        self.byLength = byLength
    }

    /// The word, or the vocabulary's nearest word when it is a misspelling of one.
    func corrected(_ word: String) -> String {
        guard !known.contains(word) else { return word }
        let scalars = word.unicodeScalars.map(\.value)
        guard (4...20).contains(scalars.count), word.allSatisfy(\.isLetter) else { return word }
        let limit = scalars.count >= 8 ? 2 : 1
        if scalars.count == 4 { return swappedNeighbour(of: scalars) ?? word }
        var best: (word: String, distance: Int)?
        for length in (scalars.count - limit)...(scalars.count + limit) {
            for candidate in byLength[length] ?? [] {
                let distance = Self.distance(scalars, candidate.scalars, limit: best.map { $0.distance - 1 } ?? limit)
                guard let distance else { continue }
                best = (candidate.word, distance)
            }
        }
        return best?.word ?? word
    }

    /// The vocabulary's first 4-letter word that is the word with two neighbouring letters swapped.
    private func swappedNeighbour(of scalars: [UInt32]) -> String? {
        for position in 0..<(scalars.count - 1) {
            var swapped = scalars
            swapped.swapAt(position, position + 1)
            if let found = byLength[4]?.first(where: { $0.scalars == swapped }) { return found.word }
        }
        return nil
    }

    /// The optimal-string-alignment distance between two words (insertions, deletions, substitutions and swaps of
    /// neighbours), or nil when it is above `limit`.
    static func distance(_ a: [UInt32], _ b: [UInt32], limit: Int) -> Int? {
        guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return nil }
            (before, previous, current) = (previous, current, before)
        }
        let result = previous[b.count]
        return result <= limit ? result : nil
    }
}
