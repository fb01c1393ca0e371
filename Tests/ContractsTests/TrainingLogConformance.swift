import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Workouts

struct TrainingLogFixture: Sendable {
    /// Completes a workout for the user with one logged set; returns its id.
    var complete: @Sendable (_ userId: String, _ name: String) async throws -> String
}

func trainingLogConformance(_ log: some TrainingLog, fixture: TrainingLogFixture) async throws {
    let first = try await fixture.complete("u1", "First")
    let second = try await fixture.complete("u1", "Second")
    let other = try await fixture.complete("u2", "Other")
    let recent = try await log.recentWorkouts(userId: "u1", limit: 10)
    #expect(recent.map(\.id) == [second, first])
    #expect(try await log.recentWorkouts(userId: "u1", limit: 1).map(\.id) == [second])
    #expect(try await log.workout(userId: "u1", id: first)?.name == "First")
    #expect(try await log.workout(userId: "u1", id: other) == nil, "another user's workout")
    #expect(try await log.workout(userId: "u1", id: "nope") == nil)
    #expect(try await log.workout(userId: "u1", id: "w\u{0}") == nil, "an id holding NUL was never given out")
    #expect(recent.allSatisfy { $0.analytics.totals.sets == 1 })
    do {
        _ = try await log.recentWorkouts(userId: "u1", limit: 0)
        Issue.record("accepted limit 0")
    } catch let error as ServiceError {
        #expect(error.code == .invalidArgument)
    }

    // Ranges: oldest first, paged, bounds half-open, only the user's.
    let firstPage = try await log.completedWorkouts(userId: "u1", endedFrom: nil, endedBefore: nil, limit: 1, cursor: nil)
    #expect(firstPage.workouts.map(\.id) == [first])
    let cursor = try #require(firstPage.nextCursor)
    let third = try await fixture.complete("u1", "Third")  // added between two pages: still found once
    let secondPage = try await log.completedWorkouts(userId: "u1", endedFrom: nil, endedBefore: nil, limit: 5, cursor: cursor)
    #expect(secondPage.workouts.map(\.id) == [second, third])
    #expect(secondPage.nextCursor == nil)
    let secondEnd = try #require(recent.first?.endTime)
    #expect(
        try await log.completedWorkouts(userId: "u1", endedFrom: secondEnd, endedBefore: nil, limit: 5, cursor: "").workouts.map(\.id)
            == [second, third])
    #expect(
        try await log.completedWorkouts(userId: "u1", endedFrom: nil, endedBefore: secondEnd, limit: 5, cursor: nil).workouts.map(\.id)
            == [first])
    #expect(
        try await log.completedWorkouts(userId: "u2", endedFrom: nil, endedBefore: nil, limit: 5, cursor: nil).workouts.map(\.id) == [other]
    )
    #expect(try await log.usersWithHistory(after: nil, limit: 10) == ["u1", "u2"])
    #expect(try await log.usersWithHistory(after: "u1", limit: 10) == ["u2"])
    #expect(try await log.usersWithHistory(after: nil, limit: 1) == ["u1"])
    for (limit, cursor) in [(0, nil), (501, nil), (5, "not-a-cursor")] as [(Int, String?)] {
        do {
            _ = try await log.completedWorkouts(userId: "u1", endedFrom: nil, endedBefore: nil, limit: limit, cursor: cursor)
            Issue.record("accepted limit \(limit), cursor \(cursor ?? "nil")")
        } catch let error as ServiceError {
            #expect(error.code == .invalidArgument)
        }
    }
}

@Suite struct TrainingLogConformanceTests {
    @Test func fake() async throws {
        let log = FakeTrainingLog()
        let clock = FakeWallClock()
        try await trainingLogConformance(
            log,
            fixture: TrainingLogFixture { userId, name in
                clock.advance(by: 60)
                let id = UUID().uuidString
                let set = WorkoutSet(id: "s", setIndex: 0, weightKg: 50, reps: 5, completedAt: clock.now())
                let exercises = [WorkoutExercise(instanceId: "i", exerciseId: WorkoutsFixtures.squat.id, name: "Squat", sets: [set])]
                await log.record(
                    CompletedWorkout(
                        id: id, userId: userId, name: name, sourceTemplateId: nil, sourceRoutineId: nil, startTime: clock.now(),
                        endTime: clock.now(),
                        exercises: exercises,
                        analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: 1, reps: 5, volume: 250), exercises: [], muscles: []),
                        createdAt: clock.now(), updatedAt: clock.now()))
                return id
            })
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = WorkoutsModule(database: db, clock: clock, ids: RandomIDGenerator())
            try await trainingLogConformance(
                module.trainingLog,
                fixture: TrainingLogFixture { userId, name in
                    clock.advance(by: 60)
                    let workout = try await module.active.start(userId: userId, request: .init(name: name), idempotencyKey: nil).value()
                    let added = try await module.active.addExercise(
                        userId: userId, request: .init(workoutId: workout.id, exerciseId: WorkoutsFixtures.squat.id, sets: 1), key: nil
                    ).value()
                    _ = try await module.active.logSet(
                        userId: userId,
                        request: .init(
                            workoutId: workout.id, exerciseInstanceId: added.exercises[0].instanceId, setId: added.exercises[0].sets[0].id,
                            weightKg: 50, reps: 5),
                        key: nil)
                    return try await module.active.complete(userId: userId, workoutId: workout.id, key: nil).value().id
                })
        }
    }
}
