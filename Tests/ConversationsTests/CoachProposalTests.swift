import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Conversations

/// A model that reads who the user is, what the analyst found and an exercise's entry, and says what it got.
struct ProfileReadingModel: CoachModel {
    var name: String { "profile" }

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let profile = try await tools.call("get_user_profile")
        let analysis = try await tools.call("get_training_analysis", arguments: ["sections": ["insights", "daily_brief"]])
        let squat = try await tools.call("get_exercise_details", arguments: ["exercise_id": .string(CoachHarness.squat)])
        let insight = analysis["insights"]?.arrayValue?.first?["headline"]?.stringValue ?? "-"
        try await say(
            """
            \(profile["name"]?.stringValue ?? "-") \(profile["time_zone"]?.stringValue ?? "-") \(profile["weight_unit"]?.stringValue ?? "-"); \
            analysis \(analysis["available"] == true) \(insight) review \(analysis["weekly_review"] == nil ? "absent" : "present"); \
            \(squat["name"]?.stringValue ?? "-") \(squat["primary_muscles"]?.arrayValue?.first?.stringValue ?? "-")
            """)
    }
}

/// A model that proposes: a session from exercises, new exercises for a template, a reordered routine.
struct ProposingModel: CoachModel {
    var name: String { "proposing" }

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let context = try await tools.call("get_planning_context")
        let routine = try #require(context["active_routine"]?["id"])
        let templates = try #require(context["active_template_ids"]?.arrayValue)
        let sets: JSONValue = [["target_reps": 10, "target_rir": 2], ["target_reps": 10, "target_rir": 2]]
        _ = try await tools.call(
            "propose_workout",
            arguments: ["name": "Quick one", "exercises": [["exercise_id": .string(CoachHarness.bench), "sets": sets]]])
        _ = try await tools.call(
            "update_template",
            arguments: ["template_id": templates[0], "exercises": [["exercise_id": .string(CoachHarness.squat), "sets": sets]]])
        _ = try await tools.call(
            "update_routine", arguments: ["routine_id": routine, "frequency": 3, "template_ids": .array(templates.reversed())])
        var refused: [String] = []
        for (tool, arguments) in [
            ("propose_workout", ["name": "Nothing"] as JSONValue),
            ("propose_workout", ["exercises": [["exercise_id": "Moon_Press", "sets": sets]]]),
            ("update_routine", ["routine_id": routine]),
            ("update_routine", ["routine_id": routine, "frequency": 20]),
        ] {
            do {
                _ = try await tools.call(tool, arguments: arguments)
            } catch let error as ServiceError where error.code == .invalidArgument {
                refused.append("\(tool):\(error.details["field"] ?? "?")")
            }
        }
        try await say("refused \(refused.joined(separator: ","))")
    }
}

/// A model that says the brief it was given.
struct BriefEchoModel: CoachModel {
    var name: String { "brief" }

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let brief = turn.workoutBrief ?? ""
        try await say("brief \(brief.hasPrefix("Workout in progress: Push.")) insight \(brief.contains("Latest insight: Squat stalled"))")
    }
}

@Suite struct CoachProposalTests {
    typealias H = CoachHarness

