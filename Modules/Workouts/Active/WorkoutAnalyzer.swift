import Contracts
import Foundation

/// Numbers of a workout, from its logged sets.
enum WorkoutAnalyzer {
    /// Sets, reps and volume (kg × reps) over logged sets.
    static func totals(_ exercises: [WorkoutExercise]) -> WorkoutTotals {
        WorkoutTotals(loggedSetsOf: exercises)
    }

    /// Estimated one-rep max by the Epley formula, 1RM = w · (1 + r / 30); a single is its own max.
    static func estimatedOneRepMax(weightKg: Double, reps: Int) -> Double? {
        guard weightKg > 0, reps > 0 else { return nil }
        return round1(reps == 1 ? weightKg : weightKg * (1 + Double(reps) / 30))
    }

    /// Totals, per exercise (sets, reps, volume, best e1RM) and per primary muscle (sets, volume).
    static func analyze(_ exercises: [WorkoutExercise], catalog: [String: Exercise]) -> WorkoutAnalytics {
        var perExercise: [ExerciseAnalytics] = []
        var perMuscle: [String: MuscleAnalytics] = [:]
        for exercise in exercises {
            let logged = exercise.sets.filter { $0.completedAt != nil }
            guard !logged.isEmpty else { continue }
            let reps = logged.reduce(0) { $0 + ($1.reps ?? 0) }
            let volume = round1(logged.reduce(0) { $0 + ($1.weightKg ?? 0) * Double($1.reps ?? 0) })
            let best = logged.compactMap { estimatedOneRepMax(weightKg: $0.weightKg ?? 0, reps: $0.reps ?? 0) }.max()
            perExercise.append(
                ExerciseAnalytics(
                    instanceId: exercise.instanceId, exerciseId: exercise.exerciseId, name: exercise.name, sets: logged.count, reps: reps,
                    volume: volume, bestE1rm: best))
            for muscle in catalog[exercise.exerciseId]?.primaryMuscles ?? [] {
                var entry = perMuscle[muscle] ?? MuscleAnalytics(muscle: muscle, sets: 0, volume: 0)
                entry.sets += logged.count
                entry.volume = round1(entry.volume + volume)
                perMuscle[muscle] = entry
            }
        }
        let muscles = perMuscle.values.sorted { $0.sets != $1.sets ? $0.sets > $1.sets : $0.muscle < $1.muscle }
        return WorkoutAnalytics(totals: totals(exercises), exercises: perExercise, muscles: muscles)
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
