import Contracts
import Foundation
import Platform
import SQLKit

/// Builds `TrainingContext` from the weekly rows and the last workouts' facts: a handful of indexed reads, and
/// a size bounded by its counts (3 workouts × 4 names, 8 muscles, 5 lifts, names cut to 40 characters), not by
/// the history.
struct TrainingContextSummary {
    let queries: TrainingQueries

    static let nameLength = 40

    func summary(userId: String) async throws -> TrainingContext {
        let sql = queries.database.sql
        let weeks = try await queries.calendar(userId: userId).lastWeeks(8, now: queries.clock.now())
        let current = weeks[7]
        let recentFive = Array(weeks[3...])  // the current week and the four before it, oldest first

        let workoutsByWeek = try await sql.raw(
            """
            SELECT week_start, workouts FROM analytics_weekly_stats WHERE user_id = \(bind: userId) AND week_start >= \(bind: recentFive[0])
            """
        ).all().reduce(into: [String: Int]()) { result, row in
            result[try row.decode(column: "week_start", as: String.self)] = try row.decode(column: "workouts", as: Int.self)
        }

        let muscles = try await sql.raw(
            "SELECT muscle, week_start, sets FROM analytics_muscle_weeks WHERE user_id = \(bind: userId) AND week_start >= \(bind: recentFive[0])"
        ).all().reduce(into: [String: (now: Double, before: Double)]()) { result, row in
            let muscle = try row.decode(column: "muscle", as: String.self)
            let sets = try row.decode(column: "sets", as: Double.self)
            var entry = result[muscle] ?? (0, 0)
            if try row.decode(column: "week_start", as: String.self) == current { entry.now += sets } else { entry.before += sets }
            result[muscle] = entry
        }
        .map { TrainingContext.MuscleLoad(muscle: $0.key, sets: $0.value.now, previousAverage: ($0.value.before / 4).roundedToTenth) }
        .sorted { ($0.sets, $0.previousAverage, $1.muscle) > ($1.sets, $1.previousAverage, $0.muscle) }

        var lifts: [String: (sets: Int, recent: Double, before: Double?, name: String, week: String)] = [:]
        for row in try await sql.raw(
            """
            SELECT exercise_id, exercise_name, week_start, e1rm_kg, sets FROM analytics_exercise_weeks
            WHERE user_id = \(bind: userId) AND week_start >= \(bind: weeks[0])
            """
        ).all() {
            let id = try row.decode(column: "exercise_id", as: String.self)
            let week = try row.decode(column: "week_start", as: String.self)
            let e1rm = try row.decode(column: "e1rm_kg", as: Double.self)
            var entry = lifts[id] ?? (0, 0, nil, "", "")
            entry.sets += try row.decode(column: "sets", as: Int.self)
            if week >= weeks[4] {
                entry.recent = max(entry.recent, e1rm)
            } else {
                entry.before = max(entry.before ?? 0, e1rm)
            }
            if week >= entry.week {
                entry.week = week
                entry.name = try row.decode(column: "exercise_name", as: String.self)
            }
            lifts[id] = entry
        }
        let trends = lifts.filter { $0.value.recent > 0 }.sorted { ($0.value.sets, $1.key) > ($1.value.sets, $0.key) }.prefix(5).map {
            id, entry in
            TrainingContext.LiftTrend(
                exerciseId: id, name: String(entry.name.prefix(Self.nameLength)), e1rmKg: entry.recent.roundedToTenth,
                previousE1rmKg: entry.before.map(\.roundedToTenth))
        }

        var lastWorkouts: [TrainingContext.RecentWorkout] = []
        for row in try await sql.raw(
            "SELECT workout_id, day FROM analytics_workouts WHERE user_id = \(bind: userId) ORDER BY ended_at DESC, workout_id DESC LIMIT 3"
        ).all() {
            let workoutId = try row.decode(column: "workout_id", as: String.self)
            let sets = try await sql.raw(
                """
                SELECT exercise_id, exercise_name, volume_kg FROM analytics_set_facts
                WHERE user_id = \(bind: userId) AND workout_id = \(bind: workoutId) ORDER BY position
                """
            ).all()
            var names: [String] = []
            var seen = Set<String>()
            var volume = 0.0
            for set in sets {
                volume += try set.decode(column: "volume_kg", as: Double.self)
                if seen.insert(try set.decode(column: "exercise_id", as: String.self)).inserted, names.count < 4 {
                    names.append(String(try set.decode(column: "exercise_name", as: String.self).prefix(Self.nameLength)))
                }
            }
            lastWorkouts.append(
                TrainingContext.RecentWorkout(
                    date: try row.decode(column: "day", as: String.self), sets: sets.count, volumeKg: volume.roundedToTenth,
                    exercises: names)
            )
        }

        return TrainingContext(
            weekStart: current, workoutsPerWeek: recentFive.reversed().map { workoutsByWeek[$0] ?? 0 }, lastWorkouts: lastWorkouts,
            muscles: Array(muscles.prefix(8)), lifts: Array(trends))
    }
}