    @Test(arguments: TestDatabases.engines)
    func theProfileTheAnalysisAndAnExercisesEntryAreRead(engine: SQLEngine) async throws {
        try await H.with(engine, model: ProfileReadingModel()) { h in
            await h.analysis.add(
                AnalysisNote(
                    id: "n1", section: .insights, period: "2026-01-01", headline: "New bench PR", findings: ["105 kg x 3"],
                    createdAt: h.clock.now()),
                userId: "u1", expiresAt: h.clock.now().addingTimeInterval(86_400))
            await h.analysis.add(
                AnalysisNote(
                    id: "n2", section: .insights, period: "2026-01-01", headline: "Someone else's", findings: [], createdAt: h.clock.now()),
                userId: "u2", expiresAt: h.clock.now().addingTimeInterval(86_400))
            let events = await h.send("u1", "who am I")
            #expect(events.text == "Sam Europe/Berlin kg; analysis true New bench PR review absent; Barbell Squat quadriceps", "\(events)")
        }
        try await H.with(engine, model: ProfileReadingModel(), analyst: false) { h in
            let events = await h.send("u1", "who am I")
            #expect(events.text.contains("analysis false -"), "without the analyst the tool says there is none: \(events)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func proposalsBecomeArtifactsThatApplyAgainstTheirVersion(engine: SQLEngine) async throws {
        try await H.with(engine, model: ProposingModel()) { h in
            let day = { (name: String, id: String) in
                TemplatePlan(name: name, exercises: [PlannedExercise(exerciseId: id, sets: [TemplateSet(targetReps: 5)])])
            }
            let created = try await h.plans.createRoutine(
                userId: "u1", plan: RoutinePlan(name: "Split", templates: [day("Push", H.bench), day("Legs", H.squat)]))
            let events = await h.send("u1", "change things")
            #expect(
                events.text
                    == "refused propose_workout:exercises,propose_workout:exercises[0].exercise_id,update_routine:changes,update_routine:frequency"
            )
            let artifacts = events.artifacts.compactMap { $0["data"] }
            #expect(artifacts.map { $0["type"]?.stringValue ?? "" } == ["session_plan", "template_update", "routine_update"])
            #expect(artifacts[0]["data"]?["exercises"]?.arrayValue?.first?["name"] == "Barbell Bench Press - Medium Grip")
            #expect(artifacts[1]["data"]?["kind"] == nil && artifacts[1]["data"]?["expected_version"] == 1)
            #expect(artifacts[1]["data"]?["previous_exercises"] == ["Barbell Bench Press - Medium Grip"])
            #expect(artifacts[2]["data"]?["days"]?.arrayValue?.map { $0["name"]?.stringValue ?? "" } == ["Legs", "Push"])
            #expect(try await h.plans.template(userId: "u1", id: created.templates[0].id).version == 1, "proposals never write")

            let conversationId = try #require(try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil).items.first?.id)
            let act = { (action: ArtifactActions.Action, index: Int, key: String) in
                try await h.module.actions.perform(
                    userId: "u1",
                    request: .init(action: action, artifactId: artifacts[index]["id"]?.stringValue ?? "", conversationId: conversationId),
                    idempotencyKey: key
                ).value()
            }
            let changed = try await act(.accept, 1, "t1")
            let template = try await h.plans.template(userId: "u1", id: created.templates[0].id)
            #expect(template.version == 2 && template.exercises.map(\.exerciseId) == [H.squat] && template.exercises[0].sets.count == 2)
            #expect(changed.result == ["template_id": .string(template.id), "version": 2])
            #expect(try await act(.accept, 1, "t1").result == changed.result, "the same key replays the first answer")

            let reordered = try await act(.accept, 2, "r1")
            let routine = try #require(try await h.plans.activeRoutine(userId: "u1"))
            #expect(routine.templateIds == created.routine.templateIds.reversed() && routine.frequency == 3 && routine.version == 2)
            #expect(reordered.result["routine_id"] == .string(routine.id))

            // A change proposed before the routine changed elsewhere is refused, and nothing is applied.
            let second = await h.send("u1", "change things again", conversationId: conversationId)
            let stale = try #require(second.artifacts.last?["artifact_id"]?.stringValue)
            _ = try await h.plans.updateRoutine(
                userId: "u1", routineId: routine.id, expectedVersion: 2, changes: RoutineChanges(name: "Renamed"), idempotencyKey: nil)
            do {
                _ = try await h.module.actions.perform(
                    userId: "u1", request: .init(action: .accept, artifactId: stale, conversationId: conversationId), idempotencyKey: nil)
                Issue.record("a stale routine change was applied")
            } catch let error as ServiceError {
                #expect(error.code == .conflict)
            }
            #expect(try await h.plans.activeRoutine(userId: "u1")?.name == "Renamed")

            // The inline session starts as a workout of its own.
            let started = try await act(.startWorkout, 0, "go")
            let workout = try #require(try await h.workouts.activeWorkout(userId: "u1"))
            #expect(started.result["workout_id"] == .string(workout.id) && workout.exercises.map(\.exerciseId) == [H.bench])
        }
    }

    @Test(arguments: TestDatabases.engines)
    func savingARoutineKeepsTheActiveOne(engine: SQLEngine) async throws {
        let plan = RoutinePlan(
            name: "Later",
            templates: [TemplatePlan(name: "A", exercises: [PlannedExercise(exerciseId: H.squat, sets: [TemplateSet(targetReps: 5)])])])
        try await H.with(engine, model: ScriptedModel(arguments: try JSONValue(encoding: plan))) { h in
            let events = await h.send("u1", "plan please")
            let artifactId = try #require(events.artifacts.first?["artifact_id"]?.stringValue)
            let conversationId = try #require(try await h.module.services.store.list(userId: "u1", limit: 1, cursor: nil).items.first?.id)
            let saved = try await h.module.actions.perform(
                userId: "u1", request: .init(action: .saveRoutine, artifactId: artifactId, conversationId: conversationId),
                idempotencyKey: nil
            ).value()
            #expect(try await h.plans.activeRoutine(userId: "u1") == nil)
            #expect(try await h.plans.routines(userId: "u1").map(\.id) == [saved.result["routine_id"]?.stringValue ?? "?"])
        }
    }

