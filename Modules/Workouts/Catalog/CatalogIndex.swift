import Contracts
import Foundation
import Platform

/// An in-memory search index over the catalog: accent- and case-folded names, prefix and typo matching,
/// stable ranking. The catalog is small (hundreds to a few thousand entries), so a scan is well under a
/// millisecond and needs no external search engine.
struct CatalogIndex: Sendable {
    struct Entry: Sendable {
        let exercise: Exercise
        /// The exercise as the API sends it, encoded once: a search answers up to 100 of them, and encoding
        /// them on every request cost more than the search itself.
        let json: [UInt8]
        /// The folded name's words as Unicode scalar values: typo tolerance counts letters, not bytes.
        let words: [[UInt32]]
        /// The name run together from each word on (`words[i...]` without spaces), for queries that join or split
        /// the name's words otherwise ("situp" for "Sit-Up", "pull up" for "Pullups").
        let runs: [[UInt32]]
        let folded: String
        let muscles: Set<String>
        let equipment: String?
        let category: String
        /// Quality points its matches gain for how commonly it is done (`StapleExercises`).
        let boost: Int
    }

    let entries: [Entry]
    let byID: [String: Exercise]
    /// Each exercise's API JSON by id.
    let jsonByID: [String: [UInt8]]
    /// Each exercise's position in `entries` by id (an alias names its exercise by id).
    let positionByID: [String: Int]

