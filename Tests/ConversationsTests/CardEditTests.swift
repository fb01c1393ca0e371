import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Conversations

/// A model that proposes a change to the active routine: three sessions a week.
struct RoutineChangeModel: CoachModel {
    var name: String { "routine-change" }

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let context = try await tools.call("get_planning_context")
        let routine = try #require(context["active_routine"]?["id"])
        _ = try await tools.call("update_routine", arguments: ["routine_id": routine, "frequency": 3])
        try await say("Three a week?")
    }
}

/// A card the user edited before acting on it: checked as the coach's proposal is, applied as edited, kept as the
/// card's content; a bad edit is `INVALID_ARGUMENT` naming the field under `data` and changes nothing.
@Suite struct CardEditTests {
    typealias H = CoachHarness

    /// The routine "Split": one day, Legs (squat 2 × 5).
    static func split(_ h: CoachHarness) async throws -> CreatedRoutine {
        let sets = [TemplateSet(targetReps: 5, targetRir: 2), TemplateSet(targetReps: 5, targetRir: 2)]
        return try await h.plans.createRoutine(
            userId: "u1",
            plan: RoutinePlan(
                name: "Split", templates: [TemplatePlan(name: "Legs", exercises: [PlannedExercise(exerciseId: H.squat, sets: sets)])]))
    }

