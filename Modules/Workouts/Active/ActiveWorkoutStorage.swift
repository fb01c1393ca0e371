import Contracts
import Foundation
import Platform
import Synchronization

/// The hot path of every set logged: reading and writing the active-workout document. Writing is done by
/// hand (the generic encoder costs most of a `logSet`), in exactly the storage format `JSONCoding.load`
/// reads back; reading is skipped when this process already holds the stored version.
enum ActiveWorkoutStorage {
    /// The document as stored: dates as epoch milliseconds, as `JSONCoding.store` would write them.
    static func serialize(_ workout: ActiveWorkout) -> String {
        var out = ""
        out.reserveCapacity(256 + workout.exercises.reduce(0) { $0 + 96 + $1.sets.count * 160 })
        out += "{\"id\":"
        string(workout.id, &out)
        out += ",\"user_id\":"
        string(workout.userId, &out)
        out += ",\"name\":"
        optionalString(workout.name, &out)
        out += ",\"source_template_id\":"
        optionalString(workout.sourceTemplateId, &out)
        out += ",\"source_routine_id\":"
        optionalString(workout.sourceRoutineId, &out)
        out += ",\"status\":"
        string(workout.status.rawValue, &out)
        out += ",\"start_time\":\(workout.startTime.millisecondsSince1970),\"version\":\(workout.version),\"exercises\":["
        for (index, exercise) in workout.exercises.enumerated() {
            if index > 0 { out += "," }
            out += "{\"instance_id\":"
            string(exercise.instanceId, &out)
            out += ",\"exercise_id\":"
            string(exercise.exerciseId, &out)
            out += ",\"name\":"
            string(exercise.name, &out)
            out += ",\"sets\":["
            for (setIndex, set) in exercise.sets.enumerated() {
                if setIndex > 0 { out += "," }
                out += "{\"id\":"
                string(set.id, &out)
                out += ",\"set_index\":\(set.setIndex),\"target_reps\":\(number(set.targetReps)),\"target_rir\":\(number(set.targetRir))"
                out += ",\"weight_kg\":\(number(set.weightKg)),\"reps\":\(number(set.reps)),\"rir\":\(number(set.rir))"
                out += ",\"completed_at\":\(number(set.completedAt?.millisecondsSince1970))}"
            }
            out += "]}"
        }
        out += "],\"totals\":{\"sets\":\(workout.totals.sets),\"reps\":\(workout.totals.reps),\"volume\":\(number(workout.totals.volume))}"
        out += ",\"created_at\":\(workout.createdAt.millisecondsSince1970),\"updated_at\":\(workout.updatedAt.millisecondsSince1970)}"
        return out
    }

    private static func number(_ value: Int?) -> String { value.map(String.init) ?? "null" }
    private static func number(_ value: Int64?) -> String { value.map(String.init) ?? "null" }
    private static func number(_ value: Double?) -> String {
        guard let value else { return "null" }
        guard value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    private static func optionalString(_ value: String?, _ out: inout String) {
        if let value { string(value, &out) } else { out += "null" }
    }

    /// A JSON string literal (RFC 8259 escaping).
    static func string(_ value: String, _ out: inout String) {
        out += "\""
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += value
            out += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Active workouts this process wrote last, by id, so the next write only needs the stored version to
/// know it still holds the latest document.
final class ActiveWorkoutCache: Sendable {
    private let entries = Mutex<[String: ActiveWorkout]>([:])
    private let limit: Int

    init(limit: Int = 10_000) {
        self.limit = limit
    }

    func get(_ id: String) -> ActiveWorkout? { entries.withLock { $0[id] } }

    func put(_ workout: ActiveWorkout) {
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[workout.id] = workout
        }
    }

    func remove(_ id: String) { entries.withLock { $0[id] = nil } }
}