    init(_ exercises: [Exercise]) throws {
        // In tie order (folded name, then id), so ranking compares positions instead of strings.
        entries = try exercises.map { exercise in
            let folded = Self.fold(exercise.name)
            let words = Self.words(folded)
            return Entry(
                exercise: exercise, json: try JSONCoding.bytes(exercise), words: words,
                runs: words.indices.map { Array(words[$0...].joined()) }, folded: folded,
                muscles: Set((exercise.primaryMuscles + exercise.secondaryMuscles).map(Self.fold)),
                equipment: exercise.equipment.map(Self.fold), category: Self.fold(exercise.category),
                boost: StapleExercises.boost(id: exercise.id))
        }.sorted { ($0.folded, $0.exercise.id) < ($1.folded, $1.exercise.id) }
        byID = Dictionary(exercises.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        jsonByID = Dictionary(entries.map { ($0.exercise.id, $0.json) }, uniquingKeysWith: { first, _ in first })
        positionByID = Dictionary(entries.enumerated().map { ($1.exercise.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The words of a folded text, as Unicode scalar values.
    static func words(_ folded: String) -> [[UInt32]] {
        folded.split(separator: " ").map { $0.unicodeScalars.map(\.value) }
    }

    /// Lower-cased, accents removed, punctuation turned into single spaces.
    static func fold(_ text: String) -> String {
        let folded = text.folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
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

    /// Where a match stands in the ranking: higher score first, then by folded name, then by id. A total order
    /// (ids are unique), so a page can resume right after the last match shown, whatever changed meanwhile.
    struct Rank: Comparable, Sendable {
        let score: Int
        let folded: String
        let id: String

        static func < (lhs: Rank, rhs: Rank) -> Bool {
            if lhs.score != rhs.score { return lhs.score > rhs.score }
            if lhs.folded != rhs.folded { return lhs.folded < rhs.folded }
            return lhs.id < rhs.id
        }

        /// As a cursor holds it (a folded name has no `|`; an id may, so it comes last).
        var position: String { "\(score)|\(folded)|\(id)" }

        init(score: Int, folded: String, id: String) {
            self.score = score
            self.folded = folded
            self.id = id
        }

        init?(position: String) {
            let parts = position.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let score = Int(parts[0]), !parts[2].isEmpty else { return nil }
            self.init(score: score, folded: String(parts[1]), id: String(parts[2]))
        }
    }

    /// A match as results are kept (8 bytes, so a cache of many searches over the whole catalog stays small):
    /// its score and its entry, whose position is its place among equal scores.
    struct Hit: Sendable, Equatable {
        let score: Int32
        let entry: Int32
    }

    func rank(of hit: Hit) -> Rank {
        let entry = entries[Int(hit.entry)]
        return Rank(score: Int(hit.score), folded: entry.folded, id: entry.exercise.id)
    }

    /// All matches, best first; ties by name, then id.
    func matches(text: String?, muscle: String?, equipment: String?, category: String?) -> [Exercise] {
        hits(text: text, muscle: muscle, equipment: equipment, category: category).map { entries[Int($0.entry)].exercise }
    }

    /// How much a match's quality outweighs its length: a name's extra words (beyond the query's) cost a point
    /// each, up to one less than this, so a shorter name comes first only among matches of the same quality.
    static let qualityWeight = 100

    /// All matches in rank order. A match's quality is the sum of its query words' matches (6 exact, 4 prefix,
    /// 2 typo) plus 20 when the name is the query, 8 when it starts with it; quality decides, then fewer extra
    /// words, then the name and id. (An exact word in a long name ranks above a typo in a short one: "back"
    /// finds "... Behind The Back Wrist Curl" before "Hack Squat".)
    ///
    /// Gym shorthand counts as the words it stands for (`shorthand`).
    ///
    /// A name whose words do not all match is tried once more with spaces set aside: the query run together
    /// against the name run together from one of its words on, matched as one word (from 4 letters, the first
    /// letter as typed). "situp" finds "Sit-Up", "benchpress" "Barbell Bench Press", "pull up" "Pullups". Such a
    /// match scores as a one-word match (the name bonuses compare the name run together with the query), so the
    /// exact name word by word still ranks above it; a query that spells whole words of the name run together
    /// ("benchpress" for "... Bench Press ...") matches them exactly, as the words typed apart would.
    ///
    /// The commonness prior: a match none of whose words is a typo gains its exercise's boost (`StapleExercises`),
    /// so "squat" answers "Barbell Squat" before "Squat Jerk". A query that is an alias (`ExerciseAliases`, such as
    /// "Overhead Press (Barbell)") puts the exercise it names first, above anything its words could score, whether
    /// or not its words match.
    func hits(text: String?, muscle: String?, equipment: String?, category: String?) -> [Hit] {
        let phrase = text.map(Self.fold) ?? ""
        let tokens = Self.words(phrase)
        let spelledOut = tokens.map { Self.shorthandWords[$0] }
        let joined = Array(tokens.joined())
        // A group ("back") is any of its muscles (`MuscleGroups`).
        let muscles = muscle.map { Set(MuscleGroups.muscles(for: $0).map(Self.fold)) }
        let equipment = equipment.map(Self.fold)
        let category = category.map(Self.fold)
        let aliased = tokens.isEmpty ? nil : ExerciseAliases.exerciseId(forFolded: phrase).flatMap { positionByID[$0] }
        // Above the most any query of these words can score: every word exact, the whole name, the largest boost.
        let aliasScore = (6 * tokens.count + 20 + StapleExercises.maxBoost + 1) * Self.qualityWeight
        var scratch = EditScratch()
        var hits: [Hit] = []
        for (position, entry) in entries.enumerated() {
            if let muscles, entry.muscles.isDisjoint(with: muscles) { continue }
            if let equipment, entry.equipment != equipment { continue }
            if let category, entry.category != category { continue }
            var score = 0
            if position == aliased {
                score = aliasScore
            } else if !tokens.isEmpty {
                var matchedAll = true
                var guessed = false
                for (token, ways) in zip(tokens, spelledOut) {
                    let best = Self.match(token, spelledOut: ways, words: entry.words, &scratch)
                    if best == 0 {
                        matchedAll = false
                        break
                    }
                    score += best
                    guessed = guessed || best < 4
                }
                if matchedAll {
                    if entry.folded == phrase { score += 20 } else if entry.folded.hasPrefix(phrase) { score += 8 }
                } else {
                    guard joined.count >= 4 else { continue }
                    var best = 0
                    for (start, run) in entry.runs.enumerated() where best < 6 && run.first == joined.first {
                        best = max(best, Self.spellsWholeWords(joined, entry.words[start...]) ? 6 : Self.match(joined, run, &scratch))
                    }
                    if best == 0 { continue }
                    score = best
                    guessed = best < 4
                    if entry.runs[0] == joined { score += 20 } else if entry.runs[0].starts(with: joined) { score += 8 }
                }
                if !guessed { score += entry.boost }
                score = score * Self.qualityWeight - min(Self.qualityWeight - 1, max(0, entry.words.count - tokens.count))
            }
            hits.append(Hit(score: Int32(score), entry: Int32(position)))
        }
        // Entries are in tie order, so a higher score first, then the position, is the ranking.
        return hits.sorted { $0.score != $1.score ? $0.score > $1.score : $0.entry < $1.entry }
    }

    /// Whether `joined` is the run of whole words from the first of `words` on ("benchpress" for "bench",
    /// "press", "medium", ...).
    static func spellsWholeWords(_ joined: [UInt32], _ words: ArraySlice<[UInt32]>) -> Bool {
        var rest = joined[...]
        for word in words {
            guard rest.starts(with: word) else { return false }
            rest = rest.dropFirst(word.count)
            if rest.isEmpty { return true }
        }
        return false
    }

    /// Gym shorthand a query may use for words the catalog spells out, each with the ways it is spelled out there
    /// (every word of one way must match the name): "db curl" finds the dumbbell curls, "rdl" the Romanian
    /// deadlifts, "ohp" the military and shoulder presses.
    static let shorthand: [String: [[String]]] = [
        "db": [["dumbbell"]], "dbs": [["dumbbell"]], "bb": [["barbell"]], "kb": [["kettlebell"]], "kbs": [["kettlebell"]],
        "bw": [["bodyweight"]], "dl": [["deadlift"]], "dls": [["deadlift"]],
        "rdl": [["romanian", "deadlift"]], "rdls": [["romanian", "deadlift"]],
        "sldl": [["stiff", "legged", "deadlift"]], "sldls": [["stiff", "legged", "deadlift"]],
        "ohp": [["military", "press"], ["shoulder", "press"], ["overhead", "press"]],
        "bp": [["bench", "press"]], "bulgarian": [["split", "squat"]], "pec": [["butterfly"]],
    ]

    /// `shorthand` as the index compares words.
    static let shorthandWords: [[UInt32]: [[[UInt32]]]] = Dictionary(
        uniqueKeysWithValues: shorthand.map { key, ways in
            (key.unicodeScalars.map(\.value), ways.map { $0.map { $0.unicodeScalars.map(\.value) } })
        })

    /// How well a query token matches a name's words: its best match with any word, or, for shorthand, the best
    /// of its spelled-out ways (each scoring as its worst-matched word, matched exactly or as a prefix).
    static func match(_ token: [UInt32], spelledOut ways: [[[UInt32]]]?, words: [[UInt32]], _ scratch: inout EditScratch) -> Int {
        var best = 0
        for word in words where best < 6 { best = max(best, match(token, word, &scratch)) }
        guard best < 6, let ways else { return best }
        for way in ways where best < 6 {
            var worst = 6
            for part in way where worst > 0 {
                // Spelled out, a word matches exactly or as a prefix: no typos on words the user did not type.
                var partBest = 0
                for word in words where partBest < 6 {
                    partBest = max(partBest, part == word ? 6 : word.count > part.count && word.starts(with: part) ? 4 : 0)
                }
                worst = min(worst, partBest)
            }
            best = max(best, worst)
        }
        return best
    }

    /// Rows reused across edit-distance computations of one search.
    struct EditScratch {
        var first = [Int](repeating: 0, count: 64)
        var second = [Int](repeating: 0, count: 64)
        var third = [Int](repeating: 0, count: 64)
    }

    /// How well a query token matches a name word: 6 exact, 4 prefix, 2 within a small edit distance of the
    /// word or of its prefix of about the token's length, 0 not at all.
    static func match(_ token: [UInt32], _ word: [UInt32], _ scratch: inout EditScratch) -> Int {
        if token == word { return 6 }
        if word.count > token.count, word.starts(with: token) { return 4 }
        let tokenCount = token.count
        guard tokenCount >= 4 else { return 0 }
        let allowed = tokenCount >= 6 ? 2 : 1
        if abs(word.count - tokenCount) <= allowed, editDistance(token, word[...], limit: allowed, &scratch) <= allowed { return 2 }
        if word.count > tokenCount {
            for length in [tokenCount, tokenCount + 1] where length <= word.count {
                if editDistance(token, word[..<length], limit: allowed, &scratch) <= allowed { return 2 }
            }
        }
        return 0
    }

    /// The same for strings (tests).
    static func match(_ token: String, _ word: String) -> Int {
        var scratch = EditScratch()
        return match(token.unicodeScalars.map(\.value), word.unicodeScalars.map(\.value), &scratch)
    }

    /// Optimal-string-alignment distance (Damerau-Levenshtein with adjacent transpositions), stopping early
    /// once every cell of a row exceeds `limit`.
    static func editDistance(_ a: [UInt32], _ b: ArraySlice<UInt32>, limit: Int, _ scratch: inout EditScratch) -> Int {
        let offset = b.startIndex
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        if b.count + 1 > scratch.first.count {
            scratch = EditScratch(
                first: [Int](repeating: 0, count: b.count + 1), second: [Int](repeating: 0, count: b.count + 1),
                third: [Int](repeating: 0, count: b.count + 1))
        }
        // Borrow the rows without copying them; they go back before returning.
        var previousPrevious: [Int] = []
        var previous: [Int] = []
        var current: [Int] = []
        swap(&previousPrevious, &scratch.first)
        swap(&previous, &scratch.second)
        swap(&current, &scratch.third)
        defer {
            swap(&previousPrevious, &scratch.first)
            swap(&previous, &scratch.second)
            swap(&current, &scratch.third)
        }
        for j in 0...b.count { previous[j] = j }
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[offset + j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[offset + j - 2], a[i - 2] == b[offset + j - 1] {
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

    /// The same for strings (tests).
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        var scratch = EditScratch()
        return editDistance(a.unicodeScalars.map(\.value), b.unicodeScalars.map(\.value)[...], limit: limit, &scratch)
    }
}
