import Contracts
import Fakes
import Foundation
import Platform
import PovverKit
import TestSupport
import Testing

@testable import Conversations

/// Issue 50's planning examples through the rule-based coach, each with the answer a lifter expects: routines with
/// negated equipment and split frequencies, named programs as written, one session, changes to the routine and a
/// swap to a named target. Every card decodes as the app decodes it (`CanvasCardModel`, API.md "Cards").
@Suite struct CoachPlansWhatLiftersAskTests {
    typealias H = CoachHarness

    /// The one card of `type` in the events, decoded strictly.
    static func card(_ events: [JSONValue], _ type: CanvasCardModel.CardType) throws -> CanvasCardModel {
        let cards = try CardDecodingTests.cards(events).filter { $0.type == type }
        #expect(cards.count == 1, "one \(type) card: \(events.text)")
        return try #require(cards.first)
    }

    static func exercise(_ id: String) -> Exercise? { H.catalog.first { $0.id == id } }

    /// An active three-day routine: Push (bench, overhead press), Pull (row), Legs (squat, leg press).
    static func routine(_ h: CoachHarness, _ userId: String = "u1") async throws -> CreatedRoutine {
        let sets = [
            TemplateSet(targetReps: 8, targetRir: 2), TemplateSet(targetReps: 8, targetRir: 2), TemplateSet(targetReps: 8, targetRir: 2),
        ]
        return try await h.plans.createRoutine(
            userId: userId,
            plan: RoutinePlan(
                name: "PPL", frequency: 3,
                templates: [
                    TemplatePlan(
                        name: "Push",
                        exercises: [
                            PlannedExercise(exerciseId: H.bench, sets: sets),
                            PlannedExercise(exerciseId: "Standing_Military_Press", sets: sets),
                        ]
                    ),
                    TemplatePlan(name: "Pull", exercises: [PlannedExercise(exerciseId: "Bent_Over_Barbell_Row", sets: sets)]),
                    TemplatePlan(
                        name: "Legs",
                        exercises: [PlannedExercise(exerciseId: H.squat, sets: sets), PlannedExercise(exerciseId: "Leg_Press", sets: sets)]),
                ]))
    }

