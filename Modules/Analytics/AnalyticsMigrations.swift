import Foundation
import Platform

/// Analytics' tables. Training analytics use versions 1–99; product events 101 on.
enum AnalyticsMigrations {
    static let training: [Migration] = [
        Migration(version: 1, name: "training facts and weekly series") { engine in
            let double = engine.doubleType
            return [
                """
                CREATE TABLE analytics_workouts (
                    user_id TEXT NOT NULL,
                    workout_id TEXT NOT NULL,
                    day TEXT NOT NULL,
                    week_start TEXT NOT NULL,
                    ended_at BIGINT NOT NULL,
                    duration_seconds BIGINT NOT NULL,
                    PRIMARY KEY (user_id, workout_id)
                )
                """,
                "CREATE INDEX analytics_workouts_week ON analytics_workouts (user_id, week_start)",
                """
                CREATE TABLE analytics_set_facts (
                    user_id TEXT NOT NULL,
                    workout_id TEXT NOT NULL,
                    position BIGINT NOT NULL,
                    instance_id TEXT NOT NULL,
                    set_id TEXT NOT NULL,
                    exercise_id TEXT NOT NULL,
                    exercise_name TEXT NOT NULL,
                    day TEXT NOT NULL,
                    week_start TEXT NOT NULL,
                    ended_at BIGINT NOT NULL,
                    weight_kg \(double) NOT NULL,
                    reps BIGINT NOT NULL,
                    rir BIGINT,
                    e1rm_kg \(double) NOT NULL,
                    volume_kg \(double) NOT NULL,
                    working BIGINT NOT NULL,
                    primary_muscles TEXT NOT NULL,
                    secondary_muscles TEXT NOT NULL,
                    PRIMARY KEY (user_id, workout_id, position)
                )
                """,
                "CREATE INDEX analytics_set_facts_week ON analytics_set_facts (user_id, week_start)",
                "CREATE INDEX analytics_set_facts_recent ON analytics_set_facts (user_id, ended_at, workout_id, position)",
                """
                CREATE TABLE analytics_exercise_weeks (
                    user_id TEXT NOT NULL,
                    exercise_id TEXT NOT NULL,
                    week_start TEXT NOT NULL,
                    exercise_name TEXT NOT NULL,
                    e1rm_kg \(double) NOT NULL,
                    top_weight_kg \(double) NOT NULL,
                    best_weight_kg \(double) NOT NULL,
                    best_reps BIGINT NOT NULL,
                    volume_kg \(double) NOT NULL,
                    sets BIGINT NOT NULL,
                    reps BIGINT NOT NULL,
                    PRIMARY KEY (user_id, exercise_id, week_start)
                )
                """,
                "CREATE INDEX analytics_exercise_weeks_week ON analytics_exercise_weeks (user_id, week_start)",
                """
                CREATE TABLE analytics_muscle_weeks (
                    user_id TEXT NOT NULL,
                    muscle TEXT NOT NULL,
                    week_start TEXT NOT NULL,
                    sets \(double) NOT NULL,
                    volume_kg \(double) NOT NULL,
                    PRIMARY KEY (user_id, muscle, week_start)
                )
                """,
                "CREATE INDEX analytics_muscle_weeks_week ON analytics_muscle_weeks (user_id, week_start)",
                """
                CREATE TABLE analytics_weekly_stats (
                    user_id TEXT NOT NULL,
                    week_start TEXT NOT NULL,
                    workouts BIGINT NOT NULL,
                    sets BIGINT NOT NULL,
                    reps BIGINT NOT NULL,
                    volume_kg \(double) NOT NULL,
                    duration_min BIGINT NOT NULL,
                    sets_by_muscle TEXT NOT NULL,
                    PRIMARY KEY (user_id, week_start)
                )
                """,
            ]
        },
        Migration(version: 2, name: "a user's last workouts without a sort") { _ in
            ["CREATE INDEX analytics_workouts_recent ON analytics_workouts (user_id, ended_at, workout_id)"]
        },
    ]
}
