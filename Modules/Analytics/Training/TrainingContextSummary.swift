import Contracts
import Foundation
import Platform
import SQLKit

/// Builds `TrainingContext` from the weekly rows and the last workouts' facts: one statement of indexed reads after the calendar, and
/// a size bounded by its counts (3 workouts × 4 names, 8 muscles, 5 lifts, names cut to 40 characters), not by
/// the history.
struct TrainingContextSummary {
    let queries: TrainingQueries

    static let nameLength = 40

    func summary(userId: String) async throws -> TrainingContext {
        let weeks = try await queries.calendar(userId: userId).lastWeeks(8, now: queries.clock.now())
        let recentFive = Array(weeks[3...])  // the current week and the four before it, oldest first
        let rows = try await readRows(userId: userId, weeks: weeks)

        var workoutsByWeek: [String: Int] = [:]
        var muscles: [TrainingContext.MuscleLoad] = []
        var lifts: [Row] = []
        var recent: [Row] = []
        var recentExercises: [String: [Row]] = [:]
        for row in rows {
            switch row.kind {
            case "w": workoutsByWeek[row.week] = Int(row.count)
            case "m":
                muscles.append(
                    TrainingContext.MuscleLoad(muscle: row.key, sets: row.value, previousAverage: ((row.other ?? 0) / 4).roundedToTenth))
            case "e": lifts.append(row)
            case "r": recent.append(row)
            default: recentExercises[row.key, default: []].append(row)
            }
        }

        muscles.sort { ($0.sets, $0.previousAverage, $1.muscle) > ($1.sets, $1.previousAverage, $0.muscle) }
        let trends = lifts.filter { $0.value > 0 }.sorted { ($0.count, $1.key) > ($1.count, $0.key) }.prefix(5).map { lift in
            TrainingContext.LiftTrend(
                exerciseId: lift.key, name: String(lift.label.prefix(Self.nameLength)), e1rmKg: lift.value.roundedToTenth,
                previousE1rmKg: lift.other.map(\.roundedToTenth))
        }
        let lastWorkouts = recent.sorted { ($0.count, $0.key) > ($1.count, $1.key) }.map { workout in
            let exercises = (recentExercises[workout.key] ?? []).sorted { $0.position < $1.position }
            return TrainingContext.RecentWorkout(
                date: workout.week, sets: Int(exercises.reduce(0) { $0 + $1.count }),
                volumeKg: exercises.reduce(0) { $0 + $1.value }.roundedToTenth,
                exercises: exercises.prefix(4).map { String($0.label.prefix(Self.nameLength)) })
        }

        return TrainingContext(
            weekStart: weeks[7], workoutsPerWeek: recentFive.reversed().map { workoutsByWeek[$0] ?? 0 }, lastWorkouts: lastWorkouts,
            muscles: Array(muscles.prefix(8)), lifts: Array(trends))
    }

    /// One row of the summary's single read; `kind` says which table it came from and what its columns hold:
    /// - `w` a week's stats: `week`, `count` workouts;
    /// - `m` a muscle (`key`) over the last five weeks: `value` sets this week, `other` sets in the four before;
    /// - `e` an exercise (`key`, `label` its latest name) over eight weeks: `count` sets, `value` the best e1RM of
    ///   the last four weeks, `other` the best of the four before (none when it was not done then);
    /// - `r` one of the last three workouts (`key`): `week` its day, `count` its end (for the order);
    /// - `s` an exercise of one of them (`key` the workout, `label` its name): `count` sets, `position` its first
    ///   set's, `value` volume.
    struct Row {
        var kind: String
        var key: String
        var label: String
        var week: String
        var count: Int64
        var position: Int64
        var value: Double
        var other: Double?
    }

    /// Everything the summary needs in one statement, aggregated where it is read (a few dozen rows, not every
    /// weekly row): a pooled connection is taken once per summary, and little crosses to Swift.
    private func readRows(userId: String, weeks: [String]) async throws -> [Row] {
        let (from, recentFrom, liftsRecentFrom, current) = (weeks[0], weeks[3], weeks[4], weeks[7])
        let query: SQLQueryString = """
            WITH last_three AS (
                SELECT workout_id FROM analytics_workouts WHERE user_id = \(bind: userId) ORDER BY ended_at DESC, workout_id DESC LIMIT 3
            )
            SELECT 'w' AS kind, '' AS k, '' AS label, week_start AS week, workouts AS n, CAST(0 AS BIGINT) AS p,
                CAST(0 AS DOUBLE PRECISION) AS v, CAST(NULL AS DOUBLE PRECISION) AS o
            FROM analytics_weekly_stats WHERE user_id = \(bind: userId) AND week_start >= \(bind: recentFrom)
            UNION ALL
            SELECT 'm', muscle, '', '', 0, 0, SUM(CASE WHEN week_start = \(bind: current) THEN sets ELSE 0.0 END),
                SUM(CASE WHEN week_start = \(bind: current) THEN 0.0 ELSE sets END)
            FROM analytics_muscle_weeks WHERE user_id = \(bind: userId) AND week_start >= \(bind: recentFrom) GROUP BY muscle
            UNION ALL
            SELECT 'e', exercise_id,
                (SELECT latest.exercise_name FROM analytics_exercise_weeks latest
                 WHERE latest.user_id = \(bind: userId) AND latest.exercise_id = lift.exercise_id ORDER BY latest.week_start DESC LIMIT 1),
                '', CAST(SUM(sets) AS BIGINT), 0,
                COALESCE(MAX(CASE WHEN week_start >= \(bind: liftsRecentFrom) THEN e1rm_kg END), 0.0),
                MAX(CASE WHEN week_start < \(bind: liftsRecentFrom) THEN e1rm_kg END)
            FROM analytics_exercise_weeks lift WHERE user_id = \(bind: userId) AND week_start >= \(bind: from) GROUP BY exercise_id
            UNION ALL
            SELECT 'r', workout_id, '', day, ended_at, 0, 0.0, NULL
            FROM analytics_workouts WHERE user_id = \(bind: userId) AND workout_id IN (SELECT workout_id FROM last_three)
            UNION ALL
            SELECT 's', workout_id, MAX(exercise_name), '', COUNT(*), MIN(position), SUM(volume_kg), NULL
            FROM analytics_set_facts WHERE user_id = \(bind: userId) AND workout_id IN (SELECT workout_id FROM last_three)
            GROUP BY workout_id, exercise_id
            """
        return try await queries.database.sql.raw(query).all().map { row in
            Row(
                kind: try row.decode(column: "kind", as: String.self), key: try row.decode(column: "k", as: String.self),
                label: try row.decode(column: "label", as: String.self), week: try row.decode(column: "week", as: String.self),
                count: try row.decode(column: "n", as: Int64.self), position: try row.decode(column: "p", as: Int64.self),
                value: try row.decode(column: "v", as: Double.self), other: try row.decode(column: "o", as: Double?.self))
        }
    }
}
