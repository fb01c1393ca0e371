import Contracts
import Foundation
import Platform

/// The daily brief (job `DAILY_BRIEF`): readiness from recent load and the next planned workout. Its data budget
/// is the training context (at most 2 KB), the active routine's next template and the newest insight's headline.
/// Weights are written in the user's unit.
struct DailyBriefAnalysis {
    let analytics: any TrainingAnalytics
    let plans: any PlanLibrary
    let unit: WeightUnit

    func note(userId: String, day: String, newestInsight: AnalysisNote?, now: Date) async throws -> AnalysisNote {
        let context = try await analytics.trainingContext(userId: userId)
        var findings: [String] = []
        let today = CivilCalendar.day(ofText: day) ?? 0
        let lastDay = context.lastWorkouts.first.flatMap { CivilCalendar.day(ofText: $0.date) }
        let recentSets = context.lastWorkouts.filter { workout in
            guard let date = CivilCalendar.day(ofText: workout.date) else { return false }
            return today - date < 7 && date <= today
        }.map(\.sets).reduce(0, +)
        let readiness: String
        if let lastDay, today - lastDay <= 0 {
            readiness = "You trained today already: recover well."
        } else if let lastDay, today - lastDay >= 7 {
            readiness = "Fresh: \(today - lastDay) days since your last workout. Ease back in."
        } else if lastDay == nil {
            readiness = "No workouts logged yet: any session is a good start."
        } else {
            let priorWeeks = context.workoutsPerWeek.dropFirst().prefix(4)
            let priorAverage = priorWeeks.isEmpty ? 0 : Double(priorWeeks.reduce(0, +)) / Double(priorWeeks.count)
            let thisWeek = context.workoutsPerWeek.first ?? 0
            if priorAverage > 0, Double(thisWeek) > priorAverage * 1.3 {
                readiness =
                    "High load: \(thisWeek) workouts this week against \(PostWorkoutAnalysis.one(priorAverage)) a week before. Keep today easier."
            } else {
                readiness = "Ready to train: \(recentSets) sets in your last workouts this week, in line with your usual load."
            }
        }
        findings.append(readiness)
        for muscle in context.muscles.prefix(3) where muscle.previousAverage > 0 && muscle.sets > muscle.previousAverage * 1.5 {
            findings.append(
                "\(muscle.muscle.capitalized) has had \(PostWorkoutAnalysis.one(muscle.sets)) sets this week, well above usual.")
        }
        var headline = readiness
        if let next = try await nextTemplate(userId: userId) {
            let exercises = next.exercises.prefix(5).map { exercise in
                let top = exercise.sets.compactMap(\.targetWeightKg).max()
                return top.map { "\(exercise.name) \(unit.text(kilograms: $0))" } ?? exercise.name
            }
            findings.append("Next planned: \(next.name) (\(exercises.joined(separator: ", "))).")
            headline = "Next up: \(next.name). " + readiness
        }
        if let newestInsight { findings.append("Last analysis: \(newestInsight.headline)") }
        return AnalysisNote(id: "db-\(day)", section: .dailyBrief, period: day, headline: headline, findings: findings, createdAt: now)
    }

    /// The template after the routine's cursor (wrapping), skipping templates no longer there.
    func nextTemplate(userId: String) async throws -> WorkoutTemplate? {
        guard let routine = try await plans.activeRoutine(userId: userId), !routine.templateIds.isEmpty else { return nil }
        let start = routine.lastCompletedTemplateId.flatMap { routine.templateIds.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        for offset in 0..<routine.templateIds.count {
            let id = routine.templateIds[(start + offset) % routine.templateIds.count]
            do {
                return try await plans.template(userId: userId, id: id)
            } catch let error as ServiceError where error.code == .notFound {
                continue
            }
        }
        return nil
    }
}