    @Test(arguments: TestDatabases.engines)
    func noBarbellJustDumbbellsPlansWithDumbbellsAlone(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let events = await h.send("u1", "No barbell, just dumbbells. 3 day full body")
            guard case .routineSummary(let summary) = try Self.card(events, .routineSummary).data else { throw CardError.wrongData }
            #expect(
                !summary.routine.name.lowercased().contains("barbell") && summary.routine.name.contains("dumbbells"),
                "\(summary.routine.name)")
            #expect(summary.days.count == 3 && summary.routine.frequency == 3)
            for exercise in summary.days.flatMap(\.exercises) {
                let equipment = Self.exercise(exercise.exerciseId)?.equipment
                #expect(equipment == "dumbbell" || equipment == "body only" || equipment == nil, "\(exercise.name)")
            }
            #expect(!events.text.lowercased().contains("barbell"), "\(events.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func pplTwiceAWeekIsSixDaysAndOnlyTheEquipmentIsAsked(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let asked = await h.send("u1", "PPL twice a week")
            guard case .clarifyQuestions(let questions) = try Self.card(asked, .clarifyQuestions).data else { throw CardError.wrongData }
            #expect(questions.questions.map(\.id) == ["equipment"], "the days are known: \(questions)")
            let conversationId = try #require(asked.first?["conversation_id"]?.stringValue)
            let answered = await h.send("u1", "Full gym", conversationId: conversationId)
            guard case .routineSummary(let summary) = try Self.card(answered, .routineSummary).data else { throw CardError.wrongData }
            #expect(
                summary.days.map(\.name) == ["Push A", "Pull A", "Legs A", "Push B", "Pull B", "Legs B"], "\(summary.days.map(\.name))")
            #expect(summary.routine.frequency == 6 && summary.routine.name.hasPrefix("6-day Push/Pull/Legs"))
            #expect(summary.routine.description?.contains("Progression (step on meeting every target)") == true, "the progression is named")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aFiveByFiveProgramIsStrongLiftsAsWritten(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let events = await h.send("u1", "Give me a 5x5 program")
            #expect(try CardDecodingTests.cards(events).map(\.type) == [.routineSummary], "no questions first: \(events.text)")
            guard case .routineSummary(let summary) = try Self.card(events, .routineSummary).data else { throw CardError.wrongData }
            #expect(summary.routine.name == "StrongLifts 5×5" && summary.routine.frequency == 3)
            let ids = summary.routine.templates.map { $0.exercises.map(\.exerciseId) }
            #expect(ids == [[H.squat, H.bench, "Bent_Over_Barbell_Row"], [H.squat, "Standing_Military_Press", "Barbell_Deadlift"]])
            let squat = try #require(summary.routine.templates.first?.exercises.first)
            #expect(squat.sets.count == 5 && squat.sets.allSatisfy { $0.targetReps == 5 }, "5 × 5")
            #expect(summary.routine.templates[1].exercises[2].sets.count == 1, "the deadlift is 1 × 5")
            #expect(summary.routine.description?.contains("Add 2.5 kg every session") == true, "the progression is named")
            #expect(try await h.module.services.memory.memory(userId: "u1").goal == nil, "the program's goal is not the user's")
        }
    }

    @Test func everyNamedProgramIsBuiltWithItsRepSchemeAndProgression() async throws {
        let planner = ProgramPlanner(catalog: FakeExerciseCatalog(H.catalog))
        for program in NamedProgram.allCases {
            let (plan, replaced) = try await planner.plan(program, days: nil, equipment: .fullGym)
            #expect(replaced.isEmpty && plan.frequency == program.days && plan.name == program.title, "\(program)")
            #expect(plan.description?.hasPrefix(program.scheme) == true)
            let sets = plan.templates.flatMap(\.exercises).flatMap(\.sets)
            #expect(sets.allSatisfy { ($0.targetReps ?? 0) >= 1 && ($0.targetRir ?? -1) >= 0 })
            _ = try await RoutineCritic(catalog: FakeExerciseCatalog(H.catalog)).check(plan)
        }
        let wendler = try await planner.plan(.fiveThreeOne, days: 3, equipment: .fullGym).plan
        #expect(wendler.templates.map(\.name) == ["Press", "Deadlift", "Bench", "Squat"] && wendler.frequency == 3)
        #expect(wendler.templates[0].exercises[0].sets.map(\.targetReps) == [5, 5, 5, 10, 10, 10, 10, 10], "5/3/1 then Boring But Big")
        let gzclp = try await planner.plan(.gzclp, days: nil, equipment: .fullGym).plan
        #expect(
            gzclp.templates[0].exercises.map { $0.sets.count } == [5, 3, 3] && gzclp.templates[0].exercises[0].sets.last?.targetRir == 0)
        let starting = try await planner.plan(.startingStrength, days: nil, equipment: .fullGym).plan
        #expect(starting.templates[1].exercises.map(\.exerciseId) == [H.squat, H.bench, "Power_Clean"])
        // Without a barbell, each lift is the same movement with dumbbells, and the routine says so.
        let dumbbells = try await planner.plan(.stronglifts, days: nil, equipment: EquipmentSet([.dumbbell]))
        #expect(dumbbells.plan.name == "StrongLifts 5×5 (dumbbells)" && !dumbbells.replaced.isEmpty)
        for id in dumbbells.plan.templates.flatMap(\.exercises).map(\.exerciseId) {
            #expect(["dumbbell", "body only", nil].contains(Self.exercise(id)?.equipment), "\(id)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aFortyFiveMinutePushWorkoutIsOneSessionOfPushing(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let events = await h.send("u1", "Give me a 45-minute push workout")
            guard case .sessionPlan(let session) = try Self.card(events, .sessionPlan).data else { throw CardError.wrongData }
            #expect(session.name == "Push (45 min)" && (2...6).contains(session.exercises.count), "\(session)")
            for exercise in session.exercises {
                let muscle = Self.exercise(exercise.exerciseId)?.primaryMuscles.first
                #expect(["chest", "shoulders", "triceps"].contains(muscle), "\(exercise.name): \(muscle ?? "-")")
            }
            #expect(SessionDurationEstimate.minutes(targetReps: session.exercises.flatMap(\.sets).map(\.targetReps)) <= 45)
            #expect(events.text.contains("full gym"), "the assumed equipment is said: \(events.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func whatToTrainTodayWithMinutesAndDumbbellsIsASessionOfThem(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            _ = try await Self.routine(h)
            let events = await h.send("u1", "what should I train today? 45 minutes, dumbbells")
            guard case .sessionPlan(let session) = try Self.card(events, .sessionPlan).data else { throw CardError.wrongData }
            #expect(session.templateId == nil && !session.exercises.isEmpty)
            for exercise in session.exercises {
                #expect(["dumbbell", "body only", nil].contains(Self.exercise(exercise.exerciseId)?.equipment), "\(exercise.name)")
            }
            #expect(SessionDurationEstimate.minutes(targetReps: session.exercises.flatMap(\.sets).map(\.targetReps)) <= 45)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func changingTheRoutineToFourDaysProposesTheNewFrequency(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let created = try await Self.routine(h)
            let events = await h.send("u1", "Change my routine to 4 days")
            guard case .routineUpdate(let update) = try Self.card(events, .routineUpdate).data else { throw CardError.wrongData }
            #expect(update.routineId == created.routine.id && update.changes.frequency == 4 && update.routine.frequency == 4)
            #expect(!events.text.contains("Swap") && !events.text.contains("Pulley"), "\(events.text)")
            #expect(try await h.module.services.memory.memory(userId: "u1").days == 4)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func addingDroppingAndEmphasisingChangeTheTemplates(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let created = try await Self.routine(h)
            let added = await h.send("u1", "add face pulls to my routine")
            guard case .templateUpdate(let pull) = try Self.card(added, .templateUpdate).data else { throw CardError.wrongData }
            #expect(pull.templateId == created.templates[1].id && pull.exercises.map(\.exerciseId).contains("Face_Pull"), "\(added.text)")
            let dropped = await h.send("u1", "drop the leg press")
            guard case .templateUpdate(let legs) = try Self.card(dropped, .templateUpdate).data else { throw CardError.wrongData }
            #expect(legs.exercises.map(\.exerciseId) == [H.squat], "\(dropped.text)")
            let more = await h.send("u1", "more chest please")
            guard case .templateUpdate(let push) = try Self.card(more, .templateUpdate).data else { throw CardError.wrongData }
            #expect(push.exercises.first?.sets.count == 4 && push.exercises[1].sets.count == 3, "one set more on the bench: \(more.text)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aSwapToANamedTargetPutsThatExerciseIn(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let created = try await Self.routine(h)
            let events = await h.send("u1", "Swap bench for incline dumbbell press")
            guard case .templateUpdate(let push) = try Self.card(events, .templateUpdate).data else { throw CardError.wrongData }
            #expect(push.templateId == created.templates[0].id)
            #expect(push.exercises.map(\.exerciseId) == ["Incline_Dumbbell_Press", "Standing_Military_Press"], "\(events.text)")
            #expect(push.exercises[0].sets.count == 3, "same sets")

            let workout = await h.startWorkout("u2")
            let swapped = await h.send("u2", "Swap bench for incline dumbbell press", workoutId: workout.id)
            #expect(swapped.text.hasPrefix("Swapped Barbell Bench Press - Medium Grip for Incline Dumbbell Press"), "\(swapped.text)")
            #expect(try await h.workouts.activeWorkout(userId: "u2")?.exercises.first?.exerciseId == "Incline_Dumbbell_Press")
        }
    }

    enum CardError: Error { case wrongData }
}
