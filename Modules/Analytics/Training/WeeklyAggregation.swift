import Contracts
import Foundation
import Platform

/// The weekly rows of some weeks, computed from those weeks' facts alone. Pure, and summed in one fixed order
/// (workout id, then position), so rows from the incremental path and from a rebuild are equal to the bit.
struct WeeklyAggregates: Sendable, Equatable {
    struct ExerciseRow: Sendable, Equatable {
        var exerciseId: String
        /// The name its last working set of the week was logged under (what the coach's context shows).
        var name: String
        var week: ExerciseWeek
    }

    struct MuscleRow: Sendable, Equatable {
        var muscle: String
        var week: MuscleWeek
    }

    var exercises: [ExerciseRow] = []
    var muscles: [MuscleRow] = []
    var stats: [WeeklyStats] = []

    /// How a secondary muscle counts: half a set and half the volume of each working set (a primary muscle
    /// counts whole). Sets per muscle are then the "fractional sets" lifters and coaches count by.
    static let secondaryShare = 0.5

    /// Aggregates every week present in `workouts` or `sets`. Series (exercise and muscle) count working sets;
    /// weekly stats count every logged set, as a workout's own totals do.
    static func of(workouts: [WorkoutFact], sets: [SetFact]) -> WeeklyAggregates {
        let sets = sets.sorted { ($0.workoutId, $0.position) < ($1.workoutId, $1.position) }
        let workouts = workouts.sorted { $0.workoutId < $1.workoutId }

        struct ExerciseAccumulator {
            var e1rm = 0.0
            var top = 0.0
            var best = (weight: 0.0, reps: 0, e1rm: -1.0)
            var volume = 0.0
            var sets = 0
            var reps = 0
            var name = ""
        }
        var perExercise: [String: [String: ExerciseAccumulator]] = [:]  // week → exercise
        var perMuscle: [String: [String: (sets: Double, volume: Double)]] = [:]  // week → muscle
        var perWeek: [String: (workouts: Int, sets: Int, reps: Int, volume: Double, seconds: Int)] = [:]

        for workout in workouts {
            var week = perWeek[workout.weekStart] ?? (0, 0, 0, 0, 0)
            week.workouts += 1
            week.seconds += workout.durationSeconds
            perWeek[workout.weekStart] = week
        }
        for set in sets {
            var week = perWeek[set.weekStart] ?? (0, 0, 0, 0, 0)
            week.sets += 1
            week.reps += set.reps
            week.volume += set.volumeKg
            perWeek[set.weekStart] = week
            guard set.working else { continue }
            var exercise = perExercise[set.weekStart, default: [:]][set.exerciseId] ?? ExerciseAccumulator()
            exercise.e1rm = max(exercise.e1rm, set.e1rmKg)
            exercise.top = max(exercise.top, set.weightKg)
            if set.e1rmKg > exercise.best.e1rm || (set.e1rmKg == exercise.best.e1rm && set.weightKg > exercise.best.weight) {
                exercise.best = (set.weightKg, set.reps, set.e1rmKg)
            }
            exercise.volume += set.volumeKg
            exercise.sets += 1
            exercise.reps += set.reps
            exercise.name = set.exerciseName
            perExercise[set.weekStart, default: [:]][set.exerciseId] = exercise
            for (muscles, share) in [(set.primaryMuscles, 1.0), (set.secondaryMuscles, secondaryShare)] {
                for muscle in muscles {
                    let entry = perMuscle[set.weekStart, default: [:]][muscle] ?? (0, 0)
                    perMuscle[set.weekStart, default: [:]][muscle] = (entry.sets + share, entry.volume + set.volumeKg * share)
                }
            }
        }

        var result = WeeklyAggregates()
        for (weekStart, exercises) in perExercise.sorted(by: { $0.key < $1.key }) {
            for (id, value) in exercises.sorted(by: { $0.key < $1.key }) {
                result.exercises.append(
                    ExerciseRow(
                        exerciseId: id, name: value.name,
                        week: ExerciseWeek(
                            weekStart: weekStart, e1rmKg: value.e1rm, topWeightKg: value.top,
                            bestSet: .init(weightKg: value.best.weight, reps: value.best.reps), volumeKg: value.volume, sets: value.sets,
                            reps: value.reps)))
            }
        }
        for (weekStart, muscles) in perMuscle.sorted(by: { $0.key < $1.key }) {
            for (muscle, value) in muscles.sorted(by: { $0.key < $1.key }) {
                result.muscles.append(
                    MuscleRow(muscle: muscle, week: MuscleWeek(weekStart: weekStart, sets: value.sets, volumeKg: value.volume)))
            }
        }
        for (weekStart, value) in perWeek.sorted(by: { $0.key < $1.key }) {
            result.stats.append(
                WeeklyStats(
                    weekStart: weekStart, workouts: value.workouts, sets: value.sets, reps: value.reps, volumeKg: value.volume,
                    durationMin: Int(saturating: (Double(value.seconds) / 60).rounded()),
                    setsByMuscle: (perMuscle[weekStart] ?? [:]).mapValues(\.sets)))
        }
        return result
    }
}
