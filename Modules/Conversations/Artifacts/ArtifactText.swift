import Foundation
import Platform

/// An artifact as readable text, for a terminal: a routine day by day, a session's exercises, a chart's points, the
/// questions with their options.
public enum ArtifactText {
    public static func render(type: String, title: String, data: JSONValue) -> String {
        var lines = ["[\(type)] \(title)"]
        switch type {
        case ArtifactType.routineSummary.rawValue, ArtifactType.routineUpdate.rawValue:
            for day in data["days"]?.arrayValue ?? [] {
                lines.append("  \(day["name"]?.stringValue ?? "Day")")
                for exercise in day["exercises"]?.arrayValue ?? [] {
                    lines.append("    - \(exercise["name"]?.stringValue ?? "?")\(Self.prescription(exercise))")
                }
            }
        case ArtifactType.sessionPlan.rawValue, ArtifactType.templateUpdate.rawValue:
            for exercise in data["exercises"]?.arrayValue ?? [] {
                let sets = exercise["sets"]?.arrayValue ?? []
                let reps = sets.first?["target_reps"].flatMap(Self.number).map { " × \($0)" } ?? ""
                lines.append("  - \(exercise["name"]?.stringValue ?? "?"): \(sets.count) sets\(reps)")
            }
        case ArtifactType.visualization.rawValue:
            for point in data["points"]?.arrayValue ?? [] {
                lines.append(
                    "  \(point["week_start"]?.stringValue ?? "?")  \(point["value"].flatMap(Self.number) ?? "?") \(data["unit"]?.stringValue ?? "")"
                )
            }
        case ArtifactType.clarifyQuestions.rawValue:
            for question in data["questions"]?.arrayValue ?? [] {
                let options = (question["options"]?.arrayValue ?? []).compactMap(\.stringValue)
                lines.append(
                    "  ? \(question["text"]?.stringValue ?? "")" + (options.isEmpty ? "" : " (\(options.joined(separator: " / ")))"))
            }
        default:
            break
        }
        return lines.joined(separator: "\n")
    }

    static func prescription(_ exercise: JSONValue) -> String {
        guard let sets = exercise["sets"].flatMap(number) else { return "" }
        var text = ": \(sets) sets"
        if let reps = exercise["reps"].flatMap(number) { text += " × \(reps)" }
        if let rir = exercise["rir"].flatMap(number) { text += ", RIR \(rir)" }
        return text
    }

    static func number(_ value: JSONValue) -> String? {
        switch value {
        case .int(let number): "\(number)"
        case .double(let number): Int(exactly: number).map { "\($0)" } ?? "\(number)"
        default: nil
        }
    }
}
