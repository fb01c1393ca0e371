import Contracts
import Foundation
import Platform

/// Strong's CSV export: one row per set (`Date, Workout Name, Duration, Exercise Name, Set Order, Weight, Reps,
/// Distance, Seconds, Notes, Workout Notes, RPE`), comma or semicolon separated. `Set Order` is the set's number,
/// or `W` (warm-up), `D` (drop set), `F` (failure) — all sets — or `Rest Timer`, a row that is not a set and is
/// passed over. Weights are in the unit the file says (a `Weight Unit` column, or `Weight (kg)` / `Weight (lbs)`),
/// else in `pounds`' unit; dates are local times in `timeZone`.
enum StrongExport {
    static let required = ["date", "workout name", "exercise name", "set order", "reps"]
    static let expected =
        "Date, Workout Name, Duration, Exercise Name, Set Order, Weight, Reps, Distance, Seconds, Notes, Workout Notes, RPE"

    static func read(_ csv: CSVReader, pounds defaultPounds: Bool, timeZone: TimeZone) throws -> ExportReading {
        let columns = ExportFields.columns(csv.header)
        let weightColumn = ["weight", "weight (kg)", "weight (lbs)", "weight (lb)"].first { columns[$0] != nil }
        guard required.allSatisfy({ columns[$0] != nil }), let weightColumn else {
            throw ServiceError.invalidArgument(
                field: "content", reason: "not a Strong export",
                message: "This file is not a Strong export: its first line must name the columns \(expected).")
        }
        let pounds: Bool? = weightColumn == "weight" ? nil : weightColumn != "weight (kg)"
        var reading = ExportReading()
        var starts: [String: Date] = [:]
        for record in csv.records {
            func field(_ name: String) -> String {
                guard let index = columns[name], index < record.fields.count else { return "" }
                return record.fields[index]
            }
            let order = field("set order").trimmingCharacters(in: .whitespaces)
            if order.lowercased() == "rest timer" { continue }
            do throws(ImportRowError) {
                guard ["w", "d", "f"].contains(order.lowercased()) || Int(order) != nil else {
                    throw ImportRowError("\(ImportCaps.quoted(order)) is not a set order (a number, W, D or F)")
                }
                let dateText = field("date")
                guard let start = starts[dateText] ?? ExportFields.localDateTime(dateText, timeZone: timeZone) else {
                    throw ImportRowError("\(ImportCaps.quoted(dateText)) is not a date and time (YYYY-MM-DD HH:MM:SS)")
                }
                starts[dateText] = start
                guard let name = try ExportFields.name(field("exercise name"), what: "an exercise name", limit: ImportCaps.nameLength)
                else { throw ImportRowError("no exercise name") }
                let unit = field("weight unit").trimmingCharacters(in: .whitespaces).lowercased()
                let rowPounds = unit.isEmpty ? (pounds ?? defaultPounds) : unit.hasPrefix("lb")
                let weight = try ExportFields.kilograms(
                    try ExportFields.decimal(field(weightColumn), separator: csv.separator), pounds: rowPounds)
                let reps = try ExportFields.reps(field("reps"))
                let rir = try ExportFields.rir(fromRPE: field("rpe"), separator: csv.separator)
                let workoutName = try ExportFields.name(field("workout name"), what: "a workout name", limit: ImportCaps.titleLength)
                let duration = try ExportFields.duration(field("duration")) ?? 0
                reading.sets.append(
                    ExportedSet(
                        row: record.number, workoutKey: "\(dateText)|\(workoutName ?? "")", workoutName: workoutName,
                        start: start, end: start.addingTimeInterval(duration), exerciseName: name, weightKg: weight, reps: reps,
                        rir: rir))
            } catch {
                reading.skipped.append(SkippedRow(row: record.number, reason: error.reason))
            }
        }
        return reading
    }
}
