import Contracts
import Foundation
import Platform
import SQLKit

/// Answers from the weekly rows and set facts (never from history): `TrainingAnalytics` for the coach and the
/// analyst, and the HTTP queries.
struct TrainingQueries: TrainingAnalytics {
    let database: Database
    let accounts: any AccountDirectory
    let clock: any WallClock

    static let weekRange = 1...260

    /// The user's calendar (UTC weeks starting Monday for an account it cannot find).
    func calendar(userId: String) async throws -> CivilCalendar {
        let account = try await accounts.account(userId: userId)
        return CivilCalendar(timeZoneIdentifier: account?.timeZone, weekStartsOnMonday: account?.weekStartsOnMonday ?? true)
    }

    /// The first day of the oldest of the last `weeks` weeks.
    func firstWeek(userId: String, weeks: Int) async throws -> String {
        guard Self.weekRange.contains(weeks) else { throw ServiceError.invalidArgument(field: "weeks", reason: "must be from 1 to 260") }
        return try await calendar(userId: userId).lastWeeks(weeks, now: clock.now())[0]
    }

    func exerciseProgress(userId: String, exerciseId: String, weeks: Int) async throws -> [ExerciseWeek] {
        let from = try await firstWeek(userId: userId, weeks: weeks)
        return try await database.sql.raw(
            """
            SELECT week_start, e1rm_kg, top_weight_kg, best_weight_kg, best_reps, volume_kg, sets, reps FROM analytics_exercise_weeks
            WHERE user_id = \(bind: userId) AND exercise_id = \(bind: exerciseId) AND week_start >= \(bind: from) ORDER BY week_start
            """
        ).all().map { row in
            ExerciseWeek(
                weekStart: try row.decode(column: "week_start", as: String.self),
                e1rmKg: try row.decode(column: "e1rm_kg", as: Double.self),
                topWeightKg: try row.decode(column: "top_weight_kg", as: Double.self),
                bestSet: .init(
                    weightKg: try row.decode(column: "best_weight_kg", as: Double.self),
                    reps: try row.decode(column: "best_reps", as: Int.self)),
                volumeKg: try row.decode(column: "volume_kg", as: Double.self), sets: try row.decode(column: "sets", as: Int.self),
                reps: try row.decode(column: "reps", as: Int.self))
        }
    }

    func exerciseBests(userId: String, weeks: Int) async throws -> [ExerciseBest] {
        let from = try await firstWeek(userId: userId, weeks: weeks)
        let rows = try await database.sql.raw(
            """
            SELECT exercise_id, MAX(e1rm_kg) AS e1rm_kg, MAX(week_start) AS last_week FROM analytics_exercise_weeks
            WHERE user_id = \(bind: userId) AND week_start >= \(bind: from)
            GROUP BY exercise_id ORDER BY last_week DESC, exercise_id LIMIT \(literal: ExerciseBest.limit)
            """
        ).all()
        return try rows.map { row in
            ExerciseBest(
                exerciseId: try row.decode(column: "exercise_id", as: String.self),
                e1rmKg: try row.decode(column: "e1rm_kg", as: Double.self),
                lastWeekStart: try row.decode(column: "last_week", as: String.self))
        }.sorted { $0.exerciseId < $1.exerciseId }
    }

    /// A muscle group lifters name ("back", "legs": `MuscleGroups`) is the sum of its muscles, week by week.
    func muscleProgress(userId: String, muscle: String, weeks: Int) async throws -> [MuscleWeek] {
        let from = try await firstWeek(userId: userId, weeks: weeks)
        let muscles = MuscleGroups.muscles(for: muscle)
        return try await database.sql.raw(
            """
            SELECT week_start, SUM(sets) AS sets, SUM(volume_kg) AS volume_kg FROM analytics_muscle_weeks
            WHERE user_id = \(bind: userId) AND muscle IN (\(binds: muscles)) AND week_start >= \(bind: from)
            GROUP BY week_start ORDER BY week_start
            """
        ).all().map { row in
            MuscleWeek(
                weekStart: try row.decode(column: "week_start", as: String.self), sets: try row.decode(column: "sets", as: Double.self),
                volumeKg: try row.decode(column: "volume_kg", as: Double.self))
        }
    }

