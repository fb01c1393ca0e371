import Foundation
import Platform
import PovverClient
import PovverKit
import TestSupport
import Testing

/// The view models an app's screens are drawn from, over the live server.
@Suite struct ViewModelTests {
    @MainActor @Test(arguments: TestDatabases.engines)
    func theCanvasShowsTheProposedRoutineAndAcceptingItListsTheRoutine(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { @MainActor live in
            let povver = live.kit()
            let session = try await povver.auth.signUp(email: "canvas@example.com", password: "correct horse")
            try await live.makePremium(session.userId)
            let canvas = CanvasViewModel(coach: povver.coach, client: povver.client)
            await canvas.send("Build me a 4-day upper/lower plan, full gym")
            let card = try #require(canvas.cards.first)
            #expect(canvas.conversationId != nil && (canvas.isStreaming) == false && (canvas.failure) == nil)
            #expect(card.type == .routineSummary && card.status == .pending)

            await canvas.act(.accept, on: card)
            #expect(canvas.failure == nil)
            #expect(canvas.cards.first?.status == .accepted)

            let routines = RoutinesViewModel(client: povver.client)
            await routines.load()
            #expect(routines.routines.count == 1 && (routines.failure) == nil)
            let routine = try #require(routines.routines.first)
            await routines.activate(routine.id)
            #expect(routines.active?.id == routine.id)
        }
    }

    @MainActor @Test(arguments: TestDatabases.engines)
    func theWorkoutScreenCountsWhatWaitsAndFinishesOnceItIsSent(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { @MainActor live in
            let network = NetworkConditions()
            let povver = live.kit(middlewares: [network])
            try await povver.auth.signUp(email: "workout-screen@example.com", password: "correct horse")
            let curl = try await OfflineWorkoutTests.exerciseId(povver, "curl")
            let screen = ActiveWorkoutViewModel(service: povver.activeWorkout())
            await screen.start(name: "Arms")
            try await screen.service.addExercise(curl, sets: 2)
            await screen.load()
            let exercise = try #require(screen.workout?.exercises.first)

            network.set(.offline)
            for set in exercise.sets {
                await screen.logSet(exerciseInstanceId: exercise.instanceId, setId: set.id, weightKg: 20, reps: 12)
            }
            #expect(screen.pendingCount == 2 && (screen.workout?.totals.sets) == 2)
            await screen.finish()
            #expect(screen.completed == nil && (screen.failure) != nil && (screen.pendingCount) == 2)

            network.set(.online)
            await screen.finish()
            #expect(screen.completed?.analytics.totals.sets == 2 && (screen.pendingCount) == 0 && (screen.workout) == nil)
        }
    }
}
