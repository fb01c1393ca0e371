import Contracts
import Foundation
import Platform

/// Which answer each intent gets (docs/coach.md, "The rule-based coach"). `MessageUnderstanding` reads the message;
/// the intent picks the answer and the slots fill it. Set commands never get here: the fast lane answers them
/// before the model is asked.
extension RuleBasedCoach {
    func route(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws {
        let slots = understood.slots
        switch understood.intent {
        case .planRoutine, .namedProgram:
            if let program = slots.program {
                try await answerProgram(program, understood: understood, turn: turn, tools: tools, say: say)
            } else {
                try await answerPlanning(
                    Self.request(of: understood), goalStated: slots.goal != nil, turn: turn, tools: tools, say: say)
            }
        case .planSession:
            try await answerSession(understood, turn: turn, tools: tools, say: say)
        case .today:
            // "What should I train today? 45 minutes, dumbbells": constraints make it a session of its own.
            if slots.minutes != nil || slots.equipment != nil || slots.focus != nil || !slots.withoutEquipment.isEmpty {
                try await answerSession(understood, turn: turn, tools: tools, say: say)
            } else {
                try await answerToday(understood, turn: turn, tools: tools, say: say)
            }
        case .changeRoutine:
            try await answerRoutineChange(understood, turn: turn, tools: tools, say: say)
        case .swapExercise:
            try await answerSwap(understood, turn: turn, tools: tools, say: say)
        case .progressExercise, .progressMuscleGroup, .progressOverall:
            try await answerProgress(understood, message: turn.message, tools: tools, say: say)
        case .injury:
            try await answerInjury(understood, turn: turn, tools: tools, say: say)
        case .question:
            try await say(TrainingAnswers.answer(turn.message, slots: slots))
        case .outOfScope:
            try await say(TrainingAnswers.outOfScope(turn.message))
        case .remember:
            try await answerRemember(understood, turn: turn, tools: tools, say: say)
        case .finishWorkout:
            try await FastLane(services: tools.services).answer(
                .finish, userId: tools.userId, workoutId: turn.workoutId, key: tools.messageId, unit: turn.weightUnit, toolbox: tools,
                say: say)
        case .workoutCommand:
            if turn.workoutId != nil {
                try await answerNextSet(turn, tools: tools, say: say)
            } else {
                try await say(FastLane.noWorkout)
            }
        case .greeting:
            try await say(turn.workoutId == nil ? "Hi! " + Self.help : "Hi! Tell me your sets as you go, like \"8 @ 100\".")
        case .thanks:
            try await say("You're welcome. Ask me anytime: a plan, a change to your routine, or how your training is going.")
        case .confirm, .decline:
            // No offer is pending (`continueConversation` answers those): nothing to agree to.
            try await say(turn.workoutId == nil ? "OK. What would you like to do next?" : "OK. Keep going: log your next set.")
        case .cancel:
            try await say("OK, dropped it. What would you like to do instead?")
        case .help, .unknown:
            if turn.workoutId != nil {
                try await answerNextSet(turn, tools: tools, say: say)
            } else {
                try await say(Self.help)
            }
        }
    }

    /// Answers a message that continues what the coach asked or offered in its last message: the answers to its
    /// clarifying questions, or a yes or no to an offer to adjust the routine. A message that is a new request is
    /// not taken as an answer (false): a clarifying question never traps the user.
    func continueConversation(_ understood: Understood, turn: CoachTurn, tools: CoachToolbox, say: @escaping Say) async throws -> Bool {
        guard let last = turn.history.last, last.role == .assistant else { return false }
        if last.content.hasPrefix(Self.clarifyOpening) {
            if understood.intent == .cancel {
                try await say("OK, no plan for now. Ask me again whenever you like.")
                return true
            }
            guard Self.answersQuestions(understood), let pending = Self.pendingRequest(turn) else { return false }
            try await answerPlanning(pending.request, goalStated: pending.goalStated, turn: turn, tools: tools, say: say)
            return true
        }
        if last.content.contains(Self.spareOffer) {
            switch understood.intent {
            case .confirm:
                try await adjustRoutine(sparing: Self.offeredAreas(turn), memory: turn.memory, tools: tools, say: say)
                return true
            case .decline:
                try await say("OK, your routine stays as it is. Tell me if anything hurts during a session.")
                return true
            default:
                return false
            }
        }
        return false
    }

    /// Whether a message after clarifying questions answers them: a bare fact ("dumbbells only", "4 days"), a yes, a
    /// change of mind about the request ("make it 5 days") or the request again with more said. Anything else (a
    /// question about progress, a swap …) is a new request.
    static func answersQuestions(_ understood: Understood) -> Bool {
        let slots = understood.slots
        switch understood.intent {
        case .remember, .unknown, .confirm, .planRoutine:
            return true
        case .changeRoutine:
            return slots.exercises.isEmpty && slots.muscles.isEmpty && slots.swap == nil
        default:
            return false
        }
    }
}
