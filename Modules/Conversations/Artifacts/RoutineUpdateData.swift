import Contracts
import Foundation
import Platform

/// A `routine_update` card's payload: the routine (`routine_id`), the version the change was made from
/// (`expected_version`), the `changes` (what accepting applies), and as the app shows it the routine as it would be
/// (`routine`) with its days (`days`: each template's exercises, sets, rep and RIR targets).
enum RoutineUpdateData {
    /// The payload of `changes` to `routine`, checked as `update_routine` checks them: at least one change, a name of
    /// 1 to 100 characters, 1 to 14 sessions a week, 1 to 30 templates that are the user's. A mistake is
    /// `INVALID_ARGUMENT` naming the field (`changes`, `name`, `frequency`, `template_ids[2]`).
    static func make(
        routine: Routine, expectedVersion: Int, changes: RoutineChanges, userId: String, plans: any PlanLibrary
    ) async throws -> JSONValue {
        guard changes != RoutineChanges() else {
            throw ServiceError.invalidArgument(field: "changes", reason: "name at least one of name, description, frequency, template_ids")
        }
        if let name = changes.name, name.allSatisfy(\.isWhitespace) || name.count > 100 {
            throw ServiceError.invalidArgument(field: "name", reason: "must be 1 to 100 characters")
        }
        if let frequency = changes.frequency, !(1...14).contains(frequency) {
            throw ServiceError.invalidArgument(field: "frequency", reason: "must be from 1 to 14")
        }
        let templateIds = changes.templateIds ?? routine.templateIds
        guard (1...30).contains(templateIds.count) else {
            throw ServiceError.invalidArgument(field: "template_ids", reason: "must hold 1 to 30 templates")
        }
        var days: [JSONValue] = []
        for (index, id) in templateIds.enumerated() {
            let template: WorkoutTemplate
            do {
                template = try await plans.template(userId: userId, id: id)
            } catch let error as ServiceError where error.code == .notFound {
                throw ServiceError.invalidArgument(field: "template_ids[\(index)]", reason: "no template \(id) of the user's")
            }
            days.append([
                "template_id": .string(template.id), "name": .string(template.name),
                "exercises": .array(
                    template.exercises.map { exercise in
                        [
                            "exercise_id": .string(exercise.exerciseId), "name": .string(exercise.name),
                            "sets": .int(exercise.sets.count),
                            "reps": exercise.sets.first?.targetReps.map(JSONValue.int) ?? .null,
                            "rir": exercise.sets.first?.targetRir.map(JSONValue.int) ?? .null,
                            "weight_kg": exercise.sets.first?.targetWeightKg.map(JSONValue.double) ?? .null,
                        ]
                    }),
            ])
        }
        return [
            "routine_id": .string(routine.id), "expected_version": .int(expectedVersion), "changes": try JSONValue(encoding: changes),
            "routine": [
                "name": .string(changes.name ?? routine.name),
                "description": (changes.description ?? routine.description).map(JSONValue.string) ?? .null,
                "frequency": (changes.frequency ?? routine.frequency).map(JSONValue.int) ?? .null,
                "template_ids": .array(templateIds.map(JSONValue.string)),
            ],
            "days": .array(days),
        ]
    }

    /// A proposed routine change: the routine, the version it was made from, and the changes.
    static func update(of data: JSONValue) throws -> (routineId: String, expectedVersion: Int, changes: RoutineChanges) {
        guard let routineId = data["routine_id"]?.stringValue, case .int(let version) = data["expected_version"],
            let changes = data["changes"]
        else { throw ServiceError(.failedPrecondition, "This artifact holds no routine change.") }
        return (routineId, version, try changes.decode(RoutineChanges.self))
    }
}
