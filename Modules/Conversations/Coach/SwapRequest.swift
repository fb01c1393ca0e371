import Foundation

/// A request to replace an exercise, as `MessageUnderstanding` read it ("swap squats for something easier on my
/// knees"): the exercise to replace as the user named it (`subject`, "squat"), the body areas to spare in the
/// planner's words, and the equipment named ("with dumbbells").
struct SwapRequest: Equatable {
    var subject: String
    var spare: [String]
    var equipment: EquipmentSet? = nil

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
