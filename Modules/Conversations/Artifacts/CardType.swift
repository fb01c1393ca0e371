import Foundation

/// What the coach can propose inline: the `type` of a card (docs/api.md "Cards"; the app's `CardType`). A new type is
/// one case here: the compiler then asks for its place on the canvas (`lane`) and what it offers (`actions`).
public enum ArtifactType: String, Codable, Sendable, CaseIterable {
    case sessionPlan = "session_plan"
    case routineSummary = "routine_summary"
    case templateUpdate = "template_update"
    case routineUpdate = "routine_update"
    case visualization
    case analysisSummary = "analysis_summary"
    case clarifyQuestions = "clarify_questions"
    case suggestion
    case text

    /// The card's place on the app's canvas while it has `status`: plans and changes to them in `planning`, charts and
    /// reviews in `analysis`; a session being trained (`active`) is the workout in progress, `execution`.
    public func lane(_ status: ArtifactStatus) -> CardLane {
        switch self {
        case .sessionPlan: status == .active ? .execution : .planning
        case .routineSummary, .templateUpdate, .routineUpdate, .clarifyQuestions, .suggestion, .text: .planning
        case .visualization, .analysisSummary: .analysis
        }
    }

    /// What a pending card of this type offers (`actions`), in the order the app shows them.
    public var actions: [CardAction] {
        switch self {
        case .sessionPlan: [.startWorkout, .saveAsTemplate, .reject, .edit]
        case .routineSummary: [.accept, .saveRoutine, .reject, .edit]
        case .templateUpdate: [.accept, .startWorkout, .reject, .edit]
        case .routineUpdate: [.accept, .reject, .edit]
        case .visualization, .analysisSummary, .text: [.reject]
        case .suggestion: [.accept, .reject]
        // Answered in the chat, not with a button.
        case .clarifyQuestions: []
        }
    }
}

/// The card's place on the app's canvas (the app's `CardLane`), which is not the lane of the coach that answered
/// (`Lane`, on `message_end` and the stored message).
public enum CardLane: String, Codable, Sendable, CaseIterable {
    case planning, analysis, execution
}

/// Where a card stands (the app's `CardStatus`): `pending` until the user acts; `accepted` once applied or saved,
/// `rejected` once turned down, `active` once started as the workout in progress. `completed` is the app's too; the
/// server sets none yet.
public enum ArtifactStatus: String, Codable, Sendable, CaseIterable {
    case pending, active, accepted, rejected, completed
}

/// What a card offers the user. `edit` and `swap` happen in the app: an edit comes back as the `data` of the action
/// that applies it (`ArtifactActions`).
public enum CardAction: String, Codable, Sendable, CaseIterable {
    case accept, reject, edit, swap
    case saveRoutine = "save_routine"
    case startWorkout = "start_workout"
    case saveAsTemplate = "save_as_template"
}
