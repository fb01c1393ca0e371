import Contracts
import Foundation

extension Analyst {
    /// How long after a weekly review proposed something for a lift no other review proposes for it: the 4 weeks
    /// its e1RM is compared over, so a change gets a block to work.
    static let stallCooldown: TimeInterval = 28 * 86_400

    /// The weekly review's recommendations for its stalled lifts (`StallPlanner`): for each template of the active
    /// routine that plans one, a template-scoped change; for a stalled lift no template plans, an exercise-scoped one
    /// from its newest week. None for a lift a review proposed for in the last 4 weeks. Ids are the review's week
    /// and the target, so the same review run twice stores each once.
    func stallProposals(userId: String, period: String, stalls: [StallPlanner.Stall], unit: WeightUnit, now: Date) async throws
        -> [(item: Recommendation, exercises: [PlannedExercise]?)]
    {
        guard !stalls.isEmpty else { return [] }
        let recent = try await store.reviewedExercises(userId: userId, since: now.addingTimeInterval(-Self.stallCooldown))
        let open = stalls.filter { !recent.contains($0.exerciseId) }
        guard !open.isEmpty else { return [] }
        let source = "wr-\(period)"
        let expires = now.addingTimeInterval(RecommendationStore.timeToLive)
        var result: [(item: Recommendation, exercises: [PlannedExercise]?)] = []
        var planned: Set<String> = []
        if let routine = try await plans.activeRoutine(userId: userId) {
            for templateId in routine.templateIds {
                guard let template = try await existingTemplate(userId: userId, id: templateId) else { continue }
                planned.formUnion(template.exercises.map(\.exerciseId))
                guard let (changes, exercises) = StallPlanner.templateChanges(template, stalls: open, unit: unit) else { continue }
                let item = Recommendation(
                    id: Self.recommendationId(workoutId: source, target: template.id), scope: .template,
                    target: RecommendationTarget(templateId: template.id, templateName: template.name, templateVersion: template.version),
                    changes: changes, status: .pendingReview, workoutId: nil, createdAt: now, expiresAt: expires)
                result.append((item, exercises))
            }
        }
        for stall in open where !planned.contains(stall.exerciseId) {
            guard let week = try await analytics.exerciseProgress(userId: userId, exerciseId: stall.exerciseId, weeks: 4).last,
                let change = StallPlanner.exerciseChange(stall, week: week, unit: unit)
            else { continue }
            let item = Recommendation(
                id: Self.recommendationId(workoutId: source, target: stall.exerciseId), scope: .exercise,
                target: RecommendationTarget(exerciseId: stall.exerciseId, exerciseName: stall.name), changes: [change],
                status: .pendingReview, workoutId: nil, createdAt: now, expiresAt: expires)
            result.append((item, nil))
        }
        return result
    }
}
