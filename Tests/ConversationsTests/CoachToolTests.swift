import CoachTool
import Contracts
import Conversations
import Foundation
import Platform
import PovverModules
import ProcessComposition
import Subscription
import Synchronization
import TestSupport
import Testing

/// `povver-coach` on the admin composition (the CLI's path): a turn streams text, the next continues the same
/// conversation, the list shows it; artifacts render as readable text.
@Suite struct CoachToolTests {
    @Test func turnsStreamTextAndContinueTheConversation() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-coach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        FileManager.default.createFile(atPath: "\(directory.path)/db.sqlite", contents: nil)
        try await AdminComposition.with(
            modules: ["auth", "subscription", "conversations", "workouts", "analytics"],
            environment: ["POVVER_SIGNING_KEY_FILE": "\(directory.path)/key.pem"], databaseURL: "sqlite://\(directory.path)/db.sqlite",
            label: "test"
        ) { composition in
            let tool = try CoachTool(composition: composition)
            let written = Mutex("")
            let write: @Sendable (String) -> Void = { text in written.withLock { $0 += text } }
            do {
                try await tool.turn(userId: "coach-user", message: "hello", conversationId: nil, workoutId: nil, write: write)
                Issue.record("a user who is not premium was coached")
            } catch let error as ServiceError {
                #expect(error.code == .premiumRequired)
            }
            _ = try await composition.module(SubscriptionModule.self).service.setOverride(userId: "coach-user", override: "premium")
            let conversation = try await tool.turn(
                userId: "coach-user", message: "hello", conversationId: nil, workoutId: nil, write: write)
            #expect(written.withLock { $0 }.contains("How is my bench going?"))
            let again = try await tool.turn(
                userId: "coach-user", message: "how is my squat going?", conversationId: conversation, workoutId: nil, write: write)
            #expect(again == conversation && conversation != nil)
            #expect(written.withLock { $0 }.contains("· search_exercises…"), "tool calls are shown")
            let listed = try await tool.conversations(userId: "coach-user", limit: 10)
            #expect(listed.contains(conversation ?? "?") && listed.contains("Hello") && listed.contains(" 4 "), "\(listed)")
        }
    }

    /// `povver-coach chat` in two conversations: what the first told the coach is used in the second, and
    /// `povver-coach memory` shows and forgets it.
    @Test func memoryCarriesAcrossConversations() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-coach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        FileManager.default.createFile(atPath: "\(directory.path)/db.sqlite", contents: nil)
        try await AdminComposition.with(
            modules: ["auth", "subscription", "conversations", "workouts", "analytics"],
            environment: ["POVVER_SIGNING_KEY_FILE": "\(directory.path)/key.pem"], databaseURL: "sqlite://\(directory.path)/db.sqlite",
            label: "test"
        ) { composition in
            let tool = try CoachTool(composition: composition)
            _ = try await composition.module(SubscriptionModule.self).service.setOverride(userId: "lifter", override: "premium")
            let written = Mutex("")
            let write: @Sendable (String) -> Void = { text in written.withLock { $0 += text } }
            let first = try await tool.turn(
                userId: "lifter", message: "make me a 4 day upper lower plan, I only have dumbbells and 40 minutes", conversationId: nil,
                workoutId: nil, write: write)
            written.withLock { $0 = "" }
            let second = try await tool.turn(
                userId: "lifter", message: "give me a new training plan", conversationId: nil, workoutId: nil, write: write)
            #expect(first != second, "two conversations")
            let answer = written.withLock { $0 }
            #expect(answer.contains("Going by what you told me before (dumbbells, 4 days a week, 40-minute sessions)"), "\(answer)")
            #expect(!answer.contains("quick question"), "nothing asked again: \(answer)")
            let shown = try await tool.memory(userId: "lifter", forget: [])
            #expect(shown == "Equipment: dumbbell, bodyweight\nTraining days a week: 4\nLongest session: 40 minutes\n", "\(shown)")
            #expect(try await tool.memory(userId: "lifter", forget: ["days"]).contains("days") == false)
            await #expect(throws: ServiceError.self) { _ = try await tool.memory(userId: "lifter", forget: ["shoe size"]) }
        }
    }

    @Test func artifactsRenderAsReadableText() {
        let routine: JSONValue = [
            "days": [
                ["name": "Upper", "exercises": [["name": "Bench Press", "sets": 3, "reps": 8, "rir": 2]]],
                ["name": "Lower", "exercises": [["name": "Squat", "sets": 4, "reps": 5, "rir": .null]]],
            ]
        ]
        #expect(
            ArtifactText.render(type: "routine_summary", title: "Upper/Lower", data: routine) == """
                [routine_summary] Upper/Lower
                  Upper
                    - Bench Press: 3 sets × 8, RIR 2
                  Lower
                    - Squat: 4 sets × 5
                """)
        #expect(
            ArtifactText.render(type: "routine_update", title: "Upper/Lower", data: routine).hasPrefix(
                "[routine_update] Upper/Lower\n  Upper\n    - Bench Press: 3 sets × 8, RIR 2"), "a change shows its days too")
        let change: JSONValue = [
            "exercises": [["name": "Leg Press", "sets": [["target_reps": 12, "target_rir": 2, "target_weight_kg": .null]]]]
        ]
        #expect(
            ArtifactText.render(type: "template_update", title: "Legs: changes", data: change)
                == "[template_update] Legs: changes\n  - Leg Press: 1 sets × 12")
        let chart: JSONValue = ["unit": "kg", "points": [["week_start": "2026-11-02", "value": .double(102.5)]]]
        #expect(ArtifactText.render(type: "visualization", title: "Bench", data: chart) == "[visualization] Bench\n  2026-11-02  102.5 kg")
        let questions: JSONValue = ["questions": [["id": "days", "text": "How many days?", "options": ["3", "4"]]]]
        #expect(
            ArtifactText.render(type: "clarify_questions", title: "Q", data: questions)
                == "[clarify_questions] Q\n  ? How many days? (3 / 4)")
    }
}
