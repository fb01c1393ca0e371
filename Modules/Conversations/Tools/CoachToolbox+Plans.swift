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

    /// The starting weights of this turn's proposals: the user's history, in their unit.
    func startingWeights() async throws -> StartingWeights {
        try await StartingWeights.load(
            userId: userId, analytics: services.analytics, catalog: services.catalog, unit: weightUnit, logger: logger)
    }
}