    func weeklyStats(userId: String, weeks: Int) async throws -> [WeeklyStats] {
        let from = try await firstWeek(userId: userId, weeks: weeks)
        return try await database.sql.raw(
            """
            SELECT week_start, workouts, sets, reps, volume_kg, duration_min, sets_by_muscle FROM analytics_weekly_stats
            WHERE user_id = \(bind: userId) AND week_start >= \(bind: from) ORDER BY week_start
            """
        ).all().map { row in
            WeeklyStats(
                weekStart: try row.decode(column: "week_start", as: String.self),
                workouts: try row.decode(column: "workouts", as: Int.self),
                sets: try row.decode(column: "sets", as: Int.self), reps: try row.decode(column: "reps", as: Int.self),
                volumeKg: try row.decode(column: "volume_kg", as: Double.self),
                durationMin: try row.decode(column: "duration_min", as: Int.self),
                setsByMuscle: try JSONCoding.load([String: Double].self, from: try row.decode(column: "sets_by_muscle", as: String.self)))
        }
    }

    func trainingSets(userId: String, query: TrainingSetQuery) async throws -> TrainingSetPage {
        guard (1...200).contains(query.limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 200") }
        var conditions: [SQLQueryString] = ["user_id = \(bind: userId)"]
        if let exerciseId = query.exerciseId.nonBlank { conditions.append("exercise_id = \(bind: exerciseId)") }
        if let muscle = query.muscle.nonBlank {
            // A group ("back") is any of its muscles.
            let matches: [SQLQueryString] = MuscleGroups.muscles(for: muscle).map { muscle in
                let pattern = "%," + muscle + ",%"
                return "primary_muscles LIKE \(bind: pattern) OR secondary_muscles LIKE \(bind: pattern)"
            }
            conditions.append("(\(matches.joined(separator: " OR ")))")
        }
        for (field, value, comparison) in [("from", query.from, ">="), ("to", query.to, "<=")] {
            guard let value else { continue }
            guard CivilCalendar.day(ofText: value) != nil else {
                throw ServiceError.invalidArgument(field: field, reason: "must be a date, YYYY-MM-DD")
            }
            conditions.append("day \(unsafeRaw: comparison) \(bind: value)")
        }
        if let cursor = query.cursor.nonBlank {
            guard let position = SetCursor(cursor) else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list")
            }
            conditions.append(
                """
                (ended_at < \(bind: position.endedAt) OR (ended_at = \(bind: position.endedAt) AND (workout_id < \(bind: position.workoutId) \
                OR (workout_id = \(bind: position.workoutId) AND position < \(bind: position.position)))))
                """)
        }
        let rows = try await database.sql.raw(
            """
            SELECT \(unsafeRaw: TrainingStore.setColumns) FROM analytics_set_facts WHERE \(conditions.joined(separator: " AND "))
            ORDER BY ended_at DESC, workout_id DESC, position DESC LIMIT \(literal: query.limit + 1)
            """
        ).all()
        let facts = try rows.prefix(query.limit).map(TrainingStore.setFact)
        let next =
            rows.count > query.limit
            ? facts.last.map { SetCursor(endedAt: $0.endedAt, workoutId: $0.workoutId, position: $0.position).text } : nil
        return TrainingSetPage(
            items: facts.map { fact in
                TrainingSet(
                    workoutId: fact.workoutId, exerciseId: fact.exerciseId, exerciseName: fact.exerciseName, date: fact.day,
                    weekStart: fact.weekStart, weightKg: fact.weightKg, reps: fact.reps, rir: fact.rir, e1rmKg: fact.e1rmKg,
                    volumeKg: fact.volumeKg, working: fact.working, primaryMuscles: fact.primaryMuscles,
                    secondaryMuscles: fact.secondaryMuscles)
            }, nextCursor: next)
    }

    func trainingContext(userId: String) async throws -> TrainingContext {
        try await TrainingContextSummary(queries: self).summary(userId: userId)
    }
}

/// Where a page of sets stopped: the last set's workout end, workout and position.
struct SetCursor: Equatable {
    var endedAt: Int64
    var workoutId: String
    var position: Int

    init(endedAt: Int64, workoutId: String, position: Int) {
        self.endedAt = endedAt
        self.workoutId = workoutId
        self.position = position
    }

    init?(_ text: String) {
        guard text.utf8.count <= 512, let data = Data(base64URLEncoded: text), !data.contains(0),
            let string = String(data: data, encoding: .utf8)
        else { return nil }
        let parts = string.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "s", let position = Int(parts[1]) else { return nil }
        let rest = parts[2].split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard rest.count == 2, let endedAt = Int64(rest[0]) else { return nil }
        self.init(endedAt: endedAt, workoutId: String(rest[1]), position: position)
    }

    var text: String { Data("s|\(position)|\(endedAt)|\(workoutId)".utf8).base64URLEncoded() }
}

extension Optional where Wrapped == String {
    /// The text, unless it is missing or blank (an empty filter is no filter).
    var nonBlank: String? {
        guard let self, !self.allSatisfy(\.isWhitespace) else { return nil }
        return self
    }
}