    /// `data` with `key` set to `value`.
    static func with(_ data: JSONValue?, _ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var fields)? = data else { return [:] }
        fields[key] = value
        return .object(fields)
    }

    @Test(arguments: TestDatabases.engines)
    func anEditedSessionStartsAsEditedAndBadEditsChangeNothing(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let created = try await Self.split(h)
            let events = await h.send("u1", "What should I do today?")
            let card = try #require(events.artifacts.first?["data"])
            let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
            let act = { (action: ArtifactActions.Action, data: JSONValue?) in
                try await h.module.actions.perform(
                    userId: "u1",
                    request: .init(action: action, artifactId: card["id"]?.stringValue ?? "", conversationId: conversationId, data: data),
                    idempotencyKey: nil
                ).value()
            }
            let set: JSONValue = ["target_reps": 10, "target_rir": 1, "target_weight_kg": 60]
            let exercise = { (id: String, sets: [JSONValue]) -> JSONValue in ["exercise_id": .string(id), "sets": .array(sets)] }
            let refusals: [(JSONValue, String)] = [
                (Self.with(card["data"], "exercises", [exercise("Moon_Press", [set])]), "data.exercises[0].exercise_id"),
                (Self.with(card["data"], "exercises", [exercise(H.bench, Array(repeating: set, count: 11))]), "data.exercises[0].sets"),
                (Self.with(card["data"], "exercises", [exercise(H.bench, [["weight_kg": 60]])]), "data.exercises[0].sets[0].weight_kg"),
                (Self.with(card["data"], "exercises", [exercise(H.bench, [["target_reps": 80]])]), "data.exercises[0].sets[0].target_reps"),
                (Self.with(card["data"], "template_id", "another"), "data.template_id"),
                (Self.with(card["data"], "exercises", []), "data.exercises"),
                ("a string", "data"),
            ]
            for (data, field) in refusals {
                await expectCode(.invalidArgument, field, details: ["field": field]) { _ = try await act(.startWorkout, data) }
            }
            await expectCode(.invalidArgument, "reject takes no data", details: ["field": "data"]) { _ = try await act(.reject, [:]) }
            await expectCode(
                .failedPrecondition, "a session is not accepted", details: ["offered": "start_workout,save_as_template,reject"]
            ) {
                _ = try await act(.accept, nil)
            }
            #expect(try await h.workouts.activeWorkout(userId: "u1") == nil)
            #expect(try await h.module.services.store.detail(userId: "u1", id: conversationId).artifacts.first?.status == .pending)

            let edited = Self.with(card["data"], "exercises", [exercise(H.squat, [set]), exercise(H.bench, [set, set])])
            let started = try await act(.startWorkout, Self.with(edited, "name", "Legs and bench"))
            let workout = try #require(try await h.workouts.activeWorkout(userId: "u1"))
            #expect(started.result["workout_id"] == .string(workout.id) && workout.exercises.map(\.exerciseId) == [H.squat, H.bench])
            #expect(
                workout.exercises[1].sets.map(\.targetWeightKg) == [60, 60] && workout.sourceTemplateId == nil,
                "an edited session is a plan")
            let stored = try #require(try await h.module.services.store.detail(userId: "u1", id: conversationId).artifacts.first)
            #expect(stored.status == .active && stored.lane == .execution && stored.data["name"] == "Legs and bench")
            #expect(stored.data["exercises"]?.arrayValue?[1]["name"] == "Barbell Bench Press - Medium Grip", "names from the catalog")
            #expect(stored.meta.sourceTemplateId == created.templates[0].id, "still of its template")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func anEditedTemplateChangeIsAppliedAsEdited(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let created = try await Self.split(h)
            let events = await h.send("u1", "swap squats for something easier on my knees")
            let card = try #require(events.artifacts.first?["data"])
            #expect(card["type"] == "template_update")
            let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
            let act = { (data: JSONValue) in
                try await h.module.actions.perform(
                    userId: "u1",
                    request: .init(action: .accept, artifactId: card["id"]?.stringValue ?? "", conversationId: conversationId, data: data),
                    idempotencyKey: nil
                ).value()
            }
            let leg: JSONValue = ["exercise_id": "Leg_Press", "sets": [["target_reps": 12]]]
            await expectCode(.invalidArgument, "the template's name is the template's", details: ["field": "data.name"]) {
                _ = try await act(Self.with(Self.with(card["data"], "exercises", [leg]), "name", "Renamed"))
            }
            await expectCode(.invalidArgument, "the version it was made from", details: ["field": "data.expected_version"]) {
                _ = try await act(Self.with(card["data"], "expected_version", 7))
            }
            let accepted = try await act(Self.with(card["data"], "exercises", [leg]))
            let template = try await h.plans.template(userId: "u1", id: created.templates[0].id)
            #expect(template.version == 2 && template.exercises.map(\.exerciseId) == ["Leg_Press"] && template.exercises[0].sets.count == 1)
            #expect(accepted.artifact.data["exercises"]?.arrayValue?.count == 1 && accepted.artifact.status == .accepted)
            #expect(accepted.artifact.data["previous_exercises"] == ["Barbell Squat"], "derived, kept")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func anEditedRoutineChangeAppliesItsChanges(engine: SQLEngine) async throws {
        try await H.with(engine, model: RoutineChangeModel()) { h in
            let created = try await Self.split(h)
            let events = await h.send("u1", "fewer sessions")
            let card = try #require(events.artifacts.first?["data"])
            #expect(card["type"] == "routine_update" && card["data"]?["changes"]?["frequency"] == 3)
            let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
            let act = { (data: JSONValue) in
                try await h.module.actions.perform(
                    userId: "u1",
                    request: .init(action: .accept, artifactId: card["id"]?.stringValue ?? "", conversationId: conversationId, data: data),
                    idempotencyKey: nil
                ).value()
            }
            await expectCode(.invalidArgument, "the view alone", details: ["field": "data.routine"]) {
                _ = try await act(Self.with(card["data"], "routine", ["name": "Split", "frequency": 5, "template_ids": []]))
            }
            await expectCode(.invalidArgument, "not the user's template", details: ["field": "data.changes.template_ids[0]"]) {
                _ = try await act(Self.with(card["data"], "changes", ["template_ids": ["someone-elses"]]))
            }
            await expectCode(.invalidArgument, "no change", details: ["field": "data.changes"]) {
                _ = try await act(Self.with(card["data"], "changes", [:]))
            }
            #expect(try await h.plans.activeRoutine(userId: "u1")?.version == 1, "refusals change nothing")
            let accepted = try await act(Self.with(card["data"], "changes", ["frequency": 4, "name": "Split 4x"]))
            let routine = try #require(try await h.plans.activeRoutine(userId: "u1"))
            #expect(routine.id == created.routine.id && routine.frequency == 4 && routine.name == "Split 4x" && routine.version == 2)
            #expect(accepted.artifact.data["routine"]?["frequency"] == 4 && accepted.artifact.data["routine"]?["name"] == "Split 4x")
        }
    }
}
