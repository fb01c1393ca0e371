import Contracts
import Foundation
import Platform

/// A `session_plan` card's payload: a routine's template (`template_id`, `routine_id`) or an inline plan (`name`,
/// `exercises` with their planned sets and names). A `template_update` card's is the same, with the template it
/// changes (`template_id`), the version it was made from (`expected_version`) and the `previous_exercises`' names.
enum SessionPlanData {
    /// The payload of a session: its name and exercises (id, name, planned sets), with `extra` fields.
    static func make(name: String, exercises: [(id: String, name: String, sets: [TemplateSet])], extra: [String: JSONValue] = [:]) throws
        -> JSONValue
    {
        var data: [String: JSONValue] = [
            "name": .string(name),
            "exercises": .array(
                try exercises.map { exercise in
                    ["exercise_id": .string(exercise.id), "name": .string(exercise.name), "sets": try JSONValue(encoding: exercise.sets)]
                }),
        ]
        data.merge(extra) { _, new in new }
        return .object(data)
    }

    /// How the session starts: from its template and routine when it is one (the routine's cursor then counts it) and
    /// `asTemplate` (not edited away from it), otherwise as an inline plan of its exercises.
    static func start(of data: JSONValue, type: ArtifactType, asTemplate: Bool = true) throws -> WorkoutStart {
        if type == .sessionPlan, asTemplate, let templateId = data["template_id"]?.stringValue {
            return .template(templateId: templateId, routineId: data["routine_id"]?.stringValue)
        }
        let plan = try template(of: data)
        return .plan(name: plan.name, exercises: plan.exercises)
    }

    /// A proposed template change: the template, the version it was made from, and the new exercises.
    static func templateUpdate(of data: JSONValue) throws -> (templateId: String, expectedVersion: Int, exercises: [PlannedExercise]) {
        guard let templateId = data["template_id"]?.stringValue, case .int(let version) = data["expected_version"] else {
            throw ServiceError(.failedPrecondition, "This artifact holds no template change.")
        }
        return (templateId, version, try template(of: data).exercises)
    }

    /// The session's exercises as a template to save.
    static func template(of data: JSONValue) throws -> TemplatePlan {
        guard let exercises = data["exercises"] else { throw ServiceError(.failedPrecondition, "This artifact holds no plan.") }
        return TemplatePlan(name: data["name"]?.stringValue ?? "Workout", exercises: try exercises.decode([PlannedExercise].self))
    }
}
