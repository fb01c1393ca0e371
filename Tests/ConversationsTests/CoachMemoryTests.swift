import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Conversations

/// A model that reads what the user told the coach, and keeps a new fact.
struct RememberingModel: CoachModel {
    var name: String { "remembering" }

    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let kept = try await tools.call("get_coach_memory")
        try await say("I know: \(turn.memory.lines.joined(separator: "; ")). Tool: \(kept["days"]?.intValue.map(String.init) ?? "-").")
        _ = try await tools.call("remember", arguments: ["experience": "beginner", "forget": ["session_minutes"]])
    }
}

/// What the user tells the coach is kept for every later conversation, shown, changed and forgotten
/// (`CoachMemory`), and goes with the account.
@Suite struct CoachMemoryTests {
    typealias H = CoachHarness

    /// A plan asked for in one conversation is remembered: the next plan, in a new conversation, is built from it
    /// without asking for equipment or days again, and says what it went by.
    @Test(arguments: TestDatabases.engines)
    func aPlanRequestIsRememberedForTheNextConversation(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let first = await h.send("u1", "build me a 3 day full body routine with dumbbells, 45 minutes, my knees are bad")
            #expect(first.artifacts.count == 1, "\(first)")
            let kept = try await h.module.services.memory.memory(userId: "u1")
            #expect(kept.equipment == ["dumbbell", "bodyweight"] && kept.days == 3 && kept.sessionMinutes == 45)
            #expect(kept.injuries == ["knees"] && kept.goal == nil, "no goal was named")

            let questionsBefore = await h.send("u2", "build me a new routine")
            #expect(questionsBefore.artifacts.first?["data"]?["type"] == "clarify_questions", "a user with no memory is asked")

            let second = await h.send("u1", "build me a new routine")
            #expect(
                second.text.contains("Going by what you told me before (dumbbells, 3 days a week, 45-minute sessions"), "\(second.text)")
            #expect(second.artifacts.first?["data"]?["type"] == "routine_summary", "no questions: \(second)")
        }
    }

    /// An exercise the user said they do not want stays out of their later plans, and the plan says it went by that;
    /// another user's plan of the same request still has it.
    @Test(arguments: TestDatabases.engines)
    func anExerciseTheUserDislikesIsLeftOutOfLaterPlans(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let request = "build me a 4 day upper lower routine, full gym"
            let names = { (events: [JSONValue]) in
                (events.artifacts.first?["data"]?["data"]?["days"]?.arrayValue ?? []).flatMap { $0["exercises"]?.arrayValue ?? [] }
                    .compactMap { $0["name"]?.stringValue?.lowercased() }
            }
            let theirs = names(await h.send("u2", request))
            #expect(theirs.contains { $0.contains("lunge") }, "the plan has lunges to leave out: \(theirs)")

            _ = await h.send("u1", "I hate lunges")
            let kept = try await h.module.services.memory.memory(userId: "u1")
            #expect(kept.dislikes == ["lunge"], "\(kept)")
            let plan = await h.send("u1", request)
            let mine = names(plan)
            #expect(!mine.isEmpty && !mine.contains { $0.contains("lunge") }, "\(mine)")
            #expect(plan.text.contains("Going by what you told me before (no lunges)"), "\(plan.text)")
        }
    }

    /// A plan request's own dislike counts for that plan and is kept; an area to spare it names is added to those
    /// already kept, never in their place.
    @Test(arguments: TestDatabases.engines)
    func aPlanRequestAddsItsDislikesAndInjuriesToWhatIsKept(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            _ = await h.send("u1", "build me a 3 day full body routine with dumbbells, my knees are bad")
            let theirs = await h.send("u2", "build me a 4 day upper lower routine, full gym, my knees are bad, my shoulder hurts")
            #expect(theirs.text.contains("deadlift") || "\(theirs.artifacts)".lowercased().contains("deadlift"), "a deadlift to leave out")
            let plan = await h.send("u1", "build me a 4 day upper lower routine, full gym, my shoulder hurts. I hate deadlifts")
            let names = (plan.artifacts.first?["data"]?["data"]?["days"]?.arrayValue ?? []).flatMap { $0["exercises"]?.arrayValue ?? [] }
                .compactMap { $0["name"]?.stringValue?.lowercased() }
            #expect(!names.isEmpty && !names.contains { $0.contains("deadlift") }, "\(names)")
            let kept = try await h.module.services.memory.memory(userId: "u1")
            #expect(kept.injuries == ["knees", "shoulders"], "the knees are still kept: \(kept)")
            #expect(kept.dislikes == ["deadlift"], "\(kept)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func memoryIsReadChangedForgottenAndErased(engine: SQLEngine) async throws {
        try await H.with(engine) { h in
            let store = h.module.services.memory
            #expect(try await store.memory(userId: "u1").isEmpty)
            var changes = CoachMemory()
            changes.days = 4
            changes.dislikes = ["burpees"]
            let kept = try await store.update(userId: "u1", changes: changes)
            #expect(kept.days == 4 && kept.dislikes == ["burpees"] && kept.updatedAt == h.clock.now())
            var bad = CoachMemory()
            bad.days = 9
            await expectCode(.invalidArgument, "9 days") { try await store.update(userId: "u1", changes: bad) }
            bad = CoachMemory()
            bad.equipment = ["trampoline"]
            await expectCode(.invalidArgument, "unknown equipment") { try await store.update(userId: "u1", changes: bad) }
            #expect(try await store.memory(userId: "u1").days == 4, "nothing changed")

            #expect(try await store.update(userId: "u1", changes: CoachMemory(), forget: [.days]).days == nil)
            #expect(try await store.update(userId: "u1", changes: CoachMemory(), forget: [.dislikes]).isEmpty)
            let rows = try await h.module.services.database.sql.raw("SELECT COUNT(*) AS n FROM conversations_memory")
                .first(decodingColumn: "n", as: Int.self)
            #expect(rows == 0, "forgetting the last fact removes the row")

            _ = try await store.update(userId: "u1", changes: changes)
            try await h.module.eraser.eraseUserData(userId: "u1")
            #expect(try await store.memory(userId: "u1").isEmpty)
        }
    }

    /// A model gets what the user told it in its turn and through `get_coach_memory`, and keeps facts with
    /// `remember`.
    @Test(arguments: TestDatabases.engines)
    func aModelReadsAndKeepsMemory(engine: SQLEngine) async throws {
        try await H.with(engine, model: RememberingModel()) { h in
            var changes = CoachMemory()
            changes.days = 3
            changes.sessionMinutes = 60
            _ = try await h.module.services.memory.update(userId: "u1", changes: changes)
            let events = await h.send("u1", "hello")
            #expect(events.text == "I know: Training days a week: 3; Longest session: 60 minutes. Tool: 3.", "\(events)")
            let kept = try await h.module.services.memory.memory(userId: "u1")
            #expect(kept.experience == "beginner" && kept.sessionMinutes == nil && kept.days == 3)
        }
    }

    @Test func thePromptCarriesTheFacts() throws {
        var memory = CoachMemory()
        memory.equipment = ["full_gym"]
        memory.injuries = ["lower back"]
        let messages = try CoachPrompt.messages(
            for: CoachTurn(message: "hi", history: [], workoutId: nil, workoutBrief: nil, memory: memory), context: nil)
        let system = messages.compactMap { $0["content"]?.stringValue }.joined(separator: "\n")
        #expect(system.contains("Equipment: full_gym") && system.contains("Areas to spare: lower back"))
    }
}

extension JSONValue {
    fileprivate var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }
}
