import Contracts
import Crypto
import Foundation
import Logging
import Platform

/// The training analyst: runs the three analyses, turns a workout's verdicts into recommendations, and with
/// auto-pilot on applies the template-scoped ones at once. Every run is premium only (gate 1 of docs/recommendations.md's
/// three: a free user's training is never read and nothing is written for them), and safe to run twice: notes
/// and recommendations have deterministic ids.
struct Analyst: Sendable {
    let database: Database
    let clock: any WallClock
    let notes: AnalysisNotes
    let store: RecommendationStore
    let log: any TrainingLog
    let analytics: any TrainingAnalytics
    let plans: any PlanLibrary
    let accounts: any AccountDirectory
    let premium: any PremiumGate
    let events: any ProductEventSink
    let logger: Logger

    /// The user's days and weeks, and the unit they read weights in: the notes a job writes and the weights it
    /// recommends are in that unit as it is when the job runs (kilograms for an account without one).
    func reader(userId: String) async throws -> (calendar: CivilCalendar, unit: WeightUnit) {
        let account = try await accounts.account(userId: userId)
        return (
            CivilCalendar(timeZoneIdentifier: account?.timeZone, weekStartsOnMonday: account?.weekStartsOnMonday ?? true),
            account?.weightUnit ?? .kilograms
        )
    }

    // MARK: POST_WORKOUT

    func analyseWorkout(_ payload: AnalystJobs.PostWorkout) async throws {
        let userId = payload.userId
        guard try await premium.isPremium(userId: userId) else { return }
        guard let workout = try await log.workout(userId: userId, id: payload.workoutId) else { return }
        let now = clock.now()
        // Sets logged without targets are judged against the exercise's previous session.
        var tops: [String: TopSet] = [:]
        for exercise in workout.exercises where tops[exercise.exerciseId] == nil && !exercise.sets.contains(where: { $0.targetReps != nil })
        {
            tops[exercise.exerciseId] = try await store.previousTop(
                userId: userId, exerciseId: exercise.exerciseId, before: workout.endTime, excluding: workout.id)
        }
        let sessions = ExerciseSession.sessions(of: workout, previous: tops)
        var steps: [PostWorkoutAnalysis.Step] = []
        for session in sessions {
            let previous = try await store.previousVerdict(
                userId: userId, exerciseId: session.exerciseId, before: workout.endTime, excluding: workout.id)
            if let (action, reason) = ProgressionPlanner.action(for: session, previous: previous) {
                steps.append((session, action, reason))
            }
        }
        let (calendar, unit) = try await reader(userId: userId)
        let note = try await PostWorkoutAnalysis(analytics: analytics, unit: unit).note(
            for: workout, sessions: sessions, steps: steps, calendar: calendar, now: now)
        let fresh = workout.endTime > now.addingTimeInterval(-RecommendationStore.timeToLive)
        let proposals =
            payload.backfill == true && !fresh
            ? [] : try await proposals(for: workout, steps: steps, sessions: sessions, unit: unit, now: now)
        let store = self.store
        let notes = self.notes
        let expires = workout.endTime.addingTimeInterval(AnalysisNotes.timeToLive(.insights))
        try await database.transaction { tx in
            try await notes.write(note, userId: userId, expiresAt: expires, in: tx)
            try await store.recordSessions(userId: userId, workoutId: workout.id, endedAt: workout.endTime, sessions, in: tx)
            for proposal in proposals {
                try await store.insert(proposal.item, userId: userId, proposed: proposal.exercises, in: tx)
            }
        }
        for proposal in proposals where proposal.item.scope == .template { try await autoApply(userId: userId, id: proposal.item.id) }
    }

    /// A template-scoped recommendation when the user has an active routine and the workout came from a template of
    /// theirs: its weighted sets stepped, its weightless sets calibrated from `sessions`; and one exercise-scoped
    /// recommendation per other exercise that steps (every exercise without such a template). Weights step on `unit`'s
    /// grid.
    func proposals(
        for workout: CompletedWorkout, steps: [PostWorkoutAnalysis.Step], sessions: [ExerciseSession], unit: WeightUnit, now: Date
    ) async throws -> [(item: Recommendation, exercises: [PlannedExercise]?)] {
        let userId = workout.userId
        let expires = now.addingTimeInterval(RecommendationStore.timeToLive)
        var loose = steps
        var result: [(item: Recommendation, exercises: [PlannedExercise]?)] = []
        if try await plans.activeRoutine(userId: userId) != nil, let templateId = workout.sourceTemplateId,
            let template = try await existingTemplate(userId: userId, id: templateId)
        {
            let planned = Set(template.exercises.map(\.exerciseId))
            loose = steps.filter { !planned.contains($0.session.exerciseId) }
            if let (changes, exercises) = ProgressionPlanner.templateChanges(
                template, steps: steps.filter { planned.contains($0.session.exerciseId) }, sessions: sessions, unit: unit)
            {
                let item = Recommendation(
                    id: Self.recommendationId(workoutId: workout.id, target: template.id), scope: .template,
                    target: RecommendationTarget(templateId: template.id, templateName: template.name, templateVersion: template.version),
                    changes: changes, status: .pendingReview, workoutId: workout.id, createdAt: now, expiresAt: expires)
                result.append((item, exercises))
            }
        }
        return result
            + ProgressionPlanner.exerciseChanges(loose, unit: unit).map { change in
                let item = Recommendation(
                    id: Self.recommendationId(workoutId: workout.id, target: change.exerciseId), scope: .exercise,
                    target: RecommendationTarget(exerciseId: change.exerciseId, exerciseName: change.exerciseName), changes: [change],
                    status: .pendingReview, workoutId: workout.id, createdAt: now, expiresAt: expires)
                return (item, nil)
            }
    }

