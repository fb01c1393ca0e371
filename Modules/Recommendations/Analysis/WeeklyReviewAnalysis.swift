import Contracts
import Foundation
import Platform

/// The weekly review (job `WEEKLY_REVIEW`) of the week just ended: progression of the top lifts, working sets per
/// muscle against a target range, adherence to the routine. Its data budget is twelve weeks of stats, the
/// training context's lifts (top five) and the active routine. Weights are written in the user's unit.
struct WeeklyReviewAnalysis {
    /// Working sets a week per muscle that most programs aim at for growth.
    static let targetSets = 10.0...20.0

    let analytics: any TrainingAnalytics
    let plans: any PlanLibrary
    let unit: WeightUnit

    /// `weekStart` is the reviewed week's first day. Answers the note and the top lifts that stalled
    /// (`StallPlanner`), which the note names.
    func note(userId: String, weekStart: String, now: Date) async throws -> (note: AnalysisNote, stalls: [StallPlanner.Stall]) {
        let stats = try await analytics.weeklyStats(userId: userId, weeks: 12)
        let context = try await analytics.trainingContext(userId: userId)
        let week = stats.first { $0.weekStart == weekStart }
        var findings: [String] = []
        for lift in context.lifts {
            if let previous = lift.previousE1rmKg, previous > 0 {
                let change = lift.e1rmKg - previous
                let word = change > 0.05 ? "up" : change < -0.05 ? "down" : "flat"
                findings.append(
                    "\(lift.name): estimated 1RM \(unit.text(kilograms: lift.e1rmKg)), \(word) \(unit.text(kilograms: abs(change))) on the 4 weeks before."
                )
            } else {
                findings.append("\(lift.name): estimated 1RM \(unit.text(kilograms: lift.e1rmKg)).")
            }
        }
        let stalls = StallPlanner.stalls(context.lifts)
        if !stalls.isEmpty {
            findings.append("Stalled: \(stalls.map(\.name).joined(separator: ", ")).")
        }
        if let week {
            let low = week.setsByMuscle.filter { $0.value > 0 && $0.value < Self.targetSets.lowerBound }.keys.sorted()
            let high = week.setsByMuscle.filter { $0.value > Self.targetSets.upperBound }.keys.sorted()
            if !low.isEmpty { findings.append("Under 10 working sets: \(low.prefix(6).joined(separator: ", ")).") }
            if !high.isEmpty { findings.append("Over 20 working sets: \(high.prefix(6).joined(separator: ", ")).") }
        }
        let done = week?.workouts ?? 0
        var headline = "Week of \(weekStart): \(done) workout\(done == 1 ? "" : "s")"
        if let routine = try await plans.activeRoutine(userId: userId) {
            let planned = routine.frequency ?? routine.templateIds.count
            if planned > 0 {
                let percent = min(100, Int(saturating: (Double(done) / Double(planned) * 100).rounded()))
                findings.append("Adherence to \(routine.name): \(done) of \(planned) planned workouts (\(percent)%).")
                headline += " of \(planned) planned"
            }
        }
        let earlier = stats.filter { $0.weekStart < weekStart }.suffix(4)
        if let week, !earlier.isEmpty {
            let average = earlier.map(\.volumeKg).reduce(0, +) / Double(earlier.count)
            if average > 0 {
                let change = Int(saturating: ((week.volumeKg / average - 1) * 100).rounded())
                findings.append(
                    "Volume \(unit.text(kilograms: week.volumeKg)), \(abs(change))% \(change >= 0 ? "above" : "below") the weeks before.")
            }
        }
        headline += "."
        let period = Self.isoWeek(ofDay: CivilCalendar.day(ofText: weekStart) ?? 0)
        let note = AnalysisNote(
            id: "wr-\(period)", section: .weeklyReview, period: period, headline: headline, findings: findings, createdAt: now)
        return (note, stalls)
    }

    /// `YYYY-Www`: the ISO week of the middle of the week starting on `day` (three days on, so a Sunday-based week is
    /// named as the ISO week most of its days fall in).
    static func isoWeek(ofDay day: Int) -> String {
        let thursday = day + 3
        // Monday-based weekday of `thursday` (1970-01-01 was a Thursday, index 3); move to the Thursday of its week.
        let weekday = ((thursday + 3) % 7 + 7) % 7
        let isoThursday = thursday - weekday + 3
        let year = Int(CivilCalendar.text(ofDay: isoThursday).prefix(4)) ?? 1970
        let firstDay = CivilCalendar.day(ofText: "\(year)-01-01") ?? 0
        let week = (isoThursday - firstDay) / 7 + 1
        return "\(year)-W\(week < 10 ? "0" : "")\(week)"
    }
}
