import Contracts
import Fakes
import Foundation
import Logging
import Platform
import TestSupport
import Testing

@testable import Conversations

/// A model that proposes the routine it is given through the tools, as a chat-completions model calling
/// `propose_routine` would: the coach's contract is what a language model plugs into.
struct ScriptedModel: CoachModel {
    var name: String { "scripted" }
    let arguments: JSONValue

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        try await say("Here is a plan. ")
        _ = try await tools.call("propose_routine", arguments: arguments)
        try await say("Accept it to make it your routine.")
    }
}

/// A model that never finishes on its own, to see a client that goes away stop the work.
struct EndlessModel: CoachModel {
    var name: String { "endless" }
    let started: AsyncStream<Void>.Continuation
    let stopped: AsyncStream<Void>.Continuation

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        try await say("Thinking")
        started.yield()
        // Waits until cancelled (the timeout is never reached: cancellation wakes it at once).
        do { try await Task.sleep(for: .seconds(3600)) } catch { stopped.yield() }
        try Task.checkCancellation()
    }
}

@Suite struct CoachStreamTests {
    typealias H = CoachHarness

    @Test(arguments: TestDatabases.engines)
    func aFreeUserGetsOnlyPremiumRequired(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let events = await h.send("free", "build me a 4 day plan")
            #expect(events.types == ["error"] && events.errorCode == "PREMIUM_REQUIRED")
            let listed = try await h.module.services.store.list(userId: "free", limit: 10, cursor: nil)
            #expect(listed.items.isEmpty, "nothing ran")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theFastLaneLogsIntoTheNextSet(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let workout = await h.startWorkout("u1")
            let first = await h.send("u1", "8 @ 100", workoutId: workout.id)
            #expect(first.types == ["message_start", "text", "message_end"])
            #expect(first.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 8 × 100 kg."), "\(first.text)")
            let conversationId = try #require(
                try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil, includeWorkout: true).items.first?.id)
            let done = await h.send("u1", "done", conversationId: conversationId)
            #expect(done.text.contains("set 2: 8 × 100 kg"), "\(done.text)")
            let pair = await h.send("u1", "100 x 6 rir 1", conversationId: conversationId)
            #expect(
                pair.text.contains("set 3: 6 × 100 kg, 1 in reserve") && pair.text.contains("Next: Barbell Squat, set 1"), "\(pair.text)")
            let next = await h.send("u1", "next set", conversationId: conversationId)
            #expect(next.text == "Next: Barbell Squat, set 1: 5 reps at 140 kg, 2 in reserve.")
            let skipped = await h.send("u1", "skip", conversationId: conversationId)
            #expect(
                skipped.text == "Skipped Barbell Squat set 1. Next: Barbell Squat, set 1: 5 reps at 140 kg, 2 in reserve.", "\(skipped)")
            #expect(try await h.workouts.activeWorkout(userId: "u1")?.exercises[1].sets.count == 1)

            let logged = try #require(try await h.workouts.activeWorkout(userId: "u1")).exercises[0].sets
            #expect(logged.map(\.reps) == [8, 8, 6] && logged.map(\.weightKg) == [100, 100, 100] && logged[2].rir == 1)
            let detail = try await h.module.services.store.detail(userId: "u1", id: conversationId)
            let messages = Array(detail.messages.reversed())
            #expect(messages.count == 10 && messages.map(\.role) == Array(repeating: [.user, .assistant], count: 5).flatMap { $0 })
            #expect(
                messages[1].lane == .fast && detail.conversation.title == "Workout: Push" && detail.conversation.workoutId == workout.id)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func badInputEndsWithAClearErrorAndChangesNothing(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let store = h.module.services.store
            #expect(await h.send("u1", "   ").errorCode == "INVALID_ARGUMENT")
            #expect(await h.send("u1", String(repeating: "a", count: 100_000)).errorCode == "INVALID_ARGUMENT")
            #expect(await h.send("u1", "hi", conversationId: "nope").errorCode == "NOT_FOUND")
            let listed = try await store.list(userId: "u1", limit: 10, cursor: nil)
            #expect(listed.items.isEmpty)

            let opened = try await store.create(userId: "u2", workoutId: nil)
            #expect(await h.send("u1", "hi", conversationId: opened.id).errorCode == "NOT_FOUND", "another user's conversation")
            let failed = try await h.module.services.store.create(userId: "u2", workoutId: nil)
            _ = await h.startWorkout("u2")
            #expect(
                await h.send("u2", "{\"intent\": \"LOG_SET\", \"reps\": \"eight\"}", conversationId: failed.id).errorCode
                    == "INVALID_ARGUMENT")
            #expect(await h.send("u2", "{\"intent\": \"DANCE\"}", conversationId: failed.id).errorCode == "INVALID_ARGUMENT")
            #expect(await h.send("u2", "{not json", conversationId: failed.id).errorCode == "INVALID_ARGUMENT")
            #expect(try await store.detail(userId: "u2", id: failed.id).messages.isEmpty, "a failed turn stores nothing")
            #expect(try await h.workouts.activeWorkout(userId: "u2")?.exercises[0].sets.allSatisfy { $0.completedAt == nil } == true)

            let intent = await h.send("u2", "{\"intent\": \"LOG_SET\", \"reps\": 7, \"weight_kg\": 90}", conversationId: opened.id)
            #expect(intent.text.hasPrefix("Logged Barbell Bench Press - Medium Grip set 1: 7 × 90 kg."))
            #expect(try await store.detail(userId: "u2", id: opened.id).messages.first?.lane == .functional)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func progressQuestionsAnswerWithTheUsersNumbersAndAChart(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let weeks = [("2026-11-02", 100.0, 90.0), ("2026-11-09", 103.3, 92.5), ("2026-11-16", 106.7, 95.0)].map { week, e1rm, top in
                ExerciseWeek(
                    weekStart: week, e1rmKg: e1rm, topWeightKg: top, bestSet: .init(weightKg: top, reps: 5), volumeKg: 1000, sets: 3,
                    reps: 15)
            }
            await h.analytics.set(userId: "u1", exerciseId: H.bench, weeks: weeks)
            let events = await h.send("u1", "How is my bench going?")
            #expect(
                events.types == ["message_start", "status", "status", "status", "text", "status", "status", "message_end"]
                    || events.types.first == "message_start", "\(events.types)")
            #expect(events.text.contains("Barbell Bench Press - Medium Grip") && events.text.contains("106.7 kg"), "\(events)")
            #expect(events.text.contains("up 6.7 kg since the week of 2026-11-02") && events.text.contains("9 working sets over 3 weeks"))
            let chart = try #require(events.artifacts.first?["data"])
            #expect(chart["type"] == "visualization" && chart["status"] == "pending" && chart["lane"] == "analysis")
            let values = chart["data"]?["points"]?.arrayValue?.compactMap { point -> Double? in
                switch point["value"] {
                case .int(let value): Double(value)
                case .double(let value): value
                default: nil
                }
            }
            #expect(values == [100, 103.3, 106.7], "the numbers of getExerciseProgress")
            #expect(events.types.last == "message_end")
            // The artifact is stored with the turn.
            let id = try #require(
                try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil, includeWorkout: true).items.first?.id)
            #expect(try await h.module.services.store.detail(userId: "u1", id: id).artifacts.map(\.type) == [.visualization])

            let unknown = await h.send("u1", "how is my zorblax going?")
            #expect(unknown.text.contains("zorblax"))
            let help = await h.send("u1", "hello there")
            #expect(help.text.contains("How is my bench going?") && help.types.last == "message_end")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func acceptingARoutineMakesItActiveOnceUnderItsKey(engine: SQLEngine) async throws {
        let plan = RoutinePlan(
            name: "Upper/Lower", frequency: 2,
            templates: [
                TemplatePlan(
                    name: "Upper", exercises: [PlannedExercise(exerciseId: H.bench, sets: [TemplateSet(targetReps: 8, targetRir: 2)])]),
                TemplatePlan(
                    name: "Lower", exercises: [PlannedExercise(exerciseId: H.squat, sets: [TemplateSet(targetReps: 5, targetRir: 2)])]),
            ])
        try await H.with(engine, model: ScriptedModel(arguments: try JSONValue(encoding: plan))) { h in
            let events = await h.send("u1", "plan please")
            let artifact = try #require(events.artifacts.first)
            let artifactId = try #require(artifact["artifact_id"]?.stringValue)
            #expect(artifact["data"]?["type"] == "routine_summary")
            #expect(artifact["data"]?["data"]?["days"]?.arrayValue?.count == 2)
            let conversationId = try #require(
                try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil, includeWorkout: true).items.first?.id)
            let request = ArtifactActions.Request(action: .accept, artifactId: artifactId, conversationId: conversationId)

            await expectError("NOT_FOUND") { _ = try await h.module.actions.perform(userId: "u2", request: request, idempotencyKey: "k") }
            let first = try await h.module.actions.perform(userId: "u1", request: request, idempotencyKey: "k1").value()
            let active = try #require(try await h.plans.activeRoutine(userId: "u1"))
            #expect(first.artifact.status == .accepted && first.result["routine_id"] == .string(active.id))
            #expect(first.result["template_ids"]?.arrayValue?.count == 2)
            let replay = try await h.module.actions.perform(userId: "u1", request: request, idempotencyKey: "k1").value()
            #expect(replay.result == first.result)
            #expect(try await h.plans.templates(userId: "u1").count == 2, "the repeat made nothing")
            await expectError("FAILED_PRECONDITION") {
                _ = try await h.module.actions.perform(userId: "u1", request: request, idempotencyKey: "k2")
            }
            await expectError("FAILED_PRECONDITION") {
                _ = try await h.module.actions.perform(
                    userId: "u1", request: .init(action: .reject, artifactId: artifactId, conversationId: conversationId),
                    idempotencyKey: nil)
            }
            let stored = try await h.module.services.store.detail(userId: "u1", id: conversationId).artifacts
            #expect(stored.first?.status == .accepted && stored.first?.result == first.result)
            // The activation funnel's events, once each (the fake derives the milestones, as Analytics does).
            let recorded = await h.events.events(userId: "u1")
            let names = ["conversation_started", "message_sent", "first_message_sent", "artifact_received", "first_artifact_received"]
            #expect(recorded.map(\.name) == names + ["artifact_action"], "with their milestones: \(recorded)")
            #expect(recorded.last?.params == ["action": .string("accept"), "artifact_type": .string("routine_summary")])
        }
    }

    @Test(arguments: TestDatabases.engines)
    func todayProposesTheRoutinesNextWorkoutAndStartsIt(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            #expect(await h.send("u1", "What should I do today?").text.contains("no active routine"))
            let conversationId = try #require(
                try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil, includeWorkout: true).items.first?.id)
            let routine = try await h.plans.createRoutine(
                userId: "u1",
                plan: RoutinePlan(
                    name: "Split",
                    templates: [
                        TemplatePlan(name: "Push", exercises: [PlannedExercise(exerciseId: H.bench, sets: [TemplateSet(targetReps: 8)])]),
                        TemplatePlan(name: "Legs", exercises: [PlannedExercise(exerciseId: H.squat, sets: [TemplateSet(targetReps: 5)])]),
                    ]))
            let events = await h.send("u1", "what should I do today?", conversationId: conversationId)
            #expect(events.text.hasPrefix("Today is Push: Barbell Bench Press - Medium Grip."), "\(events.text)")
            let plan = try #require(events.artifacts.first?["data"])
            #expect(plan["type"] == "session_plan" && plan["data"]?["template_id"] == .string(routine.templates[0].id))
            let artifactId = try #require(plan["id"]?.stringValue)
            let request = ArtifactActions.Request(action: .startWorkout, artifactId: artifactId, conversationId: conversationId)
            let started = try await h.module.actions.perform(userId: "u1", request: request, idempotencyKey: "go").value()
            let workout = try #require(try await h.workouts.activeWorkout(userId: "u1"))
            #expect(started.result["workout_id"] == .string(workout.id) && started.artifact.status == .active)
            #expect(started.artifact.lane == .execution && started.artifact.actions.isEmpty, "a session being trained")
            #expect(workout.sourceTemplateId == routine.templates[0].id && workout.sourceRoutineId == routine.routine.id)
            #expect(
                try await h.module.actions.perform(userId: "u1", request: request, idempotencyKey: "go").value().result == started.result)
            await expectError("FAILED_PRECONDITION") {
                _ = try await h.module.actions.perform(userId: "u1", request: request, idempotencyKey: "again")
            }
            await expectError("FAILED_PRECONDITION") {
                _ = try await h.module.actions.perform(
                    userId: "u1", request: .init(action: .saveRoutine, artifactId: artifactId, conversationId: conversationId),
                    idempotencyKey: nil)
            }

            // Another proposal of the day, saved as a template of its own.
            let again = await h.send("u1", "what should I do today?", conversationId: conversationId)
            let second = try #require(again.artifacts.first?["artifact_id"]?.stringValue)
            let saved = try await h.module.actions.perform(
                userId: "u1", request: .init(action: .saveAsTemplate, artifactId: second, conversationId: conversationId),
                idempotencyKey: "save"
            ).value()
            let templateId = try #require(saved.result["template_id"]?.stringValue)
            let template = try await h.plans.template(userId: "u1", id: templateId)
            #expect(template.exercises.map(\.exerciseId) == [H.bench] && template.id != routine.templates[0].id && template.name == "Push")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func intentsPrescribeAndCompleteTheWorkout(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let workout = await h.startWorkout("u1")
            let prescribed = await h.send(
                "u1", "{\"intent\": \"PRESCRIBE_SET\", \"target_reps\": 6, \"target_weight_kg\": 105}", workoutId: workout.id)
            #expect(prescribed.text == "Next: Barbell Bench Press - Medium Grip, set 1: 6 reps at 105 kg, 2 in reserve.", "\(prescribed)")
            let conversationId = try #require(
                try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil, includeWorkout: true).items.first?.id)
            #expect(
                await h.send("u1", "done", conversationId: conversationId).text.hasPrefix(
                    "Logged Barbell Bench Press - Medium Grip set 1: 6 × 105 kg."))
            let added = await h.send(
                "u1", "{\"intent\": \"ADD_EXERCISE\", \"exercise_id\": \"Pullups\", \"sets\": 2}", conversationId: conversationId)
            #expect(added.text == "Added Pullups with 2 sets.", "\(added)")
            let done = await h.send("u1", "{\"intent\": \"COMPLETE_WORKOUT\"}", conversationId: conversationId)
            #expect(done.text == "Workout complete: 1 sets over 1 exercises. Well done.", "\(done)")
            #expect(try await h.workouts.activeWorkout(userId: "u1") == nil)
            #expect(await h.send("u1", "done", conversationId: conversationId).text.contains("no workout in progress"))

            let other = await h.startWorkout("u2")
            let cancelled = await h.send("u2", "{\"intent\": \"CANCEL_WORKOUT\"}", workoutId: other.id)
            #expect(cancelled.text == "Workout cancelled; nothing was saved to your history.", "\(cancelled)")
            #expect(try await h.workouts.activeWorkout(userId: "u2") == nil)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aPlanningRequestGetsARoutineOrTheQuestionsItNeeds(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let planned = await h.send("u1", "Build me a 4-day upper/lower with dumbbells")
            let summary = try #require(planned.artifacts.first?["data"], "\(planned.text)")
            #expect(summary["type"] == "routine_summary" && summary["data"]?["days"]?.arrayValue?.count == 4, "\(planned.text)")
            #expect(planned.text.contains("4 days") && planned.types.last == "message_end")
            let routine = try #require(summary["data"]?["routine"]).decode(RoutinePlan.self)
            for exercise in routine.templates.flatMap(\.exercises) {
                let equipment = try #require(try await h.module.services.catalog.exercise(id: exercise.exerciseId)).equipment
                #expect(
                    equipment == "dumbbell" || equipment == "body only" || equipment == nil,
                    "\(exercise.exerciseId): \(equipment ?? "none")")
            }

            // Missing days and equipment: questions first, then the answers complete the request.
            let asked = await h.send("u2", "make me a routine")
            let questions = try #require(asked.artifacts.first?["data"])
            #expect(questions["type"] == "clarify_questions")
            #expect(questions["data"]?["questions"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["days", "equipment"])
            let conversationId = try #require(try await h.module.services.store.list(userId: "u2", limit: 1, cursor: nil).items.first?.id)
            let stillAsking = await h.send("u2", "4 days a week", conversationId: conversationId)
            #expect(
                stillAsking.artifacts.first?["data"]?["data"]?["questions"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [
                    "equipment"
                ])
            let answered = await h.send("u2", "Full gym", conversationId: conversationId)
            #expect(answered.artifacts.first?["data"]?["type"] == "routine_summary", "\(answered.text)")
            #expect(answered.artifacts.first?["data"]?["data"]?["days"]?.arrayValue?.count == 4)
            // Unrelated messages after a plan are not taken as answers.
            #expect(await h.send("u2", "hello", conversationId: conversationId).text.contains("I can help"))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theCriticRefusesARoutineWithAnExerciseNotInTheCatalog(engine: SQLEngine) async throws {
        let plan = RoutinePlan(
            name: "Made up",
            templates: [TemplatePlan(name: "A", exercises: [PlannedExercise(exerciseId: "Moon_Press", sets: [TemplateSet()])])])
        try await H.with(engine, model: ScriptedModel(arguments: try JSONValue(encoding: plan))) { h in
            let events = await h.send("u1", "plan please")
            #expect(events.errorCode == "INVALID_ARGUMENT" && events.artifacts.isEmpty)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aClientThatGoesAwayStopsTheWork(engine: SQLEngine) async throws {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (stopped, stoppedContinuation) = AsyncStream<Void>.makeStream()
        try await H.with(engine, model: EndlessModel(started: startedContinuation, stopped: stoppedContinuation)) { h in
            let consumer = Task {
                for try await _ in h.module.stream.events(
                    userId: "u1", input: StreamInput(conversationId: nil, message: "think hard", workoutId: nil),
                    requestLogger: .init(label: "t"))
                {}
            }
            var startedIterator = started.makeAsyncIterator()
            _ = await startedIterator.next()
            consumer.cancel()
            var stoppedIterator = stopped.makeAsyncIterator()
            _ = await stoppedIterator.next()
            let id = try #require(
                try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil, includeWorkout: true).items.first?.id)
            #expect(try await h.module.services.store.detail(userId: "u1", id: id).messages.isEmpty, "a cancelled turn stores nothing")
        }
    }

    func expectError(_ code: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected \(code)")
        } catch let error as ServiceError {
            #expect(error.code.rawValue == code)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}

/// A model that calls the read tools and reports what it got, as a model exploring the user's data would.
struct ReadingModel: CoachModel {
    var name: String { "reading" }

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let names = tools.definitions.map(\.name)
        let planning = try await tools.call("get_planning_context")
        let muscle = try await tools.call("get_muscle_progress", arguments: ["muscle": "chest", "weeks": 4])
        let sets = try await tools.call("query_training_sets", arguments: ["limit": 5])
        let found = try await tools.call("search_exercises", arguments: ["query": "squat", "limit": 3])
        var refused: [String] = []
        for (tool, arguments) in [
            ("log_set", ["reps": 5] as JSONValue), ("get_exercise_progress", ["exercise_id": "Barbell_Squat", "weeks": 0]),
            ("get_exercise_progress", ["exercise_id": "Moon_Press"]), ("no_such_tool", [:]),
        ] {
            do {
                _ = try await tools.call(tool, arguments: arguments)
            } catch let error as ServiceError where error.code == .invalidArgument {
                refused.append("\(tool):\(error.details["field"] ?? "?")")
            }
        }
        try await say(
            """
            tools \(names.count) workout \(names.contains("log_set")); routine \(planning["active_routine"] == .null ? "none" : "yes") \
            templates \(planning["templates"]?.arrayValue?.count ?? -1); chest points \(muscle["points"]?.arrayValue?.count ?? -1); \
            sets \(sets["items"]?.arrayValue?.count ?? -1); squat hits \(found["items"]?.arrayValue?.count ?? -1); \
            refused \(refused.joined(separator: ","))
            """)
    }
}

