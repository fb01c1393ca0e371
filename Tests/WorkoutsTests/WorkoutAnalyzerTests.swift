import Contracts
import Foundation
import Testing

@testable import Workouts

@Suite struct WorkoutAnalyzerTests {
    /// The project's one rule (`StrengthEstimate.epley`, as Analytics and the analyst read it): a single is Epley too.
    @Test func epleyEstimatesOneRepMax() {
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 100, reps: 1) == 103.3)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 100, reps: 10) == 133.3)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 60, reps: 5) == 70)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 0, reps: 10) == nil)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 80, reps: 0) == nil)
    }

    @Test func analyticsCountOnlyLoggedSets() {
        let done = Date()
        let exercises = [
            WorkoutExercise(
                instanceId: "i1", exerciseId: "bench", name: "Bench",
                sets: [
                    WorkoutSet(id: "s1", setIndex: 0, weightKg: 100, reps: 5, completedAt: done),
                    WorkoutSet(id: "s2", setIndex: 1, weightKg: 100, reps: 3, completedAt: done),
                    WorkoutSet(id: "s3", setIndex: 2, targetReps: 5),
                ]),
            WorkoutExercise(
                instanceId: "i2", exerciseId: "curl", name: "Curl",
                sets: [WorkoutSet(id: "s4", setIndex: 0, weightKg: 12.5, reps: 10, completedAt: done)]),
            WorkoutExercise(instanceId: "i3", exerciseId: "row", name: "Row", sets: [WorkoutSet(id: "s5", setIndex: 0)]),
        ]
        let catalog = [
            "bench": Exercise(id: "bench", name: "Bench", category: "strength", primaryMuscles: ["chest"], secondaryMuscles: ["triceps"]),
            "curl": Exercise(id: "curl", name: "Curl", category: "strength", primaryMuscles: ["biceps"]),
        ]
        let analytics = WorkoutAnalyzer.analyze(exercises, catalog: catalog)
        #expect(analytics.totals == WorkoutTotals(sets: 3, reps: 18, volume: 925))
        #expect(analytics.exercises.map(\.exerciseId) == ["bench", "curl"])
        #expect(analytics.exercises[0].volume == 800)
        #expect(analytics.exercises[0].bestE1rm == 116.7)
        #expect(
            analytics.muscles == [
                MuscleAnalytics(muscle: "chest", sets: 2, volume: 800), MuscleAnalytics(muscle: "biceps", sets: 1, volume: 125),
            ])
    }

    /// Each level rounds its own exact sum once, so a muscle's volume and the totals agree whatever the
    /// exercises' volumes round to.
    @Test func volumesRoundOncePerLevel() {
        let done = Date()
        let exercises = ["press", "fly"].map { id in
            WorkoutExercise(
                instanceId: "i-\(id)", exerciseId: id, name: id,
                sets: [WorkoutSet(id: "s-\(id)", setIndex: 0, weightKg: 11.25, reps: 3, completedAt: done)])
        }
        let catalog = [
            "press": Exercise(id: "press", name: "Press", category: "strength", primaryMuscles: ["chest"]),
            "fly": Exercise(id: "fly", name: "Fly", category: "strength", primaryMuscles: ["chest"]),
        ]
        let analytics = WorkoutAnalyzer.analyze(exercises, catalog: catalog)
        #expect(analytics.exercises.map(\.volume) == [33.8, 33.8])
        #expect(analytics.muscles == [MuscleAnalytics(muscle: "chest", sets: 2, volume: 67.5)])
        #expect(analytics.totals.volume == 67.5)
    }

    @Test func templateAnalyticsEstimateDurationAndMuscles() {
        let exercises = [
            TemplateExercise(exerciseId: "bench", name: "Bench", sets: Array(repeating: TemplateSet(targetReps: 8), count: 4)),
            TemplateExercise(exerciseId: "curl", name: "Curl", sets: Array(repeating: TemplateSet(targetReps: 12), count: 2)),
            TemplateExercise(exerciseId: "squat", name: "Squat", sets: []),  // no sets planned: trains nothing
        ]
        let catalog = [
            "bench": Exercise(id: "bench", name: "Bench", category: "strength", primaryMuscles: ["chest"]),
            "curl": Exercise(id: "curl", name: "Curl", category: "strength", primaryMuscles: ["biceps"]),
            "squat": Exercise(id: "squat", name: "Squat", category: "strength", primaryMuscles: ["quadriceps"]),
        ]
        let analytics = TemplateAnalyzer.analyze(exercises, catalog: catalog)
        #expect(analytics.totalSets == 6)
        #expect(analytics.estimatedDurationMinutes == 20)
        #expect(analytics.muscles == ["chest", "biceps"])
    }

    /// Heavy sets rest longer and light ones shorter than the 2.5 minutes of a moderate set, so a strength template
    /// is not estimated to fit an hour it cannot: 4 × 5 and 3 × 5 (3.5 min each), 2 × 15 (2 min each), 5 to warm up.
    @Test func templateAnalyticsGiveHeavySetsTheirLongerRest() {
        let exercises = [
            TemplateExercise(exerciseId: "squat", name: "Squat", sets: Array(repeating: TemplateSet(targetReps: 5), count: 4)),
            TemplateExercise(exerciseId: "bench", name: "Bench", sets: Array(repeating: TemplateSet(targetReps: 5), count: 3)),
            TemplateExercise(exerciseId: "curl", name: "Curl", sets: Array(repeating: TemplateSet(targetReps: 15), count: 2)),
        ]
        let analytics = TemplateAnalyzer.analyze(exercises, catalog: [:])
        #expect(analytics.estimatedDurationMinutes == 34)  // 5 + 7 × 3.5 + 2 × 2 = 33.5, rounded up
        #expect(analytics.estimatedDurationMinutes == SessionDurationEstimate.minutes(exercises.flatMap(\.sets)))
    }
}
