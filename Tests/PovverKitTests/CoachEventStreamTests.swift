import Foundation
import Platform
import PovverKit
import TestSupport
import Testing

/// The coach's stream through the kit: SSE read into typed events, the proposed card decoded into the app's model,
/// a free user's paywall event, and a stream the app stops.
@Suite struct CoachEventStreamTests {
    static func events(_ stream: AsyncThrowingStream<CoachEvent, any Error>) async throws -> [CoachEvent] {
        var events: [CoachEvent] = []
        for try await event in stream { events.append(event) }
        return events
    }

    @Test(arguments: TestDatabases.engines)
    func aCoachAnswerStreamsAsTypedEventsAndItsCardDecodes(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let povver = live.kit()
            let session = try await povver.auth.signUp(email: "coach-stream@example.com", password: "correct horse")
            try await live.makePremium(session.userId)
            let events = try await Self.events(povver.coach.send("Build me a 4-day upper/lower plan, full gym"))

            guard case .messageStart(let messageId, let conversationId) = events.first, case .messageEnd(messageId, _) = events.last else {
                Issue.record("a stream starts with messageStart and ends with its messageEnd: \(events)")
                return
            }
            #expect(!conversationId.isEmpty)
            let cards = events.compactMap { event -> PovverKit.CanvasCardModel? in if case .card(let card) = event { card } else { nil } }
            let card = try #require(cards.first, "\(events)")
            #expect(cards.count == 1 && card.type == .routineSummary && card.lane == .planning && card.status == .pending)
            #expect(card.actions.contains(.accept))
            guard case .routineSummary(let summary) = card.data else {
                Issue.record("a routine_summary card holds a routine: \(card.data)")
                return
            }
            #expect(summary.days.count == 4 && summary.routine.templates.count == 4)
            let text = events.map { event in if case .text(let delta) = event { delta } else { "" } }.joined()
            #expect(!text.isEmpty)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aFreeUsersStreamIsOnePaywallEvent(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let povver = live.kit()
            try await povver.auth.signUp(email: "free-coach@example.com", password: "correct horse")
            let events = try await Self.events(povver.coach.send("Build me a plan"))
            guard case .error(let code, let message) = events.last else {
                Issue.record("\(events)")
                return
            }
            #expect(events.count == 1 && code == "PREMIUM_REQUIRED" && !message.isEmpty)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aRefusedStreamIsThrownWithTheServersCode(engine: SQLEngine) async throws {
        try await LiveServer.with(engine) { live in
            let povver = live.kit()
            try await povver.auth.signUp(email: "refused-stream@example.com", password: "correct horse")
            await #expect {
                _ = try await Self.events(povver.coach.send(String(repeating: "x", count: 4001)))
            } throws: { error in
                (error as? PovverError)?.code == "INVALID_ARGUMENT"
            }
        }
    }

    /// The app leaves the screen while the coach thinks: the stream ends for the app at once, while the turn still
    /// waits on the model, and nothing more of it arrives. (The server notices the closed connection when it next
    /// writes: here when the model answers; until then, or the model's first-token timeout, the turn holds the
    /// user's stream. With `POVVER_COACH_MAX_STREAMS_PER_USER=1` the next message opens only after that.)
    @Test(arguments: TestDatabases.engines)
    func aStreamTheAppStopsEndsAtOnceAndItsTurnEndsOnTheServer(engine: SQLEngine) async throws {
        let model = FakeChatServer([.stream(FakeChatServer.text(["Held."]), held: true), .stream(FakeChatServer.text(["Next."]))])
        try await model.serve { base in
            let environment = [
                "POVVER_LLM_BASE_URL": base, "POVVER_LLM_MODEL": "test-model", "POVVER_COACH_MAX_STREAMS_PER_USER": "1",
                "POVVER_LLM_FIRST_TOKEN_TIMEOUT_SECONDS": "120",
            ]
            try await LiveServer.with(engine, environment: environment) { live in
                let povver = live.kit()
                let session = try await povver.auth.signUp(email: "cancel-stream@example.com", password: "correct horse")
                try await live.makePremium(session.userId)
                let stream = povver.coach.send("plan my week")
                let consumer = Task { try await Self.events(stream) }
                try await eventually("the turn waits on the model") { model.holding == 1 }
                consumer.cancel()
                let seen = try await finished(consumer, "the stopped stream ends while the model still holds")
                #expect(model.holding == 1, "it ended before the turn did")
                #expect(!seen.contains { if case .text = $0 { true } else { false } }, "\(seen)")

                model.release()
                try await eventually("the server ended the stopped turn, so a new one opens") {
                    do {
                        let next = try await Self.events(povver.coach.send("hello"))
                        return next.contains(.text("Next."))
                    } catch let error as PovverError where error.code == "RATE_LIMITED" {
                        return false
                    }
                }
            }
        }
    }
}
