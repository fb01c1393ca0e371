import Contracts
import Foundation
import Logging
import Platform
import Synchronization

/// What `streamAgentNormalized` takes: the conversation (or none: a new one is opened), the message, and in
/// workout mode the workout.
struct StreamInput: Sendable {
    var conversationId: String?
    var message: String
    var workoutId: String?
}

/// One turn of the coach as a stream of SSE events: the premium gate first, then the user's message stored, the
/// lane chosen (fast: set commands, with no model; functional: a JSON intent; slow: the model with tools), the
/// answer streamed and stored. Every stream ends with `message_end`, or with `error` from whatever was thrown; a
/// client that goes away cancels the work.
struct CoachStream: Sendable {
    let services: CoachServices
    let model: any CoachModel
    let logger: Logger

    static let maxMessageLength = 4000
    static let historyLimit = 20

    /// The turn's events; `onEnd` runs once the turn's work is over, before the stream ends (its slot under the
    /// user's stream limit is given back then).
    func events(userId: String, input: StreamInput, requestLogger: Logger, onEnd: @escaping @Sendable () -> Void = {})
        -> AsyncThrowingStream<ServerSentEvent, any Error>
    {
        let (stream, continuation) = AsyncThrowingStream<ServerSentEvent, any Error>.makeStream(bufferingPolicy: .unbounded)
        let counter = EventCounter()
        let emit: @Sendable (CoachEvent) async throws -> Void = { event in
            try Task.checkCancellation()
            continuation.yield(ServerSentEvent(id: counter.next(), data: try JSONCoding.encodeToString(event.json)))
        }
        let task = Task {
            do {
                try await run(userId: userId, input: input, emit: emit, logger: requestLogger)
                onEnd()
                continuation.finish()
            } catch {
                onEnd()
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Numbers from 1: the events of one stream, the writes of one turn.
    final class EventCounter: Sendable {
        private let value = Mutex(0)
        func next() -> Int {
            value.withLock {
                $0 += 1
                return $0
            }
        }
    }

    func run(userId: String, input: StreamInput, emit: @escaping @Sendable (CoachEvent) async throws -> Void, logger: Logger) async throws {
        let started = ContinuousClock.now
        var lane = "none"
        var outcome = "error"
        defer {
            let elapsed = ContinuousClock.now - started
            services.metrics.observe(CoachMetrics.laneDuration, labels: [("lane", lane), ("outcome", outcome)], duration: elapsed)
            logger.info(
                "stream_completed",
                metadata: [
                    "event": "stream_completed", "lane": .string(lane), "outcome": .string(outcome),
                    "latency_ms": .stringConvertible(elapsed.milliseconds),
                ])
        }
        // The user's unit is read beside the premium gate: the fast lane's first byte waits for one round trip, not two.
        async let weightUnit = services.weightUnit(userId: userId)
        try await services.premium.requirePremium(userId: userId)
        let unit = try await weightUnit
        let message = try Self.check(input.message)
        let askedWorkout = input.workoutId.flatMap { $0.isEmpty ? nil : $0 }
        if let askedWorkout { try await requireWorkoutInProgress(askedWorkout, userId: userId) }
        let conversation: ConversationSummary
        if let id = input.conversationId.flatMap({ $0.isEmpty ? nil : $0 }) {
            conversation = try await services.store.conversation(userId: userId, id: id)
            // The user's message and the answer: refused before anything is said when they would not fit.
            guard conversation.messageCount + 2 <= ConversationCaps.messagesPerConversation else {
                throw ConversationCaps.conversationFull()
            }
        } else {
            conversation = try await services.store.create(userId: userId, workoutId: askedWorkout)
        }
        let workoutId = askedWorkout ?? conversation.workoutId

        let messageId = services.ids.makeID()
        try await emit(.messageStart(messageId: messageId, conversationId: conversation.id))
        let said = Transcript()
        let say: @Sendable (String) async throws -> Void = { text in
            said.append(text)
            try await emit(.text(text))
        }
        var toolbox = CoachToolbox(
            userId: userId, conversationId: conversation.id, messageId: messageId, workoutId: workoutId, services: services, emit: emit,
            logger: logger, proposed: ProposedArtifacts())
        toolbox.weightUnit = unit

        let chosen: Lane
        if let command = SetCommandParser.parse(message, unit: unit) {
            chosen = .fast
            lane = chosen.rawValue
            try await FastLane(services: services).answer(
                command, userId: userId, workoutId: workoutId, key: messageId, unit: unit, toolbox: toolbox, say: say)
        } else if message.first == "{" {
            chosen = .functional
            lane = chosen.rawValue
            try await FunctionalLane(services: services).answer(
                message, userId: userId, workoutId: workoutId, key: messageId, unit: unit, say: say)
        } else {
            chosen = .slow
            lane = chosen.rawValue
            try await emit(.status(phase: "thinking", tool: nil, detail: nil))
            // What the user said they have, read as the rule-based coach reads it ("no barbell, just dumbbells"), so
            // the critic holds the model's proposals to it.
            toolbox.requestedEquipment = RuleBasedCoach.request(of: MessageUnderstanding.read(message)).equipment
            var brief: String?
            if workoutId != nil {
                async let analysis = services.analysisBrief(userId: userId, logger: logger)
                if let workout = try await services.workouts.activeWorkout(userId: userId) {
                    // Today's target is the brief's next set; what the lifter did last time in it goes beside it.
                    var last: String?
                    if let (exercise, _) = WorkoutBrief.nextSet(of: workout) {
                        last = try await LastSession.sentence(
                            exerciseId: exercise.exerciseId, excluding: workout.id, userId: userId, analytics: services.analytics,
                            unit: unit)
                    }
                    brief = ([WorkoutBrief(workout).text(in: unit)] + (last.map { [$0] } ?? []) + (await analysis)).joined(separator: "\n")
                }
            }
            // Only the slow lane reads the conversation so far: the fast lane's first byte waits for nothing it does not use.
            let history = try await services.store.recentMessages(userId: userId, conversationId: conversation.id, limit: Self.historyLimit)
            let memory = try await services.memory.memory(userId: userId)
            let turn = CoachTurn(
                message: message, history: history, workoutId: workoutId, workoutBrief: brief, memory: memory, weightUnit: unit)
            // In workout mode the athlete reads between sets: whatever the model says, two sentences at most.
            try await model.respond(to: turn, tools: toolbox, say: workoutId == nil ? say : SentenceCap(limit: 2).limiting(say))
        }
        // Titled by its topic: the first message the coach read as one (never a set command or an app's JSON intent);
        // a workout-mode chat by its workout.
        var title: String?
        if conversation.title == nil {
            if workoutId != nil {
                let workout = try? await services.workouts.activeWorkout(userId: userId)
                title = workout?.name.map { "Workout: \($0)" } ?? "Workout chat"
            } else if chosen == .slow {
                title = Self.title(from: message)
            }
        }
        try Task.checkCancellation()
        try await services.store.recordTurn(
            userId: userId, conversationId: conversation.id,
            messages: [(.user, message, nil, services.ids.makeID()), (.assistant, said.text, chosen, messageId)],
            artifacts: toolbox.proposed.all, title: title)
        if conversation.messageCount == 0 {
            await services.track(
                "conversation_started", userId: userId, params: ["entry_point": .string(workoutId == nil ? "chat" : "workout")],
                eventId: "conversation_started:\(conversation.id)", logger: logger)
        }
        await services.track(
            "message_sent", userId: userId, params: ["message_length": .int(message.count)], eventId: "message_sent:\(messageId)",
            logger: logger)
        for artifact in toolbox.proposed.all {
            await services.track(
                "artifact_received", userId: userId, params: ["artifact_type": .string(artifact.type.rawValue)],
                eventId: "artifact_received:\(artifact.id)", logger: logger)
        }
        try await emit(.messageEnd(messageId: messageId, lane: chosen))
        outcome = "ok"
        let usage = toolbox.usage.totals
        logger.info(
            "agent_request_completed",
            metadata: [
                "event": "agent_request_completed", "lane": .string(lane), "model": .string(chosen == .slow ? model.name : "none"),
                "conversation_id": .string(conversation.id), "latency_ms": .stringConvertible((ContinuousClock.now - started).milliseconds),
                "tokens_in": .stringConvertible(usage.prompt), "tokens_out": .stringConvertible(usage.completion),
                "tool_count": .stringConvertible(usage.tools), "artifact_count": .stringConvertible(toolbox.proposed.all.count),
            ])
    }

    /// A message to answer: at most 4,000 code points (as the document's `maxLength` counts), not blank.
    static func check(_ message: String) throws -> String {
        let trimmed = message.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ServiceError.invalidArgument(field: "message", reason: "must not be empty") }
        guard message.unicodeScalars.count <= maxMessageLength, !trimmed.utf8.contains(0) else {
            throw ServiceError.invalidArgument(field: "message", reason: "must be at most \(maxMessageLength) characters, without NUL")
        }
        return trimmed
    }

    /// The title after the first exchange: the first message's first line, cut at a word within 60 characters.
    static func title(from message: String?) -> String? {
        guard let line = message?.split(whereSeparator: \.isNewline).first.map(String.init), !line.isEmpty else { return nil }
        guard line.count > 60 else { return line.prefix(1).uppercased() + line.dropFirst() }
        let cut = line.prefix(60)
        let words = cut.split(separator: " ").dropLast()
        let title = words.isEmpty ? String(cut) : words.joined(separator: " ")
        return title.prefix(1).uppercased() + title.dropFirst() + "…"
    }

    /// What the coach said in a turn, for the stored message.
    final class Transcript: Sendable {
        private let parts = Mutex<[String]>([])
        func append(_ text: String) { parts.withLock { $0.append(text) } }
        var text: String { parts.withLock { $0.joined() } }
    }

    /// Workout mode names the user's workout in progress; any other id (finished, cancelled, another user's, made
    /// up) is `NOT_FOUND`, so nothing stores or acts on a workout that is not the user's.
    func requireWorkoutInProgress(_ workoutId: String, userId: String) async throws {
        guard try await services.workouts.activeWorkout(userId: userId)?.id == workoutId else {
            throw ServiceError(.notFound, "That workout is not in progress.", details: ["workout_id": workoutId])
        }
    }
}
