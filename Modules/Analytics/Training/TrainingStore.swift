import Contracts
import Foundation
import Platform
import SQLKit

/// Reads and writes Analytics' training tables. Every write goes through the caller's transaction.
enum TrainingStore {
    /// Rows a multi-row INSERT carries at most (18 values a set fact: far under either engine's bind limit).
    static let insertBatch = 200

    /// A transaction-scoped PostgreSQL advisory lock on one user's training analytics: updates of one user run
    /// one after another across replicas, so two workouts of one week never recompute that week from each
    /// other's half-written facts.
    static func lockUser(_ userId: String, tx: Transaction) async throws {
        guard tx.engine == .postgres else { return }
        try await tx.sql.raw("SELECT pg_advisory_xact_lock(74201, hashtext(\(bind: userId)))").run()
    }

    /// Removes one workout's facts and answers the week it was in (nil when it had none).
    static func removeWorkout(userId: String, workoutId: String, sql: any SQLDatabase) async throws -> String? {
        let week = try await sql.raw(
            "SELECT week_start FROM analytics_workouts WHERE user_id = \(bind: userId) AND workout_id = \(bind: workoutId)"
        ).first()?.decode(column: "week_start", as: String.self)
        try await sql.raw("DELETE FROM analytics_set_facts WHERE user_id = \(bind: userId) AND workout_id = \(bind: workoutId)").run()
        try await sql.raw("DELETE FROM analytics_workouts WHERE user_id = \(bind: userId) AND workout_id = \(bind: workoutId)").run()
        return week
    }

    static func insert(userId: String, workouts: [WorkoutFact], sql: any SQLDatabase) async throws {
        for batch in workouts.chunked(insertBatch) {
            let rows: [SQLQueryString] = batch.map { w in
                "(\(bind: userId), \(bind: w.workoutId), \(bind: w.day), \(bind: w.weekStart), \(bind: w.endedAt), \(bind: w.durationSeconds))"
            }
            try await sql.raw(
                """
                INSERT INTO analytics_workouts (user_id, workout_id, day, week_start, ended_at, duration_seconds)
                VALUES \(rows.joined(separator: ", "))
                """
            ).run()
        }
    }

    static func insert(userId: String, sets: [SetFact], sql: any SQLDatabase) async throws {
        for batch in sets.chunked(insertBatch) {
            let rows: [SQLQueryString] = batch.map { s in
                """
                (\(bind: userId), \(bind: s.workoutId), \(bind: s.position), \(bind: s.instanceId), \(bind: s.setId), \(bind: s.exerciseId), \
                \(bind: s.exerciseName), \(bind: s.day), \(bind: s.weekStart), \(bind: s.endedAt), \(bind: s.weightKg), \(bind: s.reps), \
                \(bind: s.rir), \(bind: s.e1rmKg), \(bind: s.volumeKg), \(bind: s.working ? 1 : 0), \
                \(bind: MuscleList.encode(s.primaryMuscles)), \(bind: MuscleList.encode(s.secondaryMuscles)))
                """
            }
            try await sql.raw(
                """
                INSERT INTO analytics_set_facts (user_id, workout_id, position, instance_id, set_id, exercise_id, exercise_name, day,
                    week_start, ended_at, weight_kg, reps, rir, e1rm_kg, volume_kg, working, primary_muscles, secondary_muscles)
                VALUES \(rows.joined(separator: ", "))
                """
            ).run()
        }
    }

    static let setColumns = """
        workout_id, position, instance_id, set_id, exercise_id, exercise_name, day, week_start, ended_at, weight_kg, reps, rir, \
        e1rm_kg, volume_kg, working, primary_muscles, secondary_muscles
        """

    static func setFact(_ row: any SQLRow) throws -> SetFact {
        SetFact(
            workoutId: try row.decode(column: "workout_id", as: String.self),
            instanceId: try row.decode(column: "instance_id", as: String.self),
            setId: try row.decode(column: "set_id", as: String.self), position: try row.decode(column: "position", as: Int.self),
            exerciseId: try row.decode(column: "exercise_id", as: String.self),
            exerciseName: try row.decode(column: "exercise_name", as: String.self), day: try row.decode(column: "day", as: String.self),
            weekStart: try row.decode(column: "week_start", as: String.self), endedAt: try row.decode(column: "ended_at", as: Int64.self),
            weightKg: try row.decode(column: "weight_kg", as: Double.self), reps: try row.decode(column: "reps", as: Int.self),
            rir: try row.decode(column: "rir", as: Int?.self), e1rmKg: try row.decode(column: "e1rm_kg", as: Double.self),
            volumeKg: try row.decode(column: "volume_kg", as: Double.self), working: try row.decode(column: "working", as: Int.self) != 0,
            primaryMuscles: MuscleList.decode(try row.decode(column: "primary_muscles", as: String.self)),
            secondaryMuscles: MuscleList.decode(try row.decode(column: "secondary_muscles", as: String.self)))
    }

