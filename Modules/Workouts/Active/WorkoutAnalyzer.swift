import Contracts
import Foundation

/// Numbers of a workout, from its logged sets.
enum WorkoutAnalyzer {
    /// Sets, reps and volume (kg × reps) over logged sets.
    static func totals(_ exercises: [WorkoutExercise]) -> WorkoutTotals {
        WorkoutTotals(loggedSetsOf: exercises)
    }

    /// The project's estimated one-rep max (`StrengthEstimate.epley`), to a tenth as the workout's numbers show.
    static func estimatedOneRepMax(weightKg: Double, reps: Int) -> Double? {
        StrengthEstimate.epley(weightKg: weightKg, reps: reps)?.roundedToTenth
    }

    /// Totals, per exercise (sets, reps, volume, best e1RM) and per primary muscle (sets, volume).
    ///
    /// Every level sums the sets' exact volumes and rounds its own sum once (to 0.1 kg), as the totals do, so
    /// a muscle's volume is its exercises' volume however those round: two sets of 33.75 kg are 67.5 kg for
    /// the muscle and in the totals, though each exercise shows 33.8.
    static func analyze(_ exercises: [WorkoutExercise], catalog: [String: Exercise]) -> WorkoutAnalytics {
        var perExercise: [ExerciseAnalytics] = []
        var perMuscle: [String: (sets: Int, volume: Double)] = [:]
        for exercise in exercises {
            let logged = exercise.sets.filter { $0.completedAt != nil }
            guard !logged.isEmpty else { continue }
            let reps = logged.reduce(0) { $0 + ($1.reps ?? 0) }
            let volume = logged.reduce(0) { $0 + ($1.weightKg ?? 0) * Double($1.reps ?? 0) }
            let best = logged.compactMap { estimatedOneRepMax(weightKg: $0.weightKg ?? 0, reps: $0.reps ?? 0) }.max()
            perExercise.append(
                ExerciseAnalytics(
                    instanceId: exercise.instanceId, exerciseId: exercise.exerciseId, name: exercise.name, sets: logged.count, reps: reps,
                    volume: volume.roundedToTenth, bestE1rm: best))
            for muscle in catalog[exercise.exerciseId]?.primaryMuscles ?? [] {
                let entry = perMuscle[muscle] ?? (0, 0)
                perMuscle[muscle] = (entry.sets + logged.count, entry.volume + volume)
            }
        }
        let muscles = perMuscle.map { MuscleAnalytics(muscle: $0.key, sets: $0.value.sets, volume: $0.value.volume.roundedToTenth) }
            .sorted { $0.sets != $1.sets ? $0.sets > $1.sets : $0.muscle < $1.muscle }
        return WorkoutAnalytics(totals: totals(exercises), exercises: perExercise, muscles: muscles)
    }

}
