import Contracts
import Foundation
import Logging
import Platform
import TestSupport
import Testing

@testable import Conversations

/// What one user may take of the coach's model: tokens a completion may write, tool calls a step may run, the
/// model's connections (a bounded wait for one, which the first-chunk timeout does not count), and streams open at
/// once.
@Suite struct ModelLimitsTests {
    typealias Reply = FakeChatServer.Reply
    typealias Model = LanguageModelCoachTests

    /// A stream's events as JSON, an error that ends it as `{type: error, code}`.
    static func collect(_ events: AsyncThrowingStream<ServerSentEvent, any Error>) async -> [JSONValue] {
        var collected: [JSONValue] = []
        do {
            for try await event in events {
                collected.append(try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(event.data.utf8)))
            }
        } catch let error as ServiceError {
            collected.append(["type": "error", "code": .string(error.code.rawValue), "message": .string(error.message)])
        } catch {
            collected.append(["type": "error", "code": "INTERNAL"])
        }
        return collected
    }

    static func input(_ message: String) -> StreamInput {
        StreamInput(conversationId: nil, message: message, workoutId: nil)
    }

    @Test(arguments: TestDatabases.engines)
    func eachRequestAsksForAtMostMaxTokens(engine: SQLEngine) async throws {
        let replies: [Reply] = [
            .stream(FakeChatServer.toolCalls([("p", "get_user_profile", ["{}"])])), .stream(FakeChatServer.text(["Hi Sam."])),
        ]
        try await Model.with(engine, replies, adjust: { $0.maxTokens = 321 }) { h, server in
            #expect(await h.send("u1", "who am I").types.last == "message_end")
            #expect(server.requests.map { $0.body["max_tokens"] } == [321, 321], "every completion of the turn")
        }
        try await Model.with(engine, [.stream(FakeChatServer.text(["Hi."]))]) { h, server in
            _ = await h.send("u1", "hi")
            #expect(server.requests.first?.body["max_tokens"] == 4096, "the default")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func toolCallsBeyondTheStepCapAreAnsweredWithAnErrorAndNotRun(engine: SQLEngine) async throws {
        let replies: [Reply] = [
            .stream(
                FakeChatServer.toolCalls([
                    ("a", "get_user_profile", ["{}"]), ("b", "get_exercise_details", [#"{"exercise_id":"Barbell_Squat"}"#]),
                    ("c", "get_user_profile", ["{}"]), ("d", "get_user_profile", ["{}"]), ("e", "get_user_profile", ["{}"]),
                ])),
            .stream(FakeChatServer.text(["Done."])),
        ]
        try await Model.with(engine, replies, maxToolCallsPerStep: 2) { h, server in
            let events = await h.send("u1", "everything at once")
            #expect(
                events.text == "Done." && events.types.last == "message_end", "extra calls are not refusals that end the turn: \(events)")
            let ran = events.filter { $0["phase"] == "tool_start" }.compactMap { $0["tool"]?.stringValue }
            #expect(ran == ["get_user_profile", "get_exercise_details"], "only the first two ran")
            let results = (server.requests.last?.body["messages"]?.arrayValue ?? []).filter { $0["role"] == "tool" }
            #expect(results.map { $0["tool_call_id"]?.stringValue ?? "" } == ["a", "b", "c", "d", "e"], "every call is answered")
            let errors = try results.map {
                try JSONDecoder().decode(JSONValue.self, from: Data(($0["content"]?.stringValue ?? "").utf8))["error"]
            }
            #expect(errors[0] == nil && errors[1] == nil)
            #expect(errors[2...].allSatisfy { $0?["code"] == "RATE_LIMITED" && $0?["limit"] == "2" }, "\(errors)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aTurnThatFindsEveryConnectionBusyIsToldTheCoachIsBusy(engine: SQLEngine) async throws {
        let clock = ManualClock()
        let replies: [Reply] = [.stream(FakeChatServer.text(["First."]), held: true)]
        try await Model.with(
            engine, replies, clock: clock,
            adjust: {
                $0.maxConnections = 1
                $0.connectionWait = .seconds(2)
            }
        ) { h, server in
            let first = Task { await h.send("u1", "hi") }
            try await eventually("the first turn holds the only connection") { server.holding == 1 && clock.sleepers.count == 1 }
            let log = RecordedLog()
            let second = Task { await h.send("u2", "hello", logger: log.logger(requestId: "req-busy")) }
            try await eventually("the second turn waits for a connection") { clock.sleepers.count == 2 }
            #expect(clock.sleepers.first?.deadline == clock.now.advanced(by: .seconds(2)), "the wait is bounded")
            clock.advance(by: .seconds(2))
            let refused = try await finished(second)
            #expect(refused.errorCode == "UNAVAILABLE" && refused.types == ["message_start", "status", "error"], "\(refused)")
            #expect(refused.last?["message"]?.stringValue?.contains("The coach is busy") == true, "busy, not a timeout: \(refused)")
            #expect(server.requests.count == 1, "the busy turn never reached the model")
            #expect(log.events("coach_model_busy").count == 1 && log.events("coach_model_failed").isEmpty)
            server.release()
            let answered = try await finished(first)
            #expect(answered.text == "First." && answered.types.last == "message_end")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func timeQueuedForAConnectionDoesNotCountTowardsTheFirstChunk(engine: SQLEngine) async throws {
        let clock = ManualClock()
        let replies: [Reply] = [
            .stream(FakeChatServer.text(["First."]), held: true), .stream(FakeChatServer.text(["Second."]), held: true),
        ]
        try await Model.with(
            engine, replies, clock: clock,
            adjust: {
                $0.maxConnections = 1
                $0.connectionWait = .seconds(20)
                $0.firstChunkTimeout = .seconds(10)
            }
        ) { h, server in
            let first = Task { await h.send("u1", "hi") }
            try await eventually("the first turn holds the only connection") { server.holding == 1 && clock.sleepers.count == 1 }
            let second = Task { await h.send("u2", "hello") }
            try await eventually("the second turn waits for a connection") { clock.sleepers.count == 2 }
            clock.advance(by: .seconds(8))
            server.releaseOne()
            #expect(try await finished(first).text == "First.")
            try await eventually("the second turn has the connection") {
                server.requests.count == 2 && server.holding == 1 && clock.sleepers.count == 1
            }
            #expect(
                clock.sleepers.first?.deadline == ManualClock.Instant(offset: .seconds(18)),
                "its first-chunk timeout starts with the connection")
            clock.advance(by: .seconds(5))  // 13 s since the second turn began, 5 s since it got the connection
            server.releaseOne()
            let answered = try await finished(second)
            #expect(answered.text == "Second." && answered.types.last == "message_end", "\(answered)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aThirdStreamOfOneUserIsRefusedBeforeItOpens(engine: SQLEngine) async throws {
        let replies: [Reply] = [
            .stream(FakeChatServer.text(["A."]), held: true), .stream(FakeChatServer.text(["B."]), held: true),
        ]
        try await Model.with(engine, replies) { h, server in
            let logger = Logger(label: "test")
            // Two conversations of one user, both waiting on the model.
            let first = try h.module.openStream(userId: "u1", input: Self.input("plan my week"), logger: logger)
            let second = try h.module.openStream(userId: "u1", input: Self.input("and my meals"), logger: logger)
            let a = Task { await Self.collect(first) }
            let b = Task { await Self.collect(second) }
            try await eventually("both turns wait on the model") { server.holding == 2 }
            await expectCode(.rateLimited, "a third stream of the same user", details: ["limit": "2", "retry_after_seconds": "5"]) {
                _ = try h.module.openStream(userId: "u1", input: Self.input("one more"), logger: logger)
            }
            #expect(server.requests.count == 2, "the refused stream never reached the model")
            // Another user is not held back (the fast lane answers: no workout in progress).
            let other = await Self.collect(try h.module.openStream(userId: "u2", input: Self.input("8 @ 100"), logger: logger))
            #expect(other.types.last == "message_end" && other.text.contains("no workout in progress"), "\(other)")

            server.release()
            #expect(try await finished(a).types.last == "message_end")
            #expect(try await finished(b).types.last == "message_end")
            #expect(h.module.streamLimit.count(userId: "u1") == 0, "a slot is given back before its stream ends")
            let again = await Self.collect(try h.module.openStream(userId: "u1", input: Self.input("8 @ 100"), logger: logger))
            #expect(again.types.first == "message_start", "\(again)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aStreamGivesItsSlotBackHoweverItEnds(engine: SQLEngine) async throws {
        let replies: [Reply] =
            [.stream(FakeChatServer.text(["Never read."]), held: true)]
            + Array(repeating: .status(500, #"{"error":{"message":"down"}}"#), count: 3)
        try await Model.with(engine, replies) { h, server in
            let logger = Logger(label: "test")
            // The client goes away mid-turn.
            let abandoned = try h.module.openStream(userId: "u1", input: Self.input("hi"), logger: logger)
            let reader = Task { await Self.collect(abandoned) }
            try await eventually("the turn waits on the model") { server.holding == 1 }
            #expect(h.module.streamLimit.count(userId: "u1") == 1)
            reader.cancel()
            try await eventually("the cancelled turn gives its slot back") { h.module.streamLimit.count(userId: "u1") == 0 }
            // The model fails.
            let failed = await Self.collect(try h.module.openStream(userId: "u1", input: Self.input("hi again"), logger: logger))
            #expect(failed.errorCode == "UNAVAILABLE")
            #expect(h.module.streamLimit.count(userId: "u1") == 0)
            // Refused before it began (an unknown conversation).
            let refused = await Self.collect(
                try h.module.openStream(
                    userId: "u1", input: StreamInput(conversationId: "nope", message: "hi", workoutId: nil), logger: logger))
            #expect(refused.errorCode == "NOT_FOUND")
            #expect(h.module.streamLimit.count(userId: "u1") == 0)
            server.release()
        }
    }
}