    /// The facts of some weeks of the user.
    static func facts(userId: String, weeks: [String], sql: any SQLDatabase) async throws -> (workouts: [WorkoutFact], sets: [SetFact]) {
        guard !weeks.isEmpty else { return ([], []) }
        let workouts = try await sql.raw(
            """
            SELECT workout_id, day, week_start, ended_at, duration_seconds FROM analytics_workouts
            WHERE user_id = \(bind: userId) AND week_start IN (\(binds: weeks))
            """
        ).all().map { row in
            WorkoutFact(
                workoutId: try row.decode(column: "workout_id", as: String.self), day: try row.decode(column: "day", as: String.self),
                weekStart: try row.decode(column: "week_start", as: String.self),
                endedAt: try row.decode(column: "ended_at", as: Int64.self),
                durationSeconds: try row.decode(column: "duration_seconds", as: Int.self))
        }
        let sets = try await sql.raw(
            "SELECT \(unsafeRaw: setColumns) FROM analytics_set_facts WHERE user_id = \(bind: userId) AND week_start IN (\(binds: weeks))"
        ).all().map(setFact)
        return (workouts, sets)
    }

    /// Replaces the weekly rows of `weeks` by `aggregates` (which hold only those weeks).
    static func replaceWeeks(userId: String, weeks: [String], with aggregates: WeeklyAggregates, sql: any SQLDatabase) async throws {
        if !weeks.isEmpty {
            for table in ["analytics_exercise_weeks", "analytics_muscle_weeks", "analytics_weekly_stats"] {
                try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId) AND week_start IN (\(binds: weeks))")
                    .run()
            }
        }
        try await insert(userId: userId, aggregates, sql: sql)
    }

    static func insert(userId: String, _ aggregates: WeeklyAggregates, sql: any SQLDatabase) async throws {
        for batch in aggregates.exercises.chunked(insertBatch) {
            let rows: [SQLQueryString] = batch.map { r in
                """
                (\(bind: userId), \(bind: r.exerciseId), \(bind: r.week.weekStart), \(bind: r.name), \(bind: r.week.e1rmKg), \
                \(bind: r.week.topWeightKg), \
                \(bind: r.week.bestSet.weightKg), \(bind: r.week.bestSet.reps), \(bind: r.week.volumeKg), \(bind: r.week.sets), \
                \(bind: r.week.reps))
                """
            }
            try await sql.raw(
                """
                INSERT INTO analytics_exercise_weeks (user_id, exercise_id, week_start, exercise_name, e1rm_kg, top_weight_kg, best_weight_kg, best_reps,
                    volume_kg, sets, reps)
                VALUES \(rows.joined(separator: ", "))
                """
            ).run()
        }
        for batch in aggregates.muscles.chunked(insertBatch) {
            let rows: [SQLQueryString] = batch.map { r in
                "(\(bind: userId), \(bind: r.muscle), \(bind: r.week.weekStart), \(bind: r.week.sets), \(bind: r.week.volumeKg))"
            }
            try await sql.raw(
                "INSERT INTO analytics_muscle_weeks (user_id, muscle, week_start, sets, volume_kg) VALUES \(rows.joined(separator: ", "))"
            ).run()
        }
        for batch in aggregates.stats.chunked(insertBatch) {
            let rows: [SQLQueryString] = try batch.map { r in
                """
                (\(bind: userId), \(bind: r.weekStart), \(bind: r.workouts), \(bind: r.sets), \(bind: r.reps), \(bind: r.volumeKg), \
                \(bind: r.durationMin), \(bind: try JSONCoding.encodeToString(r.setsByMuscle)))
                """
            }
            try await sql.raw(
                """
                INSERT INTO analytics_weekly_stats (user_id, week_start, workouts, sets, reps, volume_kg, duration_min, sets_by_muscle)
                VALUES \(rows.joined(separator: ", "))
                """
            ).run()
        }
    }

    /// Every training table of Analytics, for erasure and rebuilds.
    static let tables = [
        "analytics_set_facts", "analytics_workouts", "analytics_exercise_weeks", "analytics_muscle_weeks", "analytics_weekly_stats",
    ]

    static func removeUser(_ userId: String, sql: any SQLDatabase) async throws {
        for table in tables {
            try await sql.raw("DELETE FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)").run()
        }
    }
}

/// Muscles in one text column, each between commas (`,chest,triceps,`), so a muscle filter is one LIKE.
enum MuscleList {
    static func encode(_ muscles: [String]) -> String { muscles.isEmpty ? "" : "," + muscles.joined(separator: ",") + "," }
    static func decode(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }
}
