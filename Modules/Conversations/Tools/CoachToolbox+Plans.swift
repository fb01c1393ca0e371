import Contracts
import Foundation
import Platform

extension CoachToolbox {
    /// The active routine's next template (the one after the last completed, or the first), with the routine.
    func nextTemplate() async throws -> (template: WorkoutTemplate, routineId: String)? {
        guard let routine = try await services.plans.activeRoutine(userId: userId), !routine.templateIds.isEmpty else { return nil }
        let index =
            routine.lastCompletedTemplateId.flatMap { routine.templateIds.firstIndex(of: $0) }.map { ($0 + 1) % routine.templateIds.count }
            ?? 0
        return (try await services.plans.template(userId: userId, id: routine.templateIds[index]), routine.id)
    }

    /// Proposes a routine's template as today's session (`session_plan`); starting it counts for the routine.
    func proposeSession(from template: WorkoutTemplate, routineId: String?) async throws -> Artifact {
        try await emit(.status(phase: "tool_start", tool: "propose_workout", detail: nil))
        let artifact = try await propose(
            .sessionPlan, title: template.name,
            data: [
                "template_id": .string(template.id), "routine_id": routineId.map(JSONValue.string) ?? .null, "name": .string(template.name),
                "exercises": .array(
                    try template.exercises.map { exercise in
                        [
                            "exercise_id": .string(exercise.exerciseId), "name": .string(exercise.name),
                            "sets": try JSONValue(encoding: exercise.sets),
                        ]
                    }),
            ])
        try await emit(.status(phase: "tool_end", tool: "propose_workout", detail: nil))
        return artifact
    }
}
