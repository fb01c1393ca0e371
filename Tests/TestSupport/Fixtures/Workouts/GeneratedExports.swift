import Foundation

/// Strong and Hevy exports made up at random for the import's property tests: mostly well-formed rows, with any
/// field replaced now and then by hostile text (`HostileText`), columns reordered or missing, either separator,
/// and some files damaged after they were written.
public enum GeneratedExports {
    static let strongColumns = [
        "Date", "Workout Name", "Duration", "Exercise Name", "Set Order", "Weight", "Reps", "Distance", "Seconds", "Notes",
        "Workout Notes", "RPE",
    ]
    static let hevyColumns = [
        "title", "start_time", "end_time", "description", "exercise_title", "superset_id", "exercise_notes", "set_index", "set_type",
        "weight_kg", "reps", "distance_km", "duration_seconds", "rpe",
    ]
    static let exercises = ["Bench Press (Barbell)", "Squat (Barbell)", "Deadlift (Barbell)", "Lat Pulldown (Cable)", "Zercher Yoke Walk"]

    /// A file in the format (`strong_csv` or `hevy_csv`) with up to `maxRows` rows.
    public static func file(format: String, maxRows: Int = 40, using random: inout some RandomNumberGenerator) -> String {
        let strong = format == "strong_csv"
        var columns = strong ? strongColumns : hevyColumns
        if Int.random(in: 0..<8, using: &random) == 0 { columns.shuffle(using: &random) }
        if Int.random(in: 0..<12, using: &random) == 0 { columns.remove(at: Int.random(in: 0..<columns.count, using: &random)) }
        if strong, Int.random(in: 0..<6, using: &random) == 0 {
            columns = columns.map { $0 == "Weight" ? HostileText.pick(["Weight (kg)", "Weight (lbs)"], using: &random) : $0 }
        }
        if !strong, Bool.random(using: &random) { columns = columns.map { $0 == "weight_kg" ? "weight_lbs" : $0 } }
        let separator = Int.random(in: 0..<4, using: &random) == 0 ? ";" : ","
        var lines = [columns.map { quoted($0, separator: separator, using: &random) }.joined(separator: separator)]
        let workouts = Int.random(in: 1...4, using: &random)
        for _ in 0..<Int.random(in: 0...maxRows, using: &random) {
            let workout = Int.random(in: 0..<workouts, using: &random)
            let fields = columns.map { column -> String in
                let value =
                    Int.random(in: 0..<10, using: &random) == 0
                    ? HostileText.any(using: &random) : field(column, workout: workout, separator: separator, using: &random)
                return quoted(value, separator: separator, using: &random)
            }
            lines.append(fields.joined(separator: separator))
        }
        let text = lines.joined(separator: HostileText.pick(["\n", "\r\n"], using: &random))
        return Int.random(in: 0..<5, using: &random) == 0 ? HostileText.mutate(text, using: &random) : text
    }

    /// A plausible value of the column for one of the file's workouts.
    static func field(_ column: String, workout: Int, separator: String, using random: inout some RandomNumberGenerator) -> String {
        let day = 1 + workout * 2
        switch column.lowercased() {
        case "date": return "2024-03-0\(day) 18:30:00"
        case "start_time": return "0\(day) Mar 2024, 18:30"
        case "end_time": return "0\(day) Mar 2024, 19:\(Int.random(in: 10...59, using: &random))"
        case "workout name", "title": return "Workout \(workout)"
        case "duration": return HostileText.pick(["1h 5m", "45m", "50s", "3600", "", "2h"], using: &random)
        case "exercise name", "exercise_title": return HostileText.pick(exercises, using: &random)
        case "set order": return HostileText.pick(["1", "2", "3", "W", "D", "F", "Rest Timer"], using: &random)
        case "set_index": return "\(Int.random(in: 0...5, using: &random))"
        case "set_type": return HostileText.pick(["normal", "warmup", "dropset", "failure"], using: &random)
        case "weight", "weight (kg)", "weight (lbs)", "weight_kg", "weight_lbs":
            let weight = "\(Double(Int.random(in: 0...800, using: &random)) / 4)"
            return separator == ";" ? weight.replacingOccurrences(of: ".", with: ",") : weight
        case "reps": return "\(Int.random(in: 0...20, using: &random))"
        case "rpe": return HostileText.pick(["", "7", "8.5", "10", "6"], using: &random)
        default: return ""
        }
    }

    /// The value as a spreadsheet writes it: quoted when it must be (and sometimes when it need not).
    static func quoted(_ value: String, separator: String, using random: inout some RandomNumberGenerator) -> String {
        let needs = value.contains("\"") || value.contains(separator) || value.contains("\n") || value.contains("\r")
        guard needs || Int.random(in: 0..<4, using: &random) == 0 else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
