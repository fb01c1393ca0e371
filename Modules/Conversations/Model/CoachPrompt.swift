import Contracts
import Foundation
import Platform

/// What a language model is given for a turn: the system prompt (who the coach is, the rules it keeps, workout
/// mode's two sentences), the user's training context, what the user told the coach before (`CoachMemory`) and,
/// in workout mode, the workout brief, then the
/// conversation so far trimmed to a token budget, then the message. The rule-based coach reads the same: the
/// context through `get_training_context`, the brief from the turn.
///
/// **Token budget**: tokens are estimated as one per four characters (UTF-8 bytes / 4, rounded up), which is
/// close for English with the common tokenizers and errs long for numbers. History messages are dropped oldest
/// first until the history fits `historyTokens` (the newest message is always kept whole up to 4,000
/// characters).
enum CoachPrompt {
    static let historyTokens = 3_000

    static let system = """
        You are Povver's strength coach. You help the user plan training, run their workouts and understand their \
        progress, using only the tools you are given: they read the user's own data and the exercise catalog.
        Rules:
        - Never invent numbers: quote the user's numbers from the tools, and use exercise ids from search_exercises.
        - Proposals (propose_routine, propose_workout, update_template, update_routine) become cards the user \
        accepts; nothing changes until they do. Say what you proposed in a sentence or two.
        - Do not compute weights: the server sets a proposal's planned weights from the user's history, and the \
        training analyst progresses them (get_training_analysis).
        - If you lack the days per week or the equipment for a plan, ask with ask_clarifying_questions.
        - When the user states a lasting fact about their training (equipment, days a week, session length, goal, \
        experience, an injury, an exercise they dislike), keep it with remember; use what they told you before.
        - Be brief, concrete and kind. No medical advice beyond "see a professional" for pain.
        """

    static let workoutMode = """
        The user is in a workout right now, reading between sets: answer in at most two short sentences, and use the \
        workout tools (get_workout_state, log_set, prescribe_set, add_exercise, swap_exercise, complete_workout) to act.
        """

    /// For a user who reads pounds: what they read is in pounds, what the tools take and answer is not.
    static let pounds = """
        The user reads and types weights in pounds: give every weight in lb. The tools' numbers are kilograms \
        (weight_kg, e1rm_kg): convert them (1 lb = 0.45359237 kg) and round to the nearest 0.5 lb; log_set's summary \
        already says what was logged in lb.
        """

    /// The messages of a turn, in the chat-completions shape.
    static func messages(for turn: CoachTurn, context: TrainingContext?) throws -> [JSONValue] {
        var system = Self.system
        if turn.weightUnit == .pounds { system += "\n" + pounds }
        if turn.workoutId != nil { system += "\n" + workoutMode }
        var messages: [JSONValue] = [["role": "system", "content": .string(system)]]
        if let context {
            let json = String(decoding: try JSONCoding.encode(context), as: UTF8.self)
            messages.append(["role": "system", "content": .string("The user's recent training (JSON): \(json)")])
        }
        if !turn.memory.isEmpty {
            let facts = turn.memory.lines.joined(separator: "\n")
            messages.append([
                "role": "system", "content": .string("What the user told you before (keep it up to date with remember):\n\(facts)"),
            ])
        }
        if let brief = turn.workoutBrief {
            messages.append(["role": "system", "content": .string("[WORKOUT BRIEF]\n\(brief)")])
        }
        for message in trimmed(turn.history) {
            messages.append(["role": .string(message.role == .user ? "user" : "assistant"), "content": .string(message.content)])
        }
        messages.append(["role": "user", "content": .string(turn.message)])
        return messages
    }

    /// The estimated tokens of a text.
    static func tokens(_ text: String) -> Int { (text.utf8.count + 3) / 4 }

    /// The newest messages that fit the budget, oldest first.
    static func trimmed(_ history: [ConversationMessage]) -> [ConversationMessage] {
        var kept: [ConversationMessage] = []
        var used = 0
        for message in history.reversed() {
            let cost = tokens(message.content) + 4
            if used + cost > historyTokens && !kept.isEmpty { break }
            var message = message
            if kept.isEmpty && cost > historyTokens { message.content = String(message.content.prefix(4_000)) }
            kept.append(message)
            used += cost
        }
        return kept.reversed()
    }
}
