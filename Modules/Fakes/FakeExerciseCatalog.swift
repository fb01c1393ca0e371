import Contracts
import Foundation

/// A catalog over a fixed list, with the contract's matching: words by prefix or with a small typo (edit
/// distance 1 for 4–5 letters, 2 from 6, a swap of neighbours one edit), case, accents and punctuation aside. Ranks by match quality (exact
/// word, then prefix, then typo), then fewer words beyond the query's, then by folded name and id; the live
/// catalog's finer points (joined words, whole-name bonuses) are left out.
public struct FakeExerciseCatalog: ExerciseCatalog {
    let exercises: [Exercise]

    public init(_ exercises: [Exercise]) {
        self.exercises = exercises
    }

    static func fold(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// How well a query word matches a name word: 3 the same, 2 a prefix of it, 1 within a typo of it (or of
    /// its start), 0 not at all.
    static func match(_ token: String, _ word: String) -> Int {
        if token == word { return 3 }
        if word.hasPrefix(token) { return 2 }
        let letters = Array(token)
        let allowed = letters.count >= 6 ? 2 : letters.count >= 4 ? 1 : 0
        guard allowed > 0 else { return 0 }
        let target = Array(word)
        let shortest = max(1, letters.count - allowed)
        let longest = min(target.count, letters.count + allowed)
        guard shortest <= longest else { return 0 }
        return (shortest...longest).contains { distance(letters, target[..<$0]) <= allowed } ? 1 : 0
    }

    /// Edits from one word to the other: a letter added, dropped or changed, or two neighbours swapped.
    static func distance(_ a: [Character], _ b: ArraySlice<Character>) -> Int {
        let b = Array(b)
        var table = [Array(0...b.count)]
        for i in stride(from: 1, through: a.count, by: 1) {
            var row = [i]
            for j in stride(from: 1, through: b.count, by: 1) {
                var cost = min(table[i - 1][j] + 1, row[j - 1] + 1, table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cost = min(cost, table[i - 2][j - 2] + 1) }
                row.append(cost)
            }
            table.append(row)
        }
        return table[a.count][b.count]
    }

    public func search(_ query: ExerciseQuery) async throws -> ExercisePage {
        guard (1...100).contains(query.limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
        // As live: the text at most 200 characters (a name's most), a filter at most 100.
        if let text = query.text, text.count > 200 {
            throw ServiceError.invalidArgument(field: "query", reason: "must be at most 200 characters")
        }
        for (field, value) in [("muscle", query.muscle), ("equipment", query.equipment), ("category", query.category)]
        where (value?.count ?? 0) > 100 {
            throw ServiceError.invalidArgument(field: field, reason: "must be at most 100 characters")
        }
        let tokens = query.text.map(Self.fold) ?? []
        // Scoped by the search as run, so spellings of one search ("Curl!", "curl") take each other's cursors.
        let scope = [query.text, query.muscle, query.equipment, query.category].map { ($0.map(Self.fold) ?? []).joined(separator: " ") }
            .joined(separator: "|")
        var offset = 0
        if let cursor = query.cursor, !cursor.isEmpty {
            let parts = cursor.split(separator: "#", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1] == scope, let value = Int(parts[0]), value >= 0 else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this search")
            }
            offset = value
        }
        // Filters compare as the live catalog does: case, accents and punctuation aside ("Lower_Back" is "lower back").
        let term = { (text: String?) in text.map { Self.fold($0).joined(separator: " ") } }
        let matches = exercises.compactMap { exercise -> (score: Int, extra: Int, name: String, exercise: Exercise)? in
            let words = Self.fold(exercise.name)
            let scores = tokens.map { token in words.map { Self.match(token, $0) }.max() ?? 0 }
            guard !scores.contains(0) else { return nil }
            if let muscle = term(query.muscle) {
                let asked = Set(MuscleGroups.muscles(for: muscle).map { term($0) })
                if asked.isDisjoint(with: (exercise.primaryMuscles + exercise.secondaryMuscles).map { term($0) }) { return nil }
            }
            if let equipment = term(query.equipment), term(exercise.equipment) != equipment { return nil }
            if let category = term(query.category), term(exercise.category) != category { return nil }
            return (scores.reduce(0, +), max(0, words.count - tokens.count), words.joined(separator: " "), exercise)
        }.sorted { lhs, rhs in
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            if lhs.extra != rhs.extra { return lhs.extra < rhs.extra }
            return (lhs.name, lhs.exercise.id) < (rhs.name, rhs.exercise.id)
        }.map(\.exercise)
        let page = Array(matches.dropFirst(offset).prefix(query.limit))
        let next = offset + page.count < matches.count ? "\(offset + page.count)#\(scope)" : nil
        return ExercisePage(items: page, nextCursor: next)
    }

    public func exercise(id: String) async throws -> Exercise? {
        exercises.first { $0.id == id }
    }
}
