import Contracts
import Foundation
import Platform

/// One logged set as `analytics_set_facts` holds it.
struct SetFact: Sendable, Equatable {
    var workoutId: String
    var instanceId: String
    var setId: String
    /// The set's place in its workout (exercise by exercise, set by set).
    var position: Int
    var exerciseId: String
    var exerciseName: String
    var day: String
    var weekStart: String
    /// The workout's end, in milliseconds: sets are listed newest first by it.
    var endedAt: Int64
    var weightKg: Double
    var reps: Int
    var rir: Int?
    var e1rmKg: Double
    var volumeKg: Double
    var working: Bool
    var primaryMuscles: [String]
    var secondaryMuscles: [String]
}

/// One completed workout as `analytics_workouts` holds it.
struct WorkoutFact: Sendable, Equatable {
    var workoutId: String
    var day: String
    var weekStart: String
    var endedAt: Int64
    var durationSeconds: Int
}

/// Turns a completed workout into its facts. Pure, so the incremental path and the rebuild derive the same rows.
enum TrainingFacts {
    /// A set lighter than this share of its exercise's heaviest set in the workout is a warm-up.
    static let warmUpShare = 0.5

    /// The project's e1RM (`StrengthEstimate.epley`); 0 without weight or reps.
    static func e1rm(weightKg: Double, reps: Int) -> Double {
        StrengthEstimate.epley(weightKg: weightKg, reps: reps) ?? 0
    }

    /// The workout's facts. Its day and week are those of its start in the user's calendar; a set counts once
    /// logged (`completed_at` set, as the workout's own totals count it). Muscles come from `catalog` (an
    /// exercise no longer in it keeps its sets, with no muscles).
    static func derive(_ workout: CompletedWorkout, calendar: CivilCalendar, catalog: [String: Exercise]) -> (
        workout: WorkoutFact, sets: [SetFact]
    ) {
        let dayNumber = calendar.dayNumber(of: workout.startTime)
        let day = CivilCalendar.text(ofDay: dayNumber)
        let week = CivilCalendar.text(ofDay: calendar.weekStart(ofDay: dayNumber))
        let endedAt = workout.endTime.millisecondsSince1970
        let fact = WorkoutFact(
            workoutId: workout.id, day: day, weekStart: week, endedAt: endedAt,
            durationSeconds: max(0, Int(saturating: workout.endTime.timeIntervalSince(workout.startTime).rounded())))
        var sets: [SetFact] = []
        var position = 0
        for exercise in workout.exercises {
            let logged = exercise.sets.filter { $0.completedAt != nil }
            let heaviest = logged.map { max(0, $0.weightKg ?? 0) }.max() ?? 0
            let entry = catalog[exercise.exerciseId]
            for set in logged {
                let weight = max(0, set.weightKg ?? 0)
                let reps = max(0, set.reps ?? 0)
                sets.append(
                    SetFact(
                        workoutId: workout.id, instanceId: exercise.instanceId, setId: set.id, position: position,
                        exerciseId: exercise.exerciseId, exerciseName: exercise.name, day: day, weekStart: week, endedAt: endedAt,
                        weightKg: weight, reps: reps, rir: set.rir, e1rmKg: e1rm(weightKg: weight, reps: reps),
                        volumeKg: weight * Double(reps), working: weight >= heaviest * warmUpShare,
                        primaryMuscles: entry?.primaryMuscles ?? [], secondaryMuscles: entry?.secondaryMuscles ?? []))
                position += 1
            }
        }
        return (fact, sets)
    }
}
