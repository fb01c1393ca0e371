import Contracts
import Foundation

/// One edit of `patchActiveWorkout`. All ops of a request apply together or not at all.
enum PatchOperation: Codable, Sendable, Equatable {
    /// Sets `weight_kg`, `reps`, `rir`, `target_reps`, `target_rir` or `target_weight_kg` of a set (null clears it;
    /// legacy `weight` names `weight_kg`).
    case setField(exerciseInstanceId: String, setId: String, field: String, value: Double?)
    case addSet(exerciseInstanceId: String, targetReps: Int?, targetRir: Int?)
    case removeSet(exerciseInstanceId: String, setId: String)
    case addExercise(exerciseId: String, sets: Int?)
    case removeExercise(exerciseInstanceId: String)
    /// The new order of every exercise instance.
    case reorderExercises(order: [String])
    /// The new order of every set of one exercise (their `set_index` follows).
    case reorderSets(exerciseInstanceId: String, order: [String])

    static let settableFields = ["weight_kg", "reps", "rir", "target_reps", "target_rir", "target_weight_kg"]
    /// Every op, as clients name them.
    static let names = ["set_field", "add_set", "remove_set", "add_exercise", "remove_exercise", "reorder_exercises", "reorder_sets"]

    enum CodingKeys: String, CodingKey {
        case op
        case exerciseInstanceId = "exercise_instance_id"
        case setId = "set_id"
        case field, value
        case targetReps = "target_reps"
        case targetRir = "target_rir"
        case exerciseId = "exercise_id"
        case sets, order
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let op = try container.decode(String.self, forKey: .op)
        switch op {
        case "set_field":
            var field = try container.decode(String.self, forKey: .field)
            if field == "weight" { field = "weight_kg" }  // legacy name, always kilograms
            guard Self.settableFields.contains(field) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .field, in: container, debugDescription: "must be one of \(Self.settableFields.joined(separator: ", "))")
            }
            // `value` must be there: null clears the field, a missing value is a mistake, not a clear.
            guard container.contains(.value) else {
                throw DecodingError.keyNotFound(
                    CodingKeys.value,
                    .init(codingPath: container.codingPath, debugDescription: "set_field needs a value (null clears the field)"))
            }
            self = .setField(
                exerciseInstanceId: try container.decode(String.self, forKey: .exerciseInstanceId),
                setId: try container.decode(String.self, forKey: .setId), field: field,
                value: try container.decodeIfPresent(Double.self, forKey: .value))
        case "add_set":
            self = .addSet(
                exerciseInstanceId: try container.decode(String.self, forKey: .exerciseInstanceId),
                targetReps: try container.decodeIfPresent(Int.self, forKey: .targetReps),
                targetRir: try container.decodeIfPresent(Int.self, forKey: .targetRir))
        case "remove_set":
            self = .removeSet(
                exerciseInstanceId: try container.decode(String.self, forKey: .exerciseInstanceId),
                setId: try container.decode(String.self, forKey: .setId))
        case "add_exercise":
            self = .addExercise(
                exerciseId: try container.decode(String.self, forKey: .exerciseId),
                sets: try container.decodeIfPresent(Int.self, forKey: .sets))
        case "remove_exercise":
            self = .removeExercise(exerciseInstanceId: try container.decode(String.self, forKey: .exerciseInstanceId))
        case "reorder_exercises":
            self = .reorderExercises(order: try container.decode([String].self, forKey: .order))
        case "reorder_sets":
            self = .reorderSets(
                exerciseInstanceId: try container.decode(String.self, forKey: .exerciseInstanceId),
                order: try container.decode([String].self, forKey: .order))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .op, in: container,
                debugDescription: "unknown op; use \(Self.names.joined(separator: ", "))")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .setField(let instance, let set, let field, let value):
            try container.encode("set_field", forKey: .op)
            try container.encode(instance, forKey: .exerciseInstanceId)
            try container.encode(set, forKey: .setId)
            try container.encode(field, forKey: .field)
            try container.encode(value, forKey: .value)
        case .addSet(let instance, let reps, let rir):
            try container.encode("add_set", forKey: .op)
            try container.encode(instance, forKey: .exerciseInstanceId)
            try container.encodeIfPresent(reps, forKey: .targetReps)
            try container.encodeIfPresent(rir, forKey: .targetRir)
        case .removeSet(let instance, let set):
            try container.encode("remove_set", forKey: .op)
            try container.encode(instance, forKey: .exerciseInstanceId)
            try container.encode(set, forKey: .setId)
        case .addExercise(let exercise, let sets):
            try container.encode("add_exercise", forKey: .op)
            try container.encode(exercise, forKey: .exerciseId)
            try container.encodeIfPresent(sets, forKey: .sets)
        case .removeExercise(let instance):
            try container.encode("remove_exercise", forKey: .op)
            try container.encode(instance, forKey: .exerciseInstanceId)
        case .reorderExercises(let order):
            try container.encode("reorder_exercises", forKey: .op)
            try container.encode(order, forKey: .order)
        case .reorderSets(let instance, let order):
            try container.encode("reorder_sets", forKey: .op)
            try container.encode(instance, forKey: .exerciseInstanceId)
            try container.encode(order, forKey: .order)
        }
    }
}
