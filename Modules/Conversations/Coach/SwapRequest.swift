import Foundation

/// A request to replace an exercise, read from plain English: "swap squats for something easier on my knees",
/// "replace bench press with dumbbells", "can you switch out my deadlifts?", "what can I do instead of lunges",
/// "an alternative to leg press".
///
/// - The **subject** is the exercise to replace as the user named it ("squats"): the words after the verb (and
///   "out", "my", "the") up to "for", "with", "to", "by", "because", a comma or a question mark; or the words after
///   "instead of" / "alternative to", up to the same.
/// - The **reason** is the rest: body areas to spare ("knee" → knees, "back" → lower back, "shoulder" →
///   shoulders) and equipment ("with dumbbells", read as a planning request reads it).
struct SwapRequest: Equatable {
    var subject: String
    var spare: [String]
    var equipment: EquipmentSet? = nil

    static let verbs: Set<String> = ["swap", "replace", "switch", "substitute", "sub", "change", "exchange"]
    static let openings = [
        "can you ", "could you ", "would you ", "please ", "i want to ", "i'd like to ", "i would like to ", "let's ", "lets ",
        "help me ", "i need to ",
    ]
    static let separators = [" for ", " with ", " to ", " by ", ",", "?", "!", ". ", " because ", " since ", " as "]
    static let fillers: Set<String> = ["out", "my", "the", "a", "an", "some", "these", "those", "today's", "todays"]

    static func read(_ message: String) -> SwapRequest? {
        var text = message.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "?!. \n\t"))
        if let range = text.range(of: "instead of ") ?? text.range(of: "alternative to ") ?? text.range(of: "alternative for ") {
            let (subject, reason) = cut(String(text[range.upperBound...]))
            return clean(subject).map { make(subject: $0, reason: String(text[..<range.lowerBound]) + reason) }
        }
        for opening in openings where text.hasPrefix(opening) { text.removeFirst(opening.count) }
        let words = text.split(separator: " ", maxSplits: 1).map(String.init)
        guard words.count == 2, verbs.contains(words[0]) else { return nil }
        let (subject, reason) = cut(" " + words[1])
        return clean(subject).map { make(subject: $0, reason: reason) }
    }

    /// The text split where the subject ends ("for", "with", "to", "by", a comma, "because" …): the subject, and
    /// the reason after it.
    static func cut(_ text: String) -> (subject: String, reason: String) {
        guard let cut = separators.compactMap({ text.range(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) else { return (text, "") }
        return (String(text[..<cut.lowerBound]), String(text[cut.lowerBound...]))
    }

    /// The subject without filler words and punctuation; nil when nothing (or too much) is left.
    static func clean(_ text: String) -> String? {
        let words = text.split { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "'" }.map(String.init)
            .filter { !fillers.contains($0) }
        let subject = words.joined(separator: " ")
        return subject.isEmpty || subject.count > 40 || words.count > 5 ? nil : subject
    }

    static func make(subject: String, reason: String) -> SwapRequest {
        let text = PlanText(reason)
        var spare: [String] = []
        if text.containsAny(["knee", "knees"]) { spare.append("knees") }
        if text.containsAny(["back", "spine", "lower back"]) { spare.append("lower back") }
        if text.containsAny(["shoulder", "shoulders"]) { spare.append("shoulders") }
        return SwapRequest(subject: subject, spare: spare, equipment: PlanRequestReader.equipment(in: text))
    }

    /// Whether an exercise's name answers to the subject: each word of the subject (a plural's "s" dropped) starts
    /// a word of the name ("squats" names "Barbell Squat", "db bench" does not name "Dumbbell Bench Press").
    func names(_ exerciseName: String) -> Bool {
        let nameWords = exerciseName.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        let subjectWords = subject.split(separator: " ").map { word -> String in
            word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") ? String(word.dropLast()) : String(word)
        }
        return !subjectWords.isEmpty && subjectWords.allSatisfy { word in nameWords.contains { $0.hasPrefix(word) } }
    }
}
