import Contracts
import Foundation

/// A catalog over a fixed list. Matches words by prefix (no typo tolerance); ranks names that start with the
/// query first, then by name and id.
public struct FakeExerciseCatalog: ExerciseCatalog {
    let exercises: [Exercise]

    public init(_ exercises: [Exercise]) {
        self.exercises = exercises
    }

    static func fold(_ text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    public func search(_ query: ExerciseQuery) async throws -> ExercisePage {
        guard (1...100).contains(query.limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
        // As live: the text at most 200 characters (a name's most), a filter at most 100.
        if let text = query.text, text.count > 200 { throw ServiceError.invalidArgument(field: "query", reason: "must be at most 200 characters") }
        for (field, value) in [("muscle", query.muscle), ("equipment", query.equipment), ("category", query.category)] where (value?.count ?? 0) > 100 {
            throw ServiceError.invalidArgument(field: field, reason: "must be at most 100 characters")
        }
        let tokens = query.text.map(Self.fold) ?? []
        let scope = [query.text ?? "", query.muscle ?? "", query.equipment ?? "", query.category ?? ""].joined(separator: "|")
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
        let matches = exercises.filter { exercise in
            let words = Self.fold(exercise.name)
            guard tokens.allSatisfy({ token in words.contains { $0.hasPrefix(token) } }) else { return false }
            if let muscle = term(query.muscle), !(exercise.primaryMuscles + exercise.secondaryMuscles).map({ term($0) }).contains(muscle) { return false }
            if let equipment = term(query.equipment), term(exercise.equipment) != equipment { return false }
            if let category = term(query.category), term(exercise.category) != category { return false }
            return true
        }.sorted { lhs, rhs in
            let phrase = tokens.joined(separator: " ")
            let lhsStarts = Self.fold(lhs.name).joined(separator: " ").hasPrefix(phrase)
            let rhsStarts = Self.fold(rhs.name).joined(separator: " ").hasPrefix(phrase)
            if lhsStarts != rhsStarts { return lhsStarts }
            return (lhs.name.lowercased(), lhs.id) < (rhs.name.lowercased(), rhs.id)
        }
        let page = Array(matches.dropFirst(offset).prefix(query.limit))
        let next = offset + page.count < matches.count ? "\(offset + page.count)#\(scope)" : nil
        return ExercisePage(items: page, nextCursor: next)
    }

    public func exercise(id: String) async throws -> Exercise? {
        exercises.first { $0.id == id }
    }
}
