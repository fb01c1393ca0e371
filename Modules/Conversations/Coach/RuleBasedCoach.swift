import Contracts
import Foundation
import Platform

/// The coach that needs no network and no model (the default). It reads each message with `MessageUnderstanding`
/// (an intent with slots) and answers the intent through the same tools a language model would call, from the
/// user's own data, what they told it before (`CoachMemory`) and the catalog (`RuleBasedCoach+Routing.swift` says
/// which intent gets which answer). What it cannot read gets a list of what it can do, never a dead end.
public struct RuleBasedCoach: CoachModel {
    /// How the coach streams text.
    typealias Say = @Sendable (String) async throws -> Void

    public var name: String { "rules" }

    public init() {}

    public func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws {
        let understood = MessageUnderstanding.read(turn.message)
        if try await continueConversation(understood, turn: turn, tools: tools, say: say) { return }
        try await route(understood, turn: turn, tools: tools, say: say)
    }

    static let help = """
        I can help with your training. Try:
        • "Build me a 4-day upper/lower with dumbbells", "PPL twice a week" or "Give me a 5x5 program" — a routine you can accept in one tap.
        • "Give me a 45-minute push workout" — one session to start now.
        • "Change my routine to 4 days", "add face pulls", "swap bench for incline dumbbell press" — changes to your routine.
        • "How is my bench going?", "How's my chest doing?", "How am I doing?" — your numbers and a chart.
        • "I hurt my shoulder, what should I avoid?" — what to spare, and a routine that spares it.
        • "I only have dumbbells" — I remember it for every plan.
        • During a workout: "8 @ 100", "100kg x 8", "done" or "next set" to log and follow your sets.
        """

    /// In workout mode, a message that is no request: the next set, in a sentence.
    func answerNextSet(_ turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        let state = try await tools.call("get_workout_state")
        let next = try state["next"].flatMap { $0 == .null ? nil : try $0.decode(WorkoutBrief.NextSet.self) }
        let last = state["last_time"]?.stringValue.map { " \($0)." } ?? ""
        try await say(
            next.map {
                "Next up: \($0.sentence(in: turn.weightUnit)).\(last) Log it by typing what you did, like \"8 @ 100\", or \"done\" if it went as planned."
            }
                ?? "Every set is logged. Say \"finished\" and I will wrap the workout up, or ask me to add an exercise.")
    }
}
