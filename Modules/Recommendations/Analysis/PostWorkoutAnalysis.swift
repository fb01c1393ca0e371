import Contracts
import Foundation
import Platform

/// The insight written after a workout (job `POST_WORKOUT`): personal records, stalls, effort against the plan
/// (RIR), the week's volume against the four weeks before, and each exercise's progression step. Deterministic;
/// its data budget is the trimmed workout (its exercises' sets) plus, from Analytics, twelve weeks of each of
/// at most eight exercises' series and five weeks of stats: a few KB whatever the history. Weights are written in
/// the user's unit, and the next weights are on its grid.
struct PostWorkoutAnalysis {
    static let maxExercises = 8

    let analytics: any TrainingAnalytics
    /// The unit the user reads weights in.
    let unit: WeightUnit

    /// One judged exercise and the step it takes.
    typealias Step = (session: ExerciseSession, action: ProgressionAction, reason: String)

    func note(
        for workout: CompletedWorkout, sessions: [ExerciseSession], steps: [Step], calendar: CivilCalendar, now: Date
    ) async throws -> AnalysisNote {
        let userId = workout.userId
        let day = calendar.dayNumber(of: workout.endTime)
        let weekStart = CivilCalendar.text(ofDay: calendar.weekStart(ofDay: day))
        var records: [String] = []
        var stalls: [String] = []
        var findings: [String] = []
        for session in sessions.prefix(Self.maxExercises) {
            let best = Self.bestE1RM(workout, exerciseId: session.exerciseId)
            guard best > 0 else { continue }
            let weeks = try await analytics.exerciseProgress(userId: userId, exerciseId: session.exerciseId, weeks: 12)
            let before = weeks.filter { $0.weekStart < weekStart }
            guard let previousBest = before.map(\.e1rmKg).max() else { continue }
            if best > previousBest + 0.05 {
                records.append(session.name)
                findings.append(
                    "New best on \(session.name): estimated 1RM \(unit.text(kilograms: best)) (was \(unit.text(kilograms: previousBest))).")
            } else if before.count >= 4 {
                let recent = before.suffix(3).map(\.e1rmKg).max() ?? 0
                let earlier = before.dropLast(3).map(\.e1rmKg).max() ?? 0
                if recent <= earlier + 0.05 {
                    stalls.append(session.name)
                    findings.append("\(session.name) has not passed its best estimated 1RM (\(unit.text(kilograms: earlier))) for 3 weeks.")
                }
            }
        }
        for session in sessions {
            guard let drift = session.rirDrift else { continue }
            if drift <= -1 {
                findings.append("\(session.name) was harder than planned: \(Self.one(-drift)) reps in reserve below target on average.")
            } else if drift >= 2 {
                findings.append("\(session.name) was easier than planned: \(Self.one(drift)) reps in reserve above target on average.")
            }
        }
        let stats = try await analytics.weeklyStats(userId: userId, weeks: 5)
        if let week = stats.first(where: { $0.weekStart == weekStart }) {
            let previous = stats.filter { $0.weekStart < weekStart }
            if !previous.isEmpty {
                let average = previous.map(\.volumeKg).reduce(0, +) / 4
                if average > 0 {
                    let change = Int(saturating: ((week.volumeKg / average - 1) * 100).rounded())
                    let direction = change >= 0 ? "above" : "below"
                    findings.append(
                        "This week's volume is \(unit.text(kilograms: week.volumeKg)), \(abs(change))% \(direction) the weekly average of the 4 weeks before."
                    )
                }
            }
        }
        // The progression steps come first: when the note is cut to its budget, what to do next survives.
        findings.insert(
            contentsOf: steps.map { step in
                let change =
                    ProgressionPlanner.weight(step.session.topWeightKg, step.action, unit: unit).map {
                        " Next: \(unit.text(kilograms: $0))."
                    } ?? ""
                let name = step.session.name
                switch (step.action, step.session.prescribed) {
                case (.progress, true): return "\(name): every prescribed set met its target; ready to progress.\(change)"
                case (.progress, false): return "\(name): the top set matched or beat the session before; ready to progress.\(change)"
                case (.deload, true): return "\(name): targets missed two sessions in a row; deload 10%.\(change)"
                case (.deload, false): return "\(name): short of the session before two sessions in a row; deload 10%.\(change)"
                case (.calibrate, _), (.repRange, _): return "\(name): \(step.reason)"
                }
            }, at: 0)
        var headline = workout.name ?? "Workout"
        var parts: [String] = []
        if !records.isEmpty { parts.append(records.count == 1 ? "a new best on \(records[0])" : "\(records.count) new bests") }
        let ready = steps.filter { $0.action == .progress }.count
        if ready > 0 { parts.append(ready == 1 ? "1 lift ready to progress" : "\(ready) lifts ready to progress") }
        if !stalls.isEmpty { parts.append(stalls.count == 1 ? "\(stalls[0]) stalled" : "\(stalls.count) lifts stalled") }
        headline += parts.isEmpty ? ": \(workout.analytics.totals.sets) sets done." : ": " + parts.joined(separator: ", ") + "."
        return AnalysisNote(
            id: "pw-\(workout.id)", section: .insights, period: CivilCalendar.text(ofDay: day), headline: headline, findings: findings,
            createdAt: now)
    }

    /// The workout's best estimated 1RM of the exercise (`StrengthEstimate.epley`, as Analytics computes it).
    static func bestE1RM(_ workout: CompletedWorkout, exerciseId: String) -> Double {
        workout.exercises.filter { $0.exerciseId == exerciseId }.flatMap(\.sets).compactMap { set -> Double? in
            guard let weight = set.weightKg, let reps = set.reps else { return nil }
            return StrengthEstimate.epley(weightKg: weight, reps: reps)
        }.max() ?? 0
    }

    /// One decimal, without a trailing `.0`.
    static func one(_ value: Double) -> String { WeightUnit.oneDecimal(value) }
}