    @Test(arguments: TestDatabases.engines)
    func workoutModeBriefsTheModelAndAnswersInTwoSentences(engine: SQLEngine) async throws {
        try await H.with(engine, model: BriefEchoModel()) { h in
            let workout = await h.startWorkout("u1")
            await h.analysis.add(
                AnalysisNote(
                    id: "n1", section: .insights, period: "2026-01-01", headline: "Squat stalled", findings: [], createdAt: h.clock.now()),
                userId: "u1", expiresAt: h.clock.now().addingTimeInterval(86_400))
            let events = await h.send("u1", "brief me", workoutId: workout.id)
            #expect(events.text == "brief true insight true", "\(events.text)")
            #expect(events.types.last == "message_end")
        }
        try await H.with(engine) { h in
            let workout = await h.startWorkout("u1")
            await h.analytics.set(
                userId: "u1", exerciseId: H.bench,
                weeks: [
                    ExerciseWeek(
                        weekStart: "2025-12-22", e1rmKg: 120, topWeightKg: 100, bestSet: ExerciseWeek.BestSet(weightKg: 100, reps: 6),
                        volumeKg: 4000, sets: 6, reps: 36),
                    ExerciseWeek(
                        weekStart: "2025-12-29", e1rmKg: 125, topWeightKg: 105, bestSet: ExerciseWeek.BestSet(weightKg: 105, reps: 6),
                        volumeKg: 4200, sets: 6, reps: 36),
                ])
            let outside = await h.send("u1", "how is my bench going?")
            let inside = await h.send("u1", "how is my bench going?", workoutId: workout.id)
            #expect(Self.sentences(outside.text) > 2, "\(outside.text)")
            #expect(Self.sentences(inside.text) == 2 && outside.text.hasPrefix(inside.text), "\(inside.text)")
            #expect(inside.artifacts.count == 1, "the chart still comes")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func howAmIDoingQuotesTheAnalystAndTheWeeks(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            #expect(await h.send("u1", "How am I doing?").text.contains("no logged workouts"))
            await h.analytics.set(
                userId: "u1",
                context: TrainingContext(
                    weekStart: "2025-12-29", workoutsPerWeek: [2, 3, 3, 2, 4], lastWorkouts: [], muscles: [],
                    lifts: [
                        .init(exerciseId: H.bench, name: "Bench Press", e1rmKg: 105, previousE1rmKg: 100),
                        .init(exerciseId: H.squat, name: "Squat", e1rmKg: 140, previousE1rmKg: nil),
                    ]))
            await h.analysis.add(
                AnalysisNote(
                    id: "n1", section: .weeklyReview, period: "2025-W52", headline: "A solid week", findings: ["Bench up 5 kg"],
                    createdAt: h.clock.now()),
                userId: "u1", expiresAt: h.clock.now().addingTimeInterval(86_400))
            let text = await h.send("u1", "How am I doing?").text
            #expect(
                text == """
                    A solid week. Bench up 5 kg.
                    This week: 2 workouts, against 3.0 a week over the four weeks before.
                    Estimated 1RMs over the last four weeks: Bench Press 105 kg (up 5 kg), Squat 140 kg.
                    """, "\(text)")
        }
    }

    static func sentences(_ text: String) -> Int {
        text.split(separator: " ").filter { $0.hasSuffix(".") || $0.hasSuffix("!") || $0.hasSuffix("?") }.count
    }

    @Test func theSentenceCapKeepsTwoSentencesAcrossChunks() {
        let cap = SentenceCap(limit: 2)
        #expect(cap.admit("Hi. 8.") == "Hi. 8.")
        #expect(cap.admit("5 kg is fine!") == "5 kg is fine!")
        #expect(cap.admit(" More? yes") == "")
        #expect(cap.admit("and more.") == "")
        let one = SentenceCap(limit: 2)
        #expect(one.admit("No sentence end at all") == "No sentence end at all")
    }
}
