/// A message as the coach understood it: what it asks for, how sure the classifier is, and what it names.
public struct Understood: Sendable, Equatable {
    /// What the message asks for.
    public var intent: MessageIntent
    /// The classifier's probability for `intent`, 0…1 (1 for the few messages the grammar decides alone, such as an
    /// empty one).
    public var confidence: Double
    /// What the message names.
    public var slots: MessageSlots

    public init(intent: MessageIntent, confidence: Double, slots: MessageSlots) {
        self.intent = intent
        self.confidence = confidence
        self.slots = slots
    }

    /// The planning request the slots make, for `RoutinePlanner`: what the user said, and for a named program its
    /// days, split and goal where the user said none. Body areas are in the planner's words.
    public var planRequest: PlanRequest {
        let program = slots.program
        return PlanRequest(
            days: slots.days ?? program?.days, split: slots.split ?? program?.split, equipment: slots.equipment,
            goal: slots.goal ?? program?.goal ?? .hypertrophy, minutes: slots.minutes, avoid: slots.spare.map(\.planName))
    }
}
