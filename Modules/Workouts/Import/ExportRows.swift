import Contracts
import Foundation
import Platform

/// One set read from a training app's export, before its exercise is matched to the catalog.
struct ExportedSet: Sendable, Equatable {
    /// The spreadsheet row it came from (the header is row 1).
    var row: Int
    /// Names the workout the set belongs to within the file (its start and title, as the file writes them).
    var workoutKey: String
    var workoutName: String?
    var start: Date
    var end: Date
    var exerciseName: String
    var weightKg: Double?
    var reps: Int
    var rir: Int?
}

/// A row left out of an import, and why.
struct SkippedRow: Codable, Sendable, Equatable {
    var row: Int
    var reason: String
}

/// What reading an export gives: its sets, and the rows that are not sets or could not be read.
struct ExportReading: Sendable {
    var sets: [ExportedSet] = []
    var skipped: [SkippedRow] = []
}

/// Parsing helpers shared by the export formats.
enum ExportFields {
    /// A workout's title or an exercise's name from the file, trimmed; nil when blank. Longer than the API takes
    /// (`ImportCaps`) is refused.
    static func name(_ text: String, what: String, limit: Int) throws(ImportRowError) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= limit else { throw ImportRowError("\(what) longer than \(limit) characters") }
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Columns by their header name, case and surrounding spaces aside.
    static func columns(_ header: [String]) -> [String: Int] {
        var columns: [String: Int] = [:]
        for (index, name) in header.enumerated() where columns[name.lowercased()] == nil { columns[name.lowercased()] = index }
        return columns
    }

    /// A decimal as exports write it: `82.5`, or `82,5` in a semicolon-separated file. Nil when blank.
    static func decimal(_ text: String, separator: UInt8) throws(ImportRowError) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        let normalized = separator == UInt8(ascii: ";") ? trimmed.replacingOccurrences(of: ",", with: ".") : trimmed
        guard let value = Double(normalized), value.isFinite else { throw ImportRowError("\(ImportCaps.quoted(trimmed)) is not a number") }
        return value
    }

    static let poundsToKilograms = 0.453_592_37

    /// The weight in kilograms, checked as a logged set's is (0 to 1000 kg), to 0.01 kg.
    static func kilograms(_ value: Double?, pounds: Bool) throws(ImportRowError) -> Double? {
        guard let value else { return nil }
        let kg = pounds ? (value * poundsToKilograms * 100).rounded() / 100 : value
        guard (0...1000).contains(kg) else {
            throw ImportRowError("a weight of \(value) \(pounds ? "lb" : "kg") is not possible (0 to 1000 kg)")
        }
        return kg == 0 ? 0 : kg
    }

    /// Reps from 1 to 1000; a set without reps (timed or distance work) is not imported.
    static func reps(_ text: String) throws(ImportRowError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let value = Double(trimmed), value > 0 else {
            throw ImportRowError("no reps (timed and distance sets are not imported)")
        }
        guard value == value.rounded(), value <= 1000 else {
            throw ImportRowError("\(ImportCaps.quoted(trimmed)) reps is not possible (1 to 1000)")
        }
        return Int(value)
    }

    /// RPE 1…10 as RIR (10 − RPE, to the nearest whole rep); nil when blank.
    static func rir(fromRPE text: String, separator: UInt8) throws(ImportRowError) -> Int? {
        guard let rpe = try decimal(text, separator: separator) else { return nil }
        guard (1...10).contains(rpe) else { throw ImportRowError("an RPE of \(ImportCaps.quoted(text)) is not possible (1 to 10)") }
        return Int(saturating: (10 - rpe).rounded())
    }

    /// A local date and time written `YYYY-MM-DD HH:MM[:SS]` (or with a `T`), in `timeZone`.
    static func localDateTime(_ text: String, timeZone: TimeZone) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "T" })
        guard parts.count == 2 else { return nil }
        let date = parts[0].split(separator: "-")
        let time = parts[1].split(separator: ":")
        guard date.count == 3, (2...3).contains(time.count), let year = Int(date[0]), let month = Int(date[1]), let day = Int(date[2]),
            let hour = Int(time[0]), let minute = Int(time[1])
        else { return nil }
        let second = time.count == 3 ? Int(time[2].prefix(2)) : 0
        guard let second else { return nil }
        return civil(year: year, month: month, day: day, hour: hour, minute: minute, second: second, timeZone: timeZone)
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Hevy's `15 Jan 2023, 10:30` (or the ISO form), in `timeZone`.
    static func hevyDateTime(_ text: String, timeZone: TimeZone) -> Date? {
        if let iso = localDateTime(text, timeZone: timeZone) { return iso }
        let words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ")
        guard words.count == 4, let day = Int(words[0]), let monthIndex = months.firstIndex(of: words[1].prefix(3).lowercased()),
            let year = Int(words[2])
        else { return nil }
        let time = words[3].split(separator: ":")
        guard (2...3).contains(time.count), let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
        return civil(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: 0, timeZone: timeZone)
    }

    /// The instant of a civil time in `timeZone`; nil for a date that does not exist.
    static func civil(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, timeZone: TimeZone) -> Date? {
        guard (1900...2200).contains(year), (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
            (0...59).contains(minute),
            (0...60).contains(second)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else { return nil }
        return date
    }

    /// The longest workout an export may hold: a duration (or an end time) further from its start is refused.
    static let maxWorkoutDuration: TimeInterval = 24 * 3600

    /// Strong's durations: `1h 5m`, `45m`, `1h`, `50s`, or plain seconds; nil when blank or unreadable (the
    /// workout then ends where it starts). Not finite, negative or longer than a day is refused.
    static func duration(_ text: String) throws(ImportRowError) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed.isEmpty { return nil }
        var total: Double? = Double(trimmed)
        if total == nil {
            var sum = 0.0
            for token in trimmed.split(separator: " ") {
                guard let unit = token.last, let value = Double(token.dropLast()) else { return nil }
                switch unit {
                case "h": sum += value * 3600
                case "m": sum += value * 60
                case "s": sum += value
                default: return nil
                }
            }
            total = sum
        }
        guard let total, total.isFinite, (0...maxWorkoutDuration).contains(total) else {
            throw ImportRowError("a duration of \(ImportCaps.quoted(trimmed)) is not possible (up to 24 hours)")
        }
        return total
    }
}

/// Why one row of an export is skipped.
struct ImportRowError: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
