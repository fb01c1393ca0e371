import Contracts
import Fakes
import Foundation
import Platform
import PovverKit
import SQLKit
import TestSupport
import Testing

@testable import Conversations

/// Artifacts stored before cards (status `proposed` / `dismissed`, the coach's lane in `lane`, a change to a template
/// or routine marked with `kind` inside a `session_plan` or `routine_summary`) are read as the cards they are, and
/// acting on one writes it in the card's form.
@Suite struct StoredCardTests {
    typealias H = CoachHarness

    @Test(arguments: TestDatabases.engines)
    func rowsWrittenBeforeCardsAreReadAsCards(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let store = h.module.services.store
            let conversation = try await store.create(userId: "u1", workoutId: nil)
            try await store.recordTurn(
                userId: "u1", conversationId: conversation.id,
                messages: [(.user, "hi", nil, "m-user"), (.assistant, "hello", .slow, "m-1")],
                artifacts: [], title: "Hi")
            let sets = [TemplateSet(targetReps: 5, targetRir: 2)]
            let legs = TemplatePlan(name: "Legs", exercises: [PlannedExercise(exerciseId: H.squat, sets: sets)])
            let created = try await h.plans.createRoutine(userId: "u1", plan: RoutinePlan(name: "Split", templates: [legs]))
            let template = created.templates[0]
            let routineChange = try await RoutineUpdateData.make(
                routine: created.routine, expectedVersion: 1, changes: RoutineChanges(frequency: 3), userId: "u1", plans: h.plans)
            let rows: [(id: String, type: String, status: String, data: JSONValue)] = [
                (
                    "old-change", "session_plan", "proposed",
                    try SessionPlanData.make(
                        name: "Legs", exercises: [(H.bench, "Barbell Bench Press - Medium Grip", sets)],
                        extra: [
                            "kind": "template_update", "template_id": .string(template.id), "expected_version": 1,
                            "previous_exercises": ["Barbell Squat"],
                        ])
                ),
                ("old-chart", "visualization", "dismissed", ["chart": "line", "metric": "e1rm_kg", "unit": "kg", "points": []]),
                ("old-routine-change", "routine_summary", "accepted", try Self.adding(kind: "routine_update", to: routineChange)),
                (
                    "old-plan", "routine_summary", "proposed",
                    try RoutineSummaryData.make(RoutinePlan(name: "Legs only", templates: [legs]), names: [H.squat: "Barbell Squat"])
                ),
            ]
            for (index, row) in rows.enumerated() {
                try await h.module.services.database.sql.raw(
                    """
                    INSERT INTO conversations_artifacts
                        (id, conversation_id, user_id, message_id, type, lane, status, title, data, result, created_at, updated_at)
                    VALUES (\(bind: row.id), \(bind: conversation.id), 'u1', 'm-1', \(bind: row.type), 'slow', \(bind: row.status),
                        'Old', \(bind: try JSONCoding.encodeToString(row.data)), NULL, \(bind: index + 1), \(bind: index + 1))
                    """
                ).run()
            }

            let cards = try await CardDecodingTests.stored(h, "u1", conversation.id)
            #expect(cards.map(\.type) == [.templateUpdate, .visualization, .routineUpdate, .routineSummary])
            #expect(cards.map(\.status) == [.pending, .rejected, .accepted, .pending])
            #expect(cards.map(\.lane) == [.planning, .analysis, .planning, .planning])
            #expect(cards.map(\.actions) == [[.accept, .startWorkout, .reject, .edit], [], [], [.accept, .saveRoutine, .reject, .edit]])
            #expect(cards[0].meta.sourceTemplateId == template.id && cards[2].meta.sourceRoutineId == created.routine.id)
            let read = try await store.detail(userId: "u1", id: conversation.id).artifacts
            #expect(read.allSatisfy { $0.data["kind"] == nil }, "kind is the type now")

            // Acting on an old row applies it, and writes the row as a card.
            let accepted = try await h.module.actions.perform(
                userId: "u1", request: .init(action: .accept, artifactId: "old-change", conversationId: conversation.id),
                idempotencyKey: nil
            ).value()
            #expect(accepted.artifact.status == .accepted && accepted.result["version"] == 2)
            #expect(try await h.plans.template(userId: "u1", id: template.id).exercises.map(\.exerciseId) == [H.bench])
            _ = try await h.module.actions.perform(
                userId: "u1", request: .init(action: .reject, artifactId: "old-plan", conversationId: conversation.id), idempotencyKey: nil)
            #expect(try await h.plans.routines(userId: "u1").count == 1, "a rejected plan makes nothing")
            let columns = try await h.module.services.database.sql.raw(
                "SELECT id, type, lane, status, data FROM conversations_artifacts WHERE id IN ('old-change', 'old-plan') ORDER BY id"
            ).all().map { row in
                [
                    try row.decode(column: "type", as: String.self), try row.decode(column: "lane", as: String.self),
                    try row.decode(column: "status", as: String.self),
                    try row.decode(column: "data", as: String.self).contains("\"kind\"") ? "kind" : "-",
                ]
            }
            #expect(columns == [["template_update", "planning", "accepted", "-"], ["routine_summary", "planning", "rejected", "-"]])
        }
    }

    static func adding(kind: String, to data: JSONValue) throws -> JSONValue {
        guard case .object(var fields) = data else { throw ServiceError(.internalError) }
        fields["kind"] = .string(kind)
        return .object(fields)
    }
}
