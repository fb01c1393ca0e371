import Contracts
import Foundation

/// Shared validation of names and numbers.
enum WorkoutsValidation {
    /// The most exercises a template or a workout holds.
    static let maxExercises = 50

    /// Throws unless a workout of `count` exercises can take one more.
    static func roomForAnotherExercise(_ count: Int, field: String, reason: String = "at most 50 exercises") throws {
        guard count < maxExercises else { throw ServiceError.invalidArgument(field: field, reason: reason) }
    }

    /// False for text no write could have stored (it holds NUL): the contracts pass ids from the coach's tools
    /// unchecked, and PostgreSQL fails on NUL even in a comparison, so such an id is answered as not found.
    static func couldBeStored(_ text: String) -> Bool { !text.utf8.contains(0) }

    /// Text with the NUL character is refused here too, not only at the HTTP edge: the contracts (the coach's
    /// tools) reach these checks without it, and PostgreSQL cannot store NUL in a text column (a template name
    /// goes into the active workout's `name` column when a workout starts from it).
    static func refuseNUL(_ value: String, field: String) throws {
        guard couldBeStored(value) else { throw ServiceError.invalidArgument(field: field, reason: "must not contain the NUL character") }
    }

    /// Lengths are counted in Unicode code points, as the OpenAPI document's `maxLength` counts them (a client
    /// checking a name against the schema is never refused here): "👍🏽" is two.
    static func name(_ value: String, field: String = "name") throws -> String {
        try refuseNUL(value, field: field)
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, value.unicodeScalars.count <= 100 else {
            throw ServiceError.invalidArgument(field: field, reason: "must be 1 to 100 characters")
        }
        return trimmed
    }

    /// A description as stored: a blank one is none (null, like every empty optional field), so a patch sending
    /// `""` removes the description (a patch applies it whenever the field was sent).
    static func description(_ value: String?) throws -> String? {
        guard let value else { return nil }
        try refuseNUL(value, field: "description")
        guard value.unicodeScalars.count <= 2000 else {
            throw ServiceError.invalidArgument(field: "description", reason: "longer than 2000 characters")
        }
        return isBlank(value) ? nil : value
    }

    /// Whether a description is blank (empty or whitespace only), and so stored as none.
    static func isBlank(_ description: String) -> Bool { description.allSatisfy(\.isWhitespace) }

    /// The bounds of a set's reps, RIR and weight (kg), as validated here and declared in the schemas.
    static let repsRange = 0...1000
    static let rirRange = 0...10
    static let weightRange = 0.0...1000.0

    static func reps(_ value: Int?, field: String) throws -> Int? {
        guard let value else { return nil }
        guard repsRange.contains(value) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be from 0 to 1000", message: "Reps must be between 0 and 1000.")
        }
        return value
    }

    static func rir(_ value: Int?, field: String) throws -> Int? {
        guard let value else { return nil }
        guard rirRange.contains(value) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be from 0 to 10", message: "RIR must be between 0 and 10.")
        }
        return value
    }

    static func weight(_ value: Double?, field: String) throws -> Double? {
        guard let value else { return nil }
        return try weight(value, field: field) as Double
    }

    /// A weight from 0 to 1000 kg. Negative zero is zero: it passes the range check, but would be answered as `-0`
    /// and stored differently by each engine (SQLite keeps a whole REAL as an integer, dropping the sign).
    static func weight(_ value: Double, field: String) throws -> Double {
        guard value.isFinite, weightRange.contains(value) else {
            throw ServiceError.invalidArgument(
                field: field, reason: "must be from 0 to 1000 kg", message: "Weight must be between 0 and 1000 kg.")
        }
        return value == 0 ? 0 : value
    }

    static func limit(_ value: Int?, default fallback: Int = 20) throws -> Int {
        guard let value else { return fallback }
        guard (1...100).contains(value) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
        return value
    }
}
