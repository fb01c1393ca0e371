import Contracts
import Foundation
import Platform

/// What an action on a pending card makes, through the plan library and the workout control, under a key derived
/// from the card (a retry makes nothing twice): the action's `result`.
struct CardApplication {
    let services: CoachServices
    let userId: String

    /// Applies `action` to `card` with its `content` (the user's edit when `edited`, else as proposed).
    func apply(_ action: ArtifactActions.Action, to card: Artifact, content: JSONValue, edited: Bool) async throws -> JSONValue {
        let key = "artifact:\(card.id)"
        switch (action, card.type) {
        case (.accept, .routineSummary), (.saveRoutine, .routineSummary):
            let created = try await services.plans.createRoutine(
                userId: userId, plan: try RoutineSummaryData.routine(of: content), activate: action == .accept, idempotencyKey: key)
            return ["routine_id": .string(created.routine.id), "template_ids": .array(created.templates.map { .string($0.id) })]
        case (.accept, .routineUpdate):
            let update = try RoutineUpdateData.update(of: content)
            let routine = try await services.plans.updateRoutine(
                userId: userId, routineId: update.routineId, expectedVersion: update.expectedVersion, changes: update.changes,
                idempotencyKey: key)
            return ["routine_id": .string(routine.id), "template_ids": .array(routine.templateIds.map { .string($0) })]
        case (.accept, .templateUpdate):
            let update = try SessionPlanData.templateUpdate(of: content)
            let template = try await services.plans.applyTemplateChanges(
                userId: userId, templateId: update.templateId, expectedVersion: update.expectedVersion, exercises: update.exercises,
                idempotencyKey: key)
            return ["template_id": .string(template.id), "version": .int(template.version)]
        case (.startWorkout, _):
            // A template's session edited away from the template starts as a plan of its own.
            let asTemplate = try !edited || SessionPlanData.template(of: content) == SessionPlanData.template(of: card.data)
            let workout = try await services.workouts.startWorkout(
                userId: userId, start: try SessionPlanData.start(of: content, type: card.type, asTemplate: asTemplate), idempotencyKey: key)
            return ["workout_id": .string(workout.id)]
        case (.saveAsTemplate, _):
            let template = try await services.plans.createTemplate(
                userId: userId, plan: try SessionPlanData.template(of: content), idempotencyKey: key)
            return ["template_id": .string(template.id)]
        case (.accept, .suggestion) where content["action"]?.stringValue == "complete_workout":
            guard let workoutId = content["workout_id"]?.stringValue else {
                throw ServiceError.invalidArgument(field: "data.workout_id", reason: "is required")
            }
            let workout = try await services.workouts.completeWorkout(userId: userId, workoutId: workoutId, idempotencyKey: key)
            return ["workout_id": .string(workout.id)]
        case (.accept, _), (.saveRoutine, _), (.reject, _):
            // Nothing to make: the card is only marked (an accepted suggestion, a rejected card).
            return [:]
        }
    }
}
