import Contracts
import Foundation
import Platform

/// What a model is given for one turn of the slow lane: the user's message, the conversation so far, and whether
/// it is in workout mode (then with a compact brief of the workout in progress, and answers of at most two
/// sentences).
public struct CoachTurn: Sendable {
    public var message: String
    /// Earlier messages of the conversation, oldest first (the message of this turn is not among them).
    public var history: [ConversationMessage]
    /// The workout the chat is attached to (workout mode), or nil.
    public var workoutId: String?
    /// A few lines on the workout in progress, in workout mode.
    public var workoutBrief: String?
    /// What the user told the coach before, in any conversation (`CoachMemory`).
    public var memory: CoachMemory
    /// The unit the user reads and types weights in: what the coach says gives weights in it; tools take and
    /// answer kilograms.
    public var weightUnit: WeightUnit

    public init(
        message: String, history: [ConversationMessage], workoutId: String?, workoutBrief: String?, memory: CoachMemory = CoachMemory(),
        weightUnit: WeightUnit = .kilograms
    ) {
        self.message = message
        self.history = history
        self.workoutId = workoutId
        self.workoutBrief = workoutBrief
        self.memory = memory
        self.weightUnit = weightUnit
    }
}

/// The language model behind the coach's slow lane. It answers by streaming text (`say`) and by calling the
/// toolbox's tools by name with JSON arguments (as a chat-completions model calls functions): the tools read the
/// user's data and turn proposals into artifacts. A model never writes anything itself and never chooses the
/// user: the toolbox acts for the request's user.
///
/// Two implementations: `RuleBasedCoach` (deterministic, no network, the default) and the OpenAI-compatible
/// client.
public protocol CoachModel: Sendable {
    /// A short name for logs and metrics (`rules`, or the model's name).
    var name: String { get }
    /// Answers one turn. Throwing ends the stream with an `error` event; cancellation (the client went away) must
    /// stop the work.
    func respond(to turn: CoachTurn, tools: CoachToolbox, say: @escaping @Sendable (String) async throws -> Void) async throws
}
