import Contracts
import Foundation

/// What one import may hold, so that no file stalls the server or grows an answer without bound (the content
/// itself is at most 16 MiB). A file beyond a file-wide cap is refused whole (`INVALID_ARGUMENT`, `details.limit`);
/// rows beyond a workout's caps are skipped with their reason, as unreadable rows are.
enum ImportCaps {
    /// Workouts in one file: ten years of training five days a week.
    static let workoutsPerFile = 5_000
    /// Distinct exercise names in one file (each costs a search of the catalog).
    static let distinctNames = 300
    /// A workout's exercises and an exercise's sets, as the active workout holds them.
    static let exercisesPerWorkout = WorkoutsValidation.maxExercises
    static let setsPerExercise = 30
    /// A workout's title and an exercise's name, as the rest of the API takes them.
    static let titleLength = 100
    static let nameLength = 100
    /// Skipped rows listed in an answer (`skipped_total` counts them all), and the characters of the file's text a
    /// reason quotes.
    static let skippedListed = 100
    static let quotedLength = 40
    /// Imports a user may start in an hour over the API (the operator's CLI is not limited).
    static let importsPerHour = 10

    /// Refuses a reading whose workouts or distinct exercise names are more than the file-wide caps.
    static func checkFile(_ reading: ExportReading) throws {
        let workouts = Set(reading.sets.map(\.workoutKey)).count
        guard workouts <= workoutsPerFile else {
            throw refusal(
                "more than \(workoutsPerFile) workouts", limit: workoutsPerFile,
                message: "This file holds \(workouts) workouts; an import takes at most \(workoutsPerFile). Split the export by date.")
        }
        let names = Set(reading.sets.map(\.exerciseName)).count
        guard names <= distinctNames else {
            throw refusal(
                "more than \(distinctNames) exercise names", limit: distinctNames,
                message: "This file names \(names) different exercises; an import takes at most \(distinctNames).")
        }
    }

    static func refusal(_ reason: String, limit: Int, message: String) -> ServiceError {
        ServiceError(.invalidArgument, message, details: ["field": "content", "reason": reason, "limit": "\(limit)"])
    }

    /// The file's text as a skipped row's reason quotes it: at most `quotedLength` characters, control characters
    /// shown as `?`.
    static func quoted(_ text: String) -> String {
        let shown = String(
            text.prefix(quotedLength).map { character in
                character.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "?" : character
            })
        return "'" + shown + (text.count > quotedLength ? "…'" : "'")
    }
}