@Suite struct CoachToolsTests {
    @Test(arguments: TestDatabases.engines)
    func readToolsAnswerForTheRequestsUserAndRefuseBadCalls(engine: SQLEngine) async throws {
        try await CoachHarness.with(engine, model: ReadingModel()) { h in
            await h.analytics.set(
                userId: "u1", muscle: "chest", weeks: [MuscleWeek(weekStart: "2026-11-23", sets: 6, volumeKg: 2000)])
            let events = await h.send("u1", "look around")
            #expect(
                events.text == """
                    tools 20 workout false; routine none templates 0; chest points 1; sets 0; squat hits 3; \
                    refused log_set:tool,get_exercise_progress:weeks,get_exercise_progress:exercise_id,no_such_tool:tool
                    """, "\(events)")
            #expect(events.filter { $0["phase"] == "tool_start" }.count == 6, "each call of a tool announced; no tool, no announcement")
        }
    }
}

/// A model that logs two sets in one turn through the workout tools.
struct TwoSetsModel: CoachModel {
    var name: String { "two-sets" }

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        _ = try await tools.call("log_set", arguments: ["reps": 8, "weight_kg": 100])
        _ = try await tools.call("log_set", arguments: ["reps": 7, "weight_kg": 100])
        try await say("Logged both.")
    }
}

@Suite struct CoachWorkoutToolsTests {
    @Test(arguments: TestDatabases.engines)
    func twoWritesInOneTurnEachGetTheirOwnKey(engine: SQLEngine) async throws {
        try await CoachHarness.with(engine, model: TwoSetsModel()) { h in
            let workout = await h.startWorkout("u1")
            let events = await h.send("u1", "I did two sets, log them", workoutId: workout.id)
            #expect(events.text == "Logged both.", "\(events)")
            let sets = try #require(try await h.workouts.activeWorkout(userId: "u1")).exercises[0].sets
            #expect(sets.prefix(2).map(\.reps) == [8, 7] && sets[2].completedAt == nil)
        }
    }
}
