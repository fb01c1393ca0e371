import Contracts
import Foundation
import Platform

/// Checks a proposed routine (or session) before it becomes an artifact (the critic of docs/product.md): 1–7 days, each with 1–12
/// exercises that exist in the catalog, none twice in a day, 1–10 sets each with reps 1–50, RIR 0–5 and a weight
/// from 0 to 500 kg. A model's mistake comes back as `INVALID_ARGUMENT` naming the field, so it can repair it.
struct RoutineCritic {
    let catalog: any ExerciseCatalog

    func check(_ plan: RoutinePlan) async throws -> RoutinePlan {
        guard !plan.name.allSatisfy(\.isWhitespace), plan.name.count <= 100 else {
            throw ServiceError.invalidArgument(field: "name", reason: "must be 1 to 100 characters")
        }
        guard (1...7).contains(plan.templates.count) else {
            throw ServiceError.invalidArgument(field: "templates", reason: "must hold 1 to 7 days")
        }
        for (day, template) in plan.templates.enumerated() {
            try await checkDay(template, field: "templates[\(day)].")
        }
        return plan
    }

    /// Checks one day (a template or a single session); `field` prefixes the fields named in errors.
    func checkDay(_ template: TemplatePlan, field prefix: String) async throws {
        guard !template.name.allSatisfy(\.isWhitespace), template.name.count <= 100 else {
            throw ServiceError.invalidArgument(field: "\(prefix)name", reason: "must be 1 to 100 characters")
        }
        guard (1...12).contains(template.exercises.count) else {
            throw ServiceError.invalidArgument(field: "\(prefix)exercises", reason: "must hold 1 to 12 exercises")
        }
        var seen = Set<String>()
        for (index, exercise) in template.exercises.enumerated() {
            let path = "\(prefix)exercises[\(index)]"
            guard try await catalog.exercise(id: exercise.exerciseId) != nil else {
                throw ServiceError.invalidArgument(
                    field: "\(path).exercise_id", reason: "no exercise \(exercise.exerciseId) in the catalog")
            }
            guard seen.insert(exercise.exerciseId).inserted else {
                throw ServiceError.invalidArgument(field: "\(path).exercise_id", reason: "already in this day")
            }
            guard (1...10).contains(exercise.sets.count) else {
                throw ServiceError.invalidArgument(field: "\(path).sets", reason: "must hold 1 to 10 sets")
            }
            for (setIndex, set) in exercise.sets.enumerated() {
                let setPath = "\(path).sets[\(setIndex)]"
                if let reps = set.targetReps, !(1...50).contains(reps) {
                    throw ServiceError.invalidArgument(field: "\(setPath).target_reps", reason: "must be from 1 to 50")
                }
                if let rir = set.targetRir, !(0...5).contains(rir) {
                    throw ServiceError.invalidArgument(field: "\(setPath).target_rir", reason: "must be from 0 to 5")
                }
                if let weight = set.targetWeightKg, !(0...500).contains(weight) || !weight.isFinite {
                    throw ServiceError.invalidArgument(field: "\(setPath).target_weight_kg", reason: "must be from 0 to 500")
                }
            }
        }
    }

    /// Every exercise of the days can be done with the equipment the user named in their message (a model that
    /// puts a barbell squat in a dumbbell plan is told which one, to repair it); nothing to check without one.
    func checkEquipment(_ days: [TemplatePlan], equipment: EquipmentSet?, field prefix: (Int) -> String) async throws {
        guard let equipment, !equipment.isFullGym else { return }
        for (day, template) in days.enumerated() {
            for (index, exercise) in template.exercises.enumerated() {
                guard let known = try await catalog.exercise(id: exercise.exerciseId), !equipment.allows(catalogEquipment: known.equipment)
                else { continue }
                throw ServiceError.invalidArgument(
                    field: "\(prefix(day))exercises[\(index)].exercise_id",
                    reason: "\(known.name) needs \(known.equipment ?? "equipment") and the user has \(equipment.label)")
            }
        }
    }

    /// The catalog names of the plan's exercises, by id.
    func names(_ plan: RoutinePlan) async throws -> [String: String] {
        try await names(of: plan.templates.flatMap(\.exercises))
    }

    /// The catalog names of the exercises, by id.
    func names(of exercises: [PlannedExercise]) async throws -> [String: String] {
        var names: [String: String] = [:]
        for exercise in exercises where names[exercise.exerciseId] == nil {
            names[exercise.exerciseId] = try await catalog.exercise(id: exercise.exerciseId)?.name ?? exercise.exerciseId
        }
        return names
    }
}

/// A `routine_summary` artifact's payload: the routine as accepting it creates it (`routine`), and each day as
/// the app shows it (`days`: exercise names, sets, rep and RIR targets, and the first set's weight, null for a
/// bodyweight exercise or one whose first session calibrates). (A proposed change to a routine is a
/// `routine_update`: `RoutineUpdateData`.)
enum RoutineSummaryData {
    static func make(_ plan: RoutinePlan, names: [String: String]) throws -> JSONValue {
        let days: [JSONValue] = plan.templates.map { template in
            [
                "name": .string(template.name),
                "exercises": .array(
                    template.exercises.map { exercise in
                        [
                            "exercise_id": .string(exercise.exerciseId), "name": .string(names[exercise.exerciseId] ?? exercise.exerciseId),
                            "sets": .int(exercise.sets.count), "reps": exercise.sets.first?.targetReps.map(JSONValue.int) ?? .null,
                            "rir": exercise.sets.first?.targetRir.map(JSONValue.int) ?? .null,
                            "weight_kg": exercise.sets.first?.targetWeightKg.map(JSONValue.double) ?? .null,
                        ]
                    }),
            ]
        }
        return ["routine": try JSONValue(encoding: plan), "days": .array(days)]
    }

    /// The routine inside an artifact's payload.
    static func routine(of data: JSONValue) throws -> RoutinePlan {
        guard let routine = data["routine"] else {
            throw ServiceError(.failedPrecondition, "This artifact holds no routine.")
        }
        return try routine.decode(RoutinePlan.self)
    }
}