    func existingTemplate(userId: String, id: String) async throws -> WorkoutTemplate? {
        do {
            return try await plans.template(userId: userId, id: id)
        } catch let error as ServiceError where error.code == .notFound {
            return nil
        }
    }

    /// With auto-pilot on (and premium), applies a pending template-scoped recommendation now. A template changed
    /// meanwhile leaves it pending for review.
    func autoApply(userId: String, id: String) async throws {
        guard try await store.autoPilot(userId: userId), try await premium.isPremium(userId: userId),
            let (item, proposed) = try await store.find(userId: userId, id: id), item.status == .pendingReview
        else { return }
        do {
            try await RecommendationReview.apply(item, proposed: proposed, userId: userId, plans: plans)
        } catch let error as ServiceError where error.code == .conflict || error.code == .failedPrecondition {
            logger.info(
                "auto-pilot left a recommendation for review",
                metadata: ["event": "recommendation_not_applied", "recommendation_id": "\(id)", "reason": "\(error.code.rawValue)"])
            return
        }
        let now = clock.now()
        let store = self.store
        guard try await database.transaction({ tx in try await store.resolve(userId: userId, id: id, to: .applied, at: now, in: tx) })
        else {
            return
        }
        try await events.record(
            userId: userId, name: "recommendation_action",
            params: ["action": .string("auto_applied"), "type": .string(item.scope.rawValue)],
            occurredAt: now, eventId: "recommendation:\(id):auto_applied")
    }

    /// `rec-` and 32 hex characters of SHA-256 over the workout and the target: the same analysis of the same
    /// workout names the same recommendation.
    static func recommendationId(workoutId: String, target: String) -> String {
        "rec-" + SHA256.hash(data: Data("\(workoutId)\u{1F}\(target)".utf8)).prefix(16).hexString
    }

    // MARK: DAILY_BRIEF and WEEKLY_REVIEW

    func writeDailyBrief(_ payload: AnalystJobs.DailyBrief) async throws {
        guard try await premium.isPremium(userId: payload.userId) else { return }
        let now = clock.now()
        let newest = try await notes.summary(userId: payload.userId, sections: [.insights], date: nil, limit: 1).insights.first
        let unit = try await reader(userId: payload.userId).unit
        let note = try await DailyBriefAnalysis(analytics: analytics, plans: plans, unit: unit).note(
            userId: payload.userId, day: payload.day, newestInsight: newest, now: now)
        let notes = self.notes
        try await database.transaction { tx in
            try await notes.write(
                note, userId: payload.userId, expiresAt: now.addingTimeInterval(AnalysisNotes.timeToLive(.dailyBrief)), in: tx)
        }
    }

    func writeWeeklyReview(_ payload: AnalystJobs.WeeklyReview) async throws {
        guard try await premium.isPremium(userId: payload.userId) else { return }
        let now = clock.now()
        let unit = try await reader(userId: payload.userId).unit
        let (note, stalls) = try await WeeklyReviewAnalysis(analytics: analytics, plans: plans, unit: unit).note(
            userId: payload.userId, weekStart: payload.weekStart, now: now)
        // A review of a week long past (a backfill) lives 30 days from the week's end, not from today.
        let weekEnd = Date(timeIntervalSince1970: Double((CivilCalendar.day(ofText: payload.weekStart) ?? 0) + 7) * 86_400)
        let expires = min(now, weekEnd).addingTimeInterval(AnalysisNotes.timeToLive(.weeklyReview))
        // Only a week ended in the last 7 days proposes anything (a backfilled one's would be stale at birth).
        let proposals =
            weekEnd > now.addingTimeInterval(-RecommendationStore.timeToLive)
            ? try await stallProposals(userId: payload.userId, period: note.period, stalls: stalls, unit: unit, now: now) : []
        let notes = self.notes
        let store = self.store
        try await database.transaction { tx in
            try await notes.write(note, userId: payload.userId, expiresAt: expires, in: tx)
            for proposal in proposals {
                try await store.insert(proposal.item, userId: payload.userId, proposed: proposal.exercises, in: tx)
            }
        }
        for proposal in proposals where proposal.item.scope == .template {
            try await autoApply(userId: payload.userId, id: proposal.item.id)
        }
    }
}
