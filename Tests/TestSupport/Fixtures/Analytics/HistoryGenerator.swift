import Contracts
import Foundation

/// A lifter's history, generated: `years` of training, about six sessions a week rotating through four days
/// (squat, bench, deadlift, overhead press, rows, accessories), warm-ups and progressing work sets. Seeded, so
/// every run measures the same history (the analytics and recommendations benchmarks).
public struct HistoryGenerator: Sendable {
    public var userId: String
    public var years: Int
    public var seed: UInt64

    public init(userId: String, years: Int = 5, seed: UInt64 = 42) {
        self.userId = userId
        self.years = years
        self.seed = seed
    }

    public static let days: [[(id: String, name: String, sets: Int)]] = [
        [
            ("Barbell_Squat", "Barbell Squat", 5), ("Leg_Press", "Leg Press", 4), ("Lying_Leg_Curls", "Lying Leg Curls", 4),
            ("Standing_Calf_Raises", "Standing Calf Raises", 4), ("Plank", "Plank", 3), ("Barbell_Lunge", "Barbell Lunge", 4),
        ],
        [
            ("Barbell_Bench_Press_-_Medium_Grip", "Barbell Bench Press - Medium Grip", 5),
            ("Incline_Dumbbell_Press", "Incline Dumbbell Press", 4), ("Dips_-_Triceps_Version", "Dips - Triceps Version", 4),
            ("Side_Lateral_Raise", "Side Lateral Raise", 4), ("Triceps_Pushdown", "Triceps Pushdown", 4),
            ("Cable_Crossover", "Cable Crossover", 4),
        ],
        [
            ("Barbell_Deadlift", "Barbell Deadlift", 5), ("Bent_Over_Barbell_Row", "Bent Over Barbell Row", 4), ("Pullups", "Pullups", 4),
            ("Barbell_Curl", "Barbell Curl", 4), ("Face_Pull", "Face Pull", 4), ("Hammer_Curls", "Hammer Curls", 4),
        ],
        [
            ("Standing_Military_Press", "Standing Military Press", 5), ("Romanian_Deadlift", "Romanian Deadlift", 4),
            ("Seated_Cable_Rows", "Seated Cable Rows", 4), ("Wide-Grip_Lat_Pulldown", "Wide-Grip Lat Pulldown", 4),
            ("Dumbbell_Bicep_Curl", "Dumbbell Bicep Curl", 4), ("Leg_Extensions", "Leg Extensions", 4),
        ],
    ]

    /// The workouts, oldest first, ending before `now`.
    public func workouts(now: Date) -> [CompletedWorkout] {
        var random = SeededRandomNumberGenerator(seed: seed)
        var result: [CompletedWorkout] = []
        let sessions = years * 52 * 6 / 1  // about six a week
        let span = Double(years) * 365 * 86_400
        for index in 0..<(sessions * 29 / 30) {  // ≈ 1,500 over five years
            let start = now.addingTimeInterval(
                -span + span * Double(index) / Double(sessions) + Double(Int.random(in: 0..<3600, using: &random)))
            let day = Self.days[index % Self.days.count]
            let progress = Double(index) / Double(sessions)
            var exercises: [WorkoutExercise] = []
            for (position, exercise) in day.enumerated() {
                let top = ((40 + 80 * progress) * (position == 0 ? 1.5 : 0.6) / 2.5).rounded() * 2.5
                var sets: [WorkoutSet] = []
                let warmUps = position == 0 ? 2 : 0
                for setIndex in 0..<(exercise.sets + warmUps) {
                    let weight = setIndex < warmUps ? (top * 0.4 * Double(setIndex + 1) / 2.5).rounded() * 2.5 : top
                    sets.append(
                        WorkoutSet(
                            id: "s\(setIndex)", setIndex: setIndex, targetReps: 8, weightKg: exercise.id == "Pullups" ? 0 : weight,
                            reps: Int.random(in: 5...10, using: &random), rir: Int.random(in: 0...3, using: &random),
                            completedAt: start.addingTimeInterval(Double(60 * (position * 6 + setIndex + 1)))))
                }
                exercises.append(WorkoutExercise(instanceId: "i\(position)", exerciseId: exercise.id, name: exercise.name, sets: sets))
            }
            let end = start.addingTimeInterval(Double(Int.random(in: 45...90, using: &random)) * 60)
            result.append(
                CompletedWorkout(
                    id: String(format: "hist-%06d", index), userId: userId, name: "Day \(index % Self.days.count + 1)",
                    sourceTemplateId: nil,
                    sourceRoutineId: nil, startTime: start, endTime: end, exercises: exercises,
                    analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: 0, reps: 0, volume: 0), exercises: [], muscles: []),
                    createdAt: end,
                    updatedAt: end))
        }
        return result
    }
}

extension HistoryGenerator {
    /// The workouts as Strong exports them (one row per set, local times in UTC, weights in kg), for the import.
    public static func strongCSV(_ workouts: [CompletedWorkout]) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        var lines = ["Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"]
        for workout in workouts {
            let date = formatter.string(from: workout.startTime)
            let minutes = Int(workout.endTime.timeIntervalSince(workout.startTime) / 60)
            for exercise in workout.exercises {
                for (index, set) in exercise.sets.enumerated() {
                    let order = index == 0 && workout.exercises.first?.exerciseId == exercise.exerciseId ? "W" : "\(index + 1)"
                    let rpe = set.rir.map { "\(10 - $0)" } ?? ""
                    lines.append(
                        "\(date),\"\(workout.name ?? "")\",\(minutes)m,\"\(exercise.name)\",\(order),\(set.weightKg ?? 0),\(set.reps ?? 0),0,0,\"\",\"\",\(rpe)"
                    )
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
