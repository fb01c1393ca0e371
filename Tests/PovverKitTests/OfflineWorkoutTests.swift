import Foundation
import Platform
import PovverClient
import PovverKit
import TestSupport
import Testing

/// The active workout in the gym with no signal: sets logged offline are shown at once and queued with their
/// idempotency keys, completion waits for the queue, and back online the queue goes in order with the same keys.
@Suite struct OfflineWorkoutTests {
    /// A catalog exercise's id, found through the client.
    static func exerciseId(_ povver: Povver, _ query: String) async throws -> String {
        let found = try await povver.client.searchExercises(body: .json(.init(limit: 1, query: query)))
        return try #require(try found.ok.body.json.data.items.first?.id)
    }

    @Test(arguments: TestDatabases.engines)
    func setsLoggedOfflineAreSentInOrderWithTheirKeysBeforeTheWorkoutCompletes(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let network = NetworkConditions()
            let povver = live.kit(middlewares: [network])
            try await povver.auth.signUp(email: "offline-gym@example.com", password: "correct horse")
            let bench = try await Self.exerciseId(povver, "bench press")
            let workout = povver.activeWorkout()
            try await workout.start(name: "Push")
            try await workout.addExercise(bench, sets: 3)
            let started = await workout.workout
            let exercise = try #require(started?.exercises.first)
            let nothingQueued = await workout.pending.isEmpty
            #expect(exercise.sets.count == 3 && nothingQueued)

            network.set(.offline)
            for (index, set) in exercise.sets.enumerated() {
                try await workout.logSet(exerciseInstanceId: exercise.instanceId, setId: set.id, weightKg: 60 + Double(index) * 5, reps: 8)
            }
            let queued = await workout.pending
            #expect(queued.count == 3)
            let shownWorkout = await workout.workout
            let shown = try #require(shownWorkout)
            #expect(shown.exercises[0].sets.allSatisfy(\.isLogged) && shown.totals.sets == 3 && shown.totals.volume == 8 * (60 + 65 + 70))
            await #expect(throws: PovverError.self) { _ = try await workout.complete() }
            let stillQueued = await workout.pending
            #expect(stillQueued == queued, "completion sent nothing and kept the queue")
            #expect(network.delivered("logSet").isEmpty && network.delivered("completeActiveWorkout").isEmpty)

            network.set(.online)
            let completed = try await workout.complete()
            let sent = network.delivered("logSet")
            #expect(sent.map(\.idempotencyKey) == queued.map(\.idempotencyKey), "each write went once, with the key it was made with")
            #expect(sent.map(\.setId) == exercise.sets.map(\.id), "in the order they were logged")
            #expect(
                network.attempts.filter { $0.operation == "logSet" }.allSatisfy { queued.map(\.idempotencyKey).contains($0.idempotencyKey) }
            )
            #expect(completed.analytics.totals.sets == 3 && completed.analytics.totals.volume == 8 * (60 + 65 + 70))
            let (left, after) = (await workout.pending, await workout.workout)
            #expect(left.isEmpty && after == nil)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aSetWhoseAnswerWasLostIsSentAgainWithItsKeyAndCountsOnce(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let network = NetworkConditions()
            let povver = live.kit(middlewares: [network])
            try await povver.auth.signUp(email: "lost-set@example.com", password: "correct horse")
            let squat = try await Self.exerciseId(povver, "squat")
            let workout = povver.activeWorkout()
            try await workout.start()
            try await workout.addExercise(squat, sets: 2)
            let started = await workout.workout
            let exercise = try #require(started?.exercises.first)

            network.set(.answerLost, for: "logSet")
            try await workout.logSet(exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5)
            let waiting = await workout.pending.count
            #expect(waiting == 1 && network.delivered("logSet").count == 1)
            network.set(.online, for: "logSet")
            try await workout.logSet(exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 100, reps: 4)
            let sent = network.delivered("logSet")
            #expect(sent.count == 3 && sent[0].idempotencyKey == sent[1].idempotencyKey && sent[1].setId == sent[0].setId)
            let server = try #require(try await workout.load())
            let drained = await workout.pending.isEmpty
            #expect(server.totals.sets == 2 && server.totals.reps == 9 && drained)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aWriteTheServerRefusesLeavesTheQueueAndTheWorkoutIsReadAgain(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let povver = live.kit()
            try await povver.auth.signUp(email: "refused-set@example.com", password: "correct horse")
            let row = try await Self.exerciseId(povver, "row")
            let workout = povver.activeWorkout()
            try await workout.start()
            try await workout.addExercise(row, sets: 1)
            let started = await workout.workout
            let exercise = try #require(started?.exercises.first)
            try await workout.logSet(exerciseInstanceId: exercise.instanceId, setId: "no-such-set", weightKg: 50, reps: 10)
            let refused = await workout.refused
            #expect(refused.count == 1 && refused.first?.error.code == "NOT_FOUND")
            let (left, shown) = (await workout.pending, await workout.workout)
            #expect(left.isEmpty && shown?.totals.sets == 0)
        }
    }
}
