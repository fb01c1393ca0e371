import Contracts
import Foundation
import Platform

/// Hevy's CSV export: one row per set (`title, start_time, end_time, description, exercise_title, superset_id,
/// exercise_notes, set_index, set_type, weight_kg, reps, distance_km, duration_seconds, rpe`). Every `set_type`
/// (normal, warmup, dropset, failure) is a set; `weight_lbs` instead of `weight_kg` is converted. Times are
/// local (`15 Jan 2023, 10:30`) in `timeZone`.
enum HevyExport {
    static let required = ["title", "start_time", "end_time", "exercise_title", "reps"]
    static let expected =
        "title, start_time, end_time, description, exercise_title, superset_id, exercise_notes, set_index, set_type, weight_kg, reps, distance_km, duration_seconds, rpe"

    static func read(_ csv: CSVReader, timeZone: TimeZone) throws -> ExportReading {
        let columns = ExportFields.columns(csv.header)
        let weightColumn = ["weight_kg", "weight_lbs"].first { columns[$0] != nil }
        guard required.allSatisfy({ columns[$0] != nil }), let weightColumn else {
            throw ServiceError.invalidArgument(
                field: "content", reason: "not a Hevy export",
                message: "This file is not a Hevy export: its first line must name the columns \(expected).")
        }
        var reading = ExportReading()
        var times: [String: Date] = [:]
        for record in csv.records {
            func field(_ name: String) -> String {
                guard let index = columns[name], index < record.fields.count else { return "" }
                return record.fields[index]
            }
            do throws(ImportRowError) {
                func time(_ column: String) throws(ImportRowError) -> Date {
                    let text = field(column)
                    guard let date = times[text] ?? ExportFields.hevyDateTime(text, timeZone: timeZone) else {
                        throw ImportRowError("\(ImportCaps.quoted(text)) is not a date and time (as '15 Jan 2023, 10:30')")
                    }
                    times[text] = date
                    return date
                }
                let start = try time("start_time")
                let end = max(start, (try? time("end_time")) ?? start)
                guard end.timeIntervalSince(start) <= ExportFields.maxWorkoutDuration else {
                    throw ImportRowError("\(ImportCaps.quoted(field("end_time"))) is more than 24 hours after the start")
                }
                guard let name = try ExportFields.name(field("exercise_title"), what: "an exercise title", limit: ImportCaps.nameLength)
                else { throw ImportRowError("no exercise title") }
                let weight = try ExportFields.kilograms(
                    try ExportFields.decimal(field(weightColumn), separator: csv.separator), pounds: weightColumn == "weight_lbs")
                let reps = try ExportFields.reps(field("reps"))
                let rir = try ExportFields.rir(fromRPE: field("rpe"), separator: csv.separator)
                let title = try ExportFields.name(field("title"), what: "a workout title", limit: ImportCaps.titleLength)
                reading.sets.append(
                    ExportedSet(
                        row: record.number, workoutKey: "\(field("start_time"))|\(title ?? "")", workoutName: title,
                        start: start,
                        end: end, exerciseName: name, weightKg: weight, reps: reps, rir: rir))
            } catch {
                reading.skipped.append(SkippedRow(row: record.number, reason: error.reason))
            }
        }
        return reading
    }
}
