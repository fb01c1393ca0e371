import Contracts
import Fakes
import Foundation
import Platform
import PovverKit
import TestSupport
import Testing

@testable import Conversations

/// Every card the coach emits, on the rule-based coach and on a model, decodes strictly into the app's card model
/// (PovverKit's `CanvasCardModel`, the one the app uses, written from docs/api.md "Cards"), as streamed and as `getConversation` answers it.
@Suite struct CardDecodingTests {
    typealias H = CoachHarness

    /// The cards of `events`, decoded as the app decodes them; each event's `artifact_id` is its card's id.
    static func cards(_ events: [JSONValue]) throws -> [CanvasCardModel] {
        try events.artifacts.map { event in
            let card = try CanvasCardModel.decode(try #require(event["data"]))
            #expect(event["artifact_id"]?.stringValue == card.id)
            return card
        }
    }

    /// The user's stored cards of a conversation, as `getConversation` writes them, decoded as the app decodes them.
    static func stored(_ h: CoachHarness, _ userId: String, _ conversationId: String) async throws -> [CanvasCardModel] {
        let detail = try await h.module.services.store.detail(userId: userId, id: conversationId)
        let json = try JSONCoding.makeDecoder().decode(JSONValue.self, from: JSONCoding.encode(detail))
        return try (json["artifacts"]?.arrayValue ?? []).map(CanvasCardModel.decode)
    }

    @Test(arguments: TestDatabases.engines)
    func everyCardTheRuleBasedCoachEmitsDecodes(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            var cards: [CanvasCardModel] = []
            func turn(_ userId: String, _ message: String) async throws {
                let events = await h.send(userId, message)
                #expect(events.last?["type"] == "message_end" && events.last?["lane"] == "slow", "\(events)")
                let streamed = try Self.cards(events)
                let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
                #expect(try await Self.stored(h, userId, conversationId) == streamed, "stored as streamed")
                cards += streamed
            }
            try await turn("u1", "Build me a 4-day upper/lower plan, full gym")
            try await turn("u2", "make me a routine")
            await h.analytics.set(
                userId: "u1", exerciseId: H.bench,
                weeks: [
                    ExerciseWeek(
                        weekStart: "2026-11-02", e1rmKg: 100, topWeightKg: 90, bestSet: .init(weightKg: 90, reps: 5), volumeKg: 900,
                        sets: 3, reps: 15)
                ])
            try await turn("u1", "How is my bench going?")
            let sets = [TemplateSet(targetReps: 5, targetRir: 2)]
            let created = try await h.plans.createRoutine(
                userId: "u1",
                plan: RoutinePlan(
                    name: "Split", templates: [TemplatePlan(name: "Legs", exercises: [PlannedExercise(exerciseId: H.squat, sets: sets)])]))
            try await turn("u1", "What should I do today?")
            try await turn("u1", "swap squats for something easier on my knees")

            #expect(
                Set(cards.map(\.type)) == [.routineSummary, .clarifyQuestions, .visualization, .sessionPlan, .templateUpdate],
                "\(cards.map(\.type))")
            for card in cards {
                #expect(card.status == .pending && card.actions == Self.actions[card.type], "\(card.type): \(card.actions)")
                #expect(card.lane == (card.type == .visualization ? .analysis : .planning))
            }
            let session = try #require(cards.first { $0.type == .sessionPlan })
            #expect(session.meta.sourceTemplateId == created.templates[0].id && session.meta.sourceRoutineId == created.routine.id)
            #expect(session.subtitle == "1 exercise")
            let change = try #require(cards.first { $0.type == .templateUpdate })
            #expect(change.meta.sourceTemplateId == created.templates[0].id && change.meta.sourceRoutineId == nil)
            let routine = try #require(cards.first { $0.type == .routineSummary })
            #expect(routine.meta.draftId == routine.id && routine.subtitle == "4 days")
        }
    }

    /// What each type offers while pending (docs/coach.md).
    static let actions: [CanvasCardModel.CardType: [CanvasCardModel.CardAction]] = [
        .sessionPlan: [.startWorkout, .saveAsTemplate, .reject, .edit], .routineSummary: [.accept, .saveRoutine, .reject, .edit],
        .templateUpdate: [.accept, .startWorkout, .reject, .edit], .routineUpdate: [.accept, .reject, .edit],
        .visualization: [.reject], .analysisSummary: [.reject], .clarifyQuestions: [],
    ]

    @Test(arguments: TestDatabases.engines)
    func everyCardAModelProposesDecodes(engine: SQLEngine) async throws {
        // Ids in order: the routine's template (id-1), then the routine (id-2), then the turn's.
        let set: JSONValue = ["target_reps": 8, "target_rir": 2]
        let calls: [(String, JSONValue)] = [
            (
                "propose_routine",
                [
                    "name": "Two days",
                    "templates": [
                        ["name": "A", "exercises": [["exercise_id": .string(H.squat), "sets": [set, set]]]],
                        ["name": "B", "exercises": [["exercise_id": .string(H.bench), "sets": [set]]]],
                    ],
                ]
            ),
            ("propose_workout", ["name": "Quick one", "exercises": [["exercise_id": .string(H.bench), "sets": [set]]]]),
            ("propose_workout", ["template_id": "id-1"]),
            ("update_template", ["template_id": "id-1", "exercises": [["exercise_id": .string(H.bench), "sets": [set, set]]]]),
            ("update_routine", ["routine_id": "id-2", "frequency": 3]),
            ("show_progress_chart", ["exercise_id": .string(H.bench), "weeks": 4]),
            ("show_muscle_chart", ["muscle": "chest", "weeks": 4]),
            ("show_muscle_chart", [:]),
            ("show_lifts_table", [:]),
            ("show_analysis_summary", [:]),
            ("ask_clarifying_questions", ["questions": [["id": "days", "text": "How many days?", "options": ["3", "4"]]]]),
        ]
        // Two steps: a step holds at most 8 tool calls (`POVVER_LLM_MAX_TOOL_CALLS_PER_STEP`).
        let step = { (range: Range<Int>) throws -> FakeChatServer.Reply in
            .stream(
                FakeChatServer.toolCalls(
                    try range.map { index in
                        ("call_\(index)", calls[index].0, [String(decoding: try JSONCoding.encode(calls[index].1), as: UTF8.self)])
                    }))
        }
        let script: [FakeChatServer.Reply] = [
            try step(0..<6), try step(6..<calls.count), .stream(FakeChatServer.text(["Here you go."])),
        ]
        let server = FakeChatServer(script)
        try await server.serve { base in
            let model = LanguageModelCoachTests.model(base)
            try await H.with(engine, model: model, ids: SequentialIDGenerator()) { h in
                let created = try await h.plans.createRoutine(
                    userId: "u1",
                    plan: RoutinePlan(
                        name: "Split",
                        templates: [
                            TemplatePlan(
                                name: "Legs", exercises: [PlannedExercise(exerciseId: H.squat, sets: [TemplateSet(targetReps: 5)])])
                        ]))
                #expect(created.templates.map(\.id) == ["id-1"] && created.routine.id == "id-2", "the ids the script names")
                let events = await h.send("u1", "show me everything")
                #expect(events.last?["type"] == "message_end" && events.last?["lane"] == "slow", "\(events)")
                let cards = try Self.cards(events)
                #expect(
                    cards.map(\.type) == [
                        .routineSummary, .sessionPlan, .sessionPlan, .templateUpdate, .routineUpdate, .visualization, .visualization,
                        .visualization, .visualization, .analysisSummary, .clarifyQuestions,
                    ], "\(events.filter { $0["type"] == "status" })")
                let conversationId = try #require(events.first?["conversation_id"]?.stringValue)
                #expect(try await Self.stored(h, "u1", conversationId) == cards)
                #expect(cards[1].meta == CanvasCardModel.CardMeta(), "an inline session")
                #expect(cards[2].meta.sourceTemplateId == "id-1" && cards[2].meta.sourceRoutineId == "id-2")
                #expect(cards[3].meta.sourceTemplateId == "id-1" && cards[4].meta.sourceRoutineId == "id-2")
                guard case .routineUpdate(let update) = cards[4].data else {
                    Issue.record("\(cards[4].data)")
                    return
                }
                #expect(update.changes.frequency == 3 && update.routine.frequency == 3 && update.days.map(\.templateId) == ["id-1"])
                for card in cards { #expect(card.actions == Self.actions[card.type], "\(card.type)") }
            }
        }
    }

    /// The mirror is as strict as the app: a value of an enum the app does not know fails the card.
    @Test func theAppsModelRefusesWhatItDoesNotKnow() throws {
        let card: JSONValue = [
            "id": "c1", "type": "visualization", "lane": "analysis", "status": "pending", "title": "Bench", "subtitle": .null,
            "data": ["chart": "line", "metric": "e1rm_kg", "unit": "kg", "points": [["week_start": "2026-11-02", "value": 100]]],
            "actions": ["reject"], "meta": ["source_template_id": .null, "source_routine_id": .null, "draft_id": .null],
        ]
        #expect(try CanvasCardModel.decode(card).type == .visualization)
        for (key, value) in [
            ("lane", "slow"), ("status", "proposed"), ("status", "dismissed"), ("type", "workout_plan"), ("actions", ["dismiss"]),
        ] as [(String, JSONValue)] {
            guard case .object(var fields) = card else { return }
            fields[key] = value
            #expect(throws: DecodingError.self, "\(key): \(value)") { try CanvasCardModel.decode(JSONValue.object(fields)) }
        }
    }
}
