import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Conversations

/// Reading a swap request, and the rule-based coach making the swap: in the workout, in the routine, or as advice.
@Suite struct CoachSwapTests {
    typealias H = CoachHarness

    @Test func swapRequestsAreReadWithWhatToSpare() {
        let read = { (text: String) in MessageUnderstanding.read(text) }
        let knees = read("swap squats for something easier on my knees")
        #expect(knees.intent == .swapExercise && knees.slots.swap == SwapTarget(from: "squat", to: nil) && knees.slots.spare == [.knees])
        let dumbbells = read("Can you replace the bench press with dumbbells?")
        #expect(dumbbells.intent == .swapExercise && dumbbells.slots.equipment == EquipmentSet([.dumbbell]), "\(dumbbells)")
        #expect(read("switch out my deadlifts, my back hurts").slots.spare == [.lowerBack])
        #expect(read("what can I do instead of lunges? bad knee").slots.spare == [.knees])
        #expect(read("Swap bench for incline dumbbell press").slots.swap == SwapTarget(from: "bench", to: "incline dumbbell press"))
        #expect(read("how is my bench going?").intent != .swapExercise)
        let named = SwapRequest(subject: "squats", spare: [], equipment: nil)
        #expect(named.names("Barbell Squat") && named.names("Dumbbell Squat") && !named.names("Leg Press"))
        #expect(SwapRequest(subject: "bench press", spare: [], equipment: nil).names("Barbell Bench Press - Medium Grip"))
    }

    @Test func swapsThatSpareAnAreaLeaveTheMovementsThatLoadIt() async throws {
        let catalog = FakeExerciseCatalog(H.catalog)
        let finder = SwapFinder(catalog: catalog)
        let squat = try #require(H.catalog.first { $0.id == H.squat })
        #expect(SwapFinder.slot(of: squat) == .squat)
        let gentle = try await finder.alternatives(to: squat, sparing: ["knees"], equipment: .fullGym, excluding: [], count: 3)
        #expect(gentle.spared == "knees" && gentle.exercises.count == 3)
        for exercise in gentle.exercises {
            let slot = SwapFinder.slot(of: exercise)
            #expect(slot.map { [.hinge, .glutes, .legCurl].contains($0) } == true, "\(exercise.name) in \(String(describing: slot))")
        }
        let same = try await finder.alternatives(to: squat, sparing: [], equipment: EquipmentSet([.dumbbell]), excluding: [], count: 2)
        #expect(same.spared == nil && same.exercises.allSatisfy { $0.id != H.squat && ["dumbbell", nil].contains($0.equipment) })
    }

    @Test(arguments: TestDatabases.engines)
    func inAWorkoutTheExerciseIsSwappedAtOnce(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let workout = await h.startWorkout("u1")
            let events = await h.send("u1", "swap squats for something easier on my knees", workoutId: workout.id)
            #expect(events.text.hasPrefix("Swapped Barbell Squat for ") && events.text.contains("easier on your knees"), "\(events.text)")
            let exercises = try #require(try await h.workouts.activeWorkout(userId: "u1")).exercises
            #expect(!exercises.contains { $0.exerciseId == H.squat } && exercises.count == 2)
            let new = try #require(H.catalog.first { $0.id == exercises[1].exerciseId })
            #expect(SwapFinder.slot(of: new).map { [.hinge, .glutes, .legCurl].contains($0) } == true, "\(new.name)")
            #expect(events.contains { $0["type"] == "status" && $0["tool"] == "swap_exercise" })
            let missing = await h.send("u1", "swap curls for something else", workoutId: workout.id)
            #expect(missing.text.hasPrefix("I cannot find curl in this workout"), "\(missing.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func outsideAWorkoutTheRoutinesTemplatesGetAProposedChange(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let advice = await h.send("u1", "swap squats for something easier on my knees")
            #expect(advice.text.hasPrefix("Instead of ") && advice.artifacts.isEmpty, "no routine: advice only \(advice.text)")

            let sets = [TemplateSet(targetReps: 5, targetRir: 2), TemplateSet(targetReps: 5, targetRir: 2)]
            let created = try await h.plans.createRoutine(
                userId: "u1",
                plan: RoutinePlan(
                    name: "Split",
                    templates: [
                        TemplatePlan(name: "Push", exercises: [PlannedExercise(exerciseId: H.bench, sets: sets)]),
                        TemplatePlan(
                            name: "Legs",
                            exercises: [
                                PlannedExercise(exerciseId: H.squat, sets: sets), PlannedExercise(exerciseId: "Leg_Press", sets: sets),
                            ]),
                    ]))
            let events = await h.send("u1", "swap squats for something easier on my knees")
            #expect(events.text.contains("in place of Barbell Squat") && events.text.contains("in Legs"), "\(events.text)")
            let artifact = try #require(events.artifacts.first?["data"])
            #expect(artifact["type"] == "template_update" && events.artifacts.count == 1)
            let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
            _ = try await h.module.actions.perform(
                userId: "u1",
                request: .init(action: .accept, artifactId: artifact["id"]?.stringValue ?? "", conversationId: conversationId),
                idempotencyKey: nil)
            let legs = try await h.plans.template(userId: "u1", id: created.templates[1].id)
            #expect(legs.version == 2 && legs.exercises.count == 2 && legs.exercises[1].exerciseId == "Leg_Press")
            #expect(legs.exercises[0].exerciseId != H.squat && legs.exercises[0].sets == sets, "same sets, another exercise")
        }
    }
}
