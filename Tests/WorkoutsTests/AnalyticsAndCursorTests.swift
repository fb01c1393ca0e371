import Contracts
import Foundation
import Testing
@testable import Workouts

@Suite struct WorkoutAnalyzerTests {
    @Test func epleyEstimatesOneRepMax() {
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 100, reps: 1) == 100)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 100, reps: 10) == 133.3)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 60, reps: 5) == 70)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 0, reps: 10) == nil)
        #expect(WorkoutAnalyzer.estimatedOneRepMax(weightKg: 80, reps: 0) == nil)
    }

    @Test func analyticsCountOnlyLoggedSets() {
        let done = Date()
        let exercises = [
            WorkoutExercise(instanceId: "i1", exerciseId: "bench", name: "Bench", sets: [
                WorkoutSet(id: "s1", setIndex: 0, weightKg: 100, reps: 5, completedAt: done),
                WorkoutSet(id: "s2", setIndex: 1, weightKg: 100, reps: 3, completedAt: done),
                WorkoutSet(id: "s3", setIndex: 2, targetReps: 5),
            ]),
            WorkoutExercise(instanceId: "i2", exerciseId: "curl", name: "Curl", sets: [WorkoutSet(id: "s4", setIndex: 0, weightKg: 12.5, reps: 10, completedAt: done)]),
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
        #expect(analytics.muscles == [MuscleAnalytics(muscle: "chest", sets: 2, volume: 800), MuscleAnalytics(muscle: "biceps", sets: 1, volume: 125)])
    }

    @Test func templateAnalyticsEstimateDurationAndMuscles() {
        let exercises = [
            TemplateExercise(exerciseId: "bench", name: "Bench", sets: Array(repeating: TemplateSet(targetReps: 8), count: 4)),
            TemplateExercise(exerciseId: "curl", name: "Curl", sets: Array(repeating: TemplateSet(targetReps: 12), count: 2)),
        ]
        let catalog = [
            "bench": Exercise(id: "bench", name: "Bench", category: "strength", primaryMuscles: ["chest"]),
            "curl": Exercise(id: "curl", name: "Curl", category: "strength", primaryMuscles: ["biceps"]),
        ]
        let analytics = TemplateAnalyzer.analyze(exercises, catalog: catalog)
        #expect(analytics.totalSets == 6)
        #expect(analytics.estimatedDurationMinutes == 20)
        #expect(analytics.muscles == ["chest", "biceps"])
    }
}

@Suite struct RoutineCursorTests {
    func stored(_ ids: [String], last: String?, index: Int?) -> StoredRoutine {
        StoredRoutine(
            routine: Routine(
                id: "r", userId: "u", name: "R", description: nil, templateIds: ids, frequency: nil, lastCompletedTemplateId: last,
                lastCompletedAt: last == nil ? nil : Date(), version: 1, createdAt: Date(), updatedAt: Date()),
            lastCompletedIndex: index)
    }

    @Test func startsAtTheFirstTemplate() {
        #expect(RoutineService.nextIndex(stored(["a", "b", "c"], last: nil, index: nil)) == 0)
        #expect(RoutineService.nextIndex(stored([], last: nil, index: nil)) == nil)
    }

    @Test func advancesAndWrapsAround() {
        #expect(RoutineService.nextIndex(stored(["a", "b", "c"], last: "a", index: 0)) == 1)
        #expect(RoutineService.nextIndex(stored(["a", "b", "c"], last: "c", index: 2)) == 0)
    }

    @Test func followsAReorderedTemplate() {
        #expect(RoutineService.nextIndex(stored(["c", "a", "b"], last: "a", index: 0)) == 2)
    }

    @Test func removedTemplateHandsOverToItsSuccessor() {
        // b was completed at position 1 and then removed: c now sits at position 1 and is next.
        #expect(RoutineService.nextIndex(stored(["a", "c"], last: "b", index: 1)) == 1)
        #expect(RoutineService.nextIndex(stored(["a"], last: "b", index: 1)) == 0)
    }

    @Test func repeatedTemplatesUseTheStoredPosition() {
        #expect(RoutineService.nextIndex(stored(["a", "b", "a", "c"], last: "a", index: 2)) == 3)
        #expect(RoutineService.nextIndex(stored(["a", "b", "a", "c"], last: "a", index: 0)) == 1)
    }

    @Test func everyCursorGivesAValidIndex() {
        for count in 1...6 {
            let ids = (0..<count).map { "t\($0)" }
            for last in ids + ["gone"] {
                for index in [nil] + Array(0..<8) {
                    let next = RoutineService.nextIndex(stored(ids, last: last, index: index))
                    #expect(next.map { (0..<count).contains($0) } == true)
                }
            }
        }
    }
}
