import Contracts
import Foundation
import Logging
import Platform

/// `artifactAction`: what the user does with an artifact. Idempotent under `idempotency_key` (a repeat answers
/// the first answer and changes nothing); acting on an artifact already accepted or dismissed is
/// `FAILED_PRECONDITION`; another user's artifact is `NOT_FOUND`.
///
/// - `accept` on a `routine_summary`: creates its templates and routine and makes it active (seed 003 flow 2);
///   `save_routine` creates them without making the routine active. The result names them (`routine_id`,
///   `template_ids`). On a proposed change to a routine (`kind: routine_update`) both apply the change against the
///   version it was made from (`CONFLICT` when the routine changed since).
/// - `accept` on a proposed change to a template (a `session_plan` of `kind: template_update`): replaces the
///   template's exercises against the version it was made from (`CONFLICT` when it changed since); the result
///   names it (`template_id`, `version`).
/// - `start_workout` on a `session_plan`: starts it (from its template and routine, or as an inline plan; a
///   proposed template change starts as the changed session); the result names the workout (`workout_id`).
/// - `save_as_template` on a `session_plan`: saves its exercises as a new template; the result names it
///   (`template_id`).
/// - `accept` on any other type: marks it accepted (nothing to create).
/// - `dismiss`: marks it dismissed.
///
/// The routine is made in Workouts' own transaction before the artifact is marked, under a key derived from the
/// artifact: a retry after a failure between the two finds the same routine instead of making a second.
struct ArtifactActions: Sendable {
    let services: CoachServices
    let idempotency: IdempotencyStore
    let logger: Logger

    enum Action: String, Codable, Sendable, CaseIterable {
        case accept, dismiss
        case saveRoutine = "save_routine"
        case startWorkout = "start_workout"
        case saveAsTemplate = "save_as_template"
    }

    struct Request: Codable, Sendable {
        var action: Action
        var artifactId: String
        var conversationId: String

        enum CodingKeys: String, CodingKey {
            case action
            case artifactId = "artifact_id"
            case conversationId = "conversation_id"
        }
    }

    struct Answer: Codable, Sendable {
        var artifact: Artifact
        var result: JSONValue
    }

    func perform(userId: String, request: Request, idempotencyKey: String?) async throws -> IdempotentAnswer<Answer> {
        let store = services.store
        let current = try await services.database.transaction { tx in
            try await store.artifact(in: tx, userId: userId, conversationId: request.conversationId, id: request.artifactId)
        }
        var result: JSONValue = [:]
        var status = ArtifactStatus.accepted
        switch (request.action, current.type) {
        case (.dismiss, _): status = .dismissed
        case (.accept, .routineSummary), (.saveRoutine, .routineSummary):
            if current.status == .proposed, current.data["kind"]?.stringValue == RoutineSummaryData.routineUpdate {
                let update = try RoutineSummaryData.update(of: current.data)
                let routine = try await services.plans.updateRoutine(
                    userId: userId, routineId: update.routineId, expectedVersion: update.expectedVersion, changes: update.changes,
                    idempotencyKey: "artifact:\(current.id)")
                result = ["routine_id": .string(routine.id), "template_ids": .array(routine.templateIds.map { .string($0) })]
            } else if current.status == .proposed {
                let created = try await services.plans.createRoutine(
                    userId: userId, plan: try RoutineSummaryData.routine(of: current.data), activate: request.action == .accept,
                    idempotencyKey: "artifact:\(current.id)")
                result = ["routine_id": .string(created.routine.id), "template_ids": .array(created.templates.map { .string($0.id) })]
            }
        case (.accept, .sessionPlan):
            if current.status == .proposed, current.data["kind"]?.stringValue == SessionPlanData.templateUpdate {
                let update = try SessionPlanData.templateUpdate(of: current.data)
                let template = try await services.plans.applyTemplateChanges(
                    userId: userId, templateId: update.templateId, expectedVersion: update.expectedVersion, exercises: update.exercises,
                    idempotencyKey: "artifact:\(current.id)")
                result = ["template_id": .string(template.id), "version": .int(template.version)]
            }
        case (.startWorkout, .sessionPlan):
            if current.status == .proposed {
                let workout = try await services.workouts.startWorkout(
                    userId: userId, start: try SessionPlanData.start(of: current.data), idempotencyKey: "artifact:\(current.id)")
                result = ["workout_id": .string(workout.id)]
            }
        case (.accept, _): break
        case (.saveRoutine, _):
            throw ServiceError.invalidArgument(field: "action", reason: "save_routine applies to a routine_summary")
        case (.saveAsTemplate, .sessionPlan):
            if current.status == .proposed {
                let template = try await services.plans.createTemplate(
                    userId: userId, plan: try SessionPlanData.template(of: current.data), idempotencyKey: "artifact:\(current.id)")
                result = ["template_id": .string(template.id)]
            }
        case (.startWorkout, _):
            throw ServiceError.invalidArgument(field: "action", reason: "start_workout applies to a session_plan")
        case (.saveAsTemplate, _):
            throw ServiceError.invalidArgument(field: "action", reason: "save_as_template applies to a session_plan")
        }
        let settledResult = result
        let settledStatus = status
        let answer = try await idempotency.write(userId: userId, key: idempotencyKey, operation: "artifactAction", request: request) { tx in
            var artifact = try await store.artifact(in: tx, userId: userId, conversationId: request.conversationId, id: request.artifactId)
            guard artifact.status == .proposed else {
                throw ServiceError(
                    .failedPrecondition, "This artifact was already \(artifact.status.rawValue).",
                    details: ["status": artifact.status.rawValue])
            }
            artifact.updatedAt = try await store.settle(in: tx, artifactId: artifact.id, status: settledStatus, result: settledResult)
            artifact.status = settledStatus
            artifact.result = settledResult
            return Answer(artifact: artifact, result: settledResult)
        }
        await services.track(
            "artifact_action", userId: userId,
            params: ["action": .string(request.action.rawValue), "artifact_type": .string(current.type.rawValue)],
            eventId: "artifact_action:\(current.id)", logger: logger)
        return answer
    }
}

/// A `session_plan` artifact's payload: a routine's template (`template_id`, `routine_id`) or an inline plan
/// (`name`, `exercises` with their planned sets and names), or a proposed change to a template (`kind:
/// template_update`, `template_id`, `expected_version`, the new `exercises` and the `previous_exercises`' names).
enum SessionPlanData {
    static let templateUpdate = "template_update"

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

    static func start(of data: JSONValue) throws -> WorkoutStart {
        if data["kind"]?.stringValue != templateUpdate, let templateId = data["template_id"]?.stringValue {
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
