import Contracts
import Foundation
import Logging
import Platform

/// `artifactAction`: what the user does with a card. An action the card does not offer (its type's `actions`) is
/// `FAILED_PRECONDITION`, as is acting on a card that is no longer pending; another user's card is `NOT_FOUND`.
/// Idempotent under `idempotency_key`: a repeat answers the first answer and changes nothing.
///
/// - `accept` applies the card (`CardApplication`): a `routine_summary` becomes templates and an active routine
///   (docs/product.md "The coach"; `save_routine` leaves the active routine as it is); a `template_update` or `routine_update` is
///   applied against the version it was made from (`CONFLICT` when it changed since). The card is `accepted`.
/// - `start_workout` starts a `session_plan` (or a `template_update`'s changed session); the card is `active`.
/// - `save_as_template` saves a `session_plan` as a new template; the card is `accepted`.
/// - `reject` (or its alias `dismiss`) turns the card down; it is `rejected` and nothing else changes.
///
/// `data` is the card's content as the user edited it: checked as the coach's own proposal is (`CardEdit`), applied
/// instead of the stored content, and kept as the card's `data`. A card that offers no `edit`, or `reject`, takes none.
///
/// What an action makes is made in Workouts' own transaction before the card is marked, under a key derived from the
/// card: a retry after a failure between the two finds the same routine instead of making a second.
struct ArtifactActions: Sendable {
    let services: CoachServices
    let idempotency: IdempotencyStore
    let logger: Logger

    /// The actions `artifactAction` takes. `dismiss`, the app's older name, is read as `reject`.
    enum Action: String, Codable, Sendable, CaseIterable {
        case accept, reject
        case saveRoutine = "save_routine"
        case startWorkout = "start_workout"
        case saveAsTemplate = "save_as_template"

        static let aliases: [String: Action] = ["dismiss": .reject]
        /// Every name a request may send.
        static var names: [String] { allCases.map(\.rawValue) + aliases.keys.sorted() }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let name = try container.decode(String.self)
            guard let action = Action(rawValue: name) ?? Self.aliases[name] else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "must be one of \(Self.names.joined(separator: ", "))")
            }
            self = action
        }

        /// The card action this is, as a card lists what it offers.
        var offered: CardAction {
            switch self {
            case .accept: .accept
            case .reject: .reject
            case .saveRoutine: .saveRoutine
            case .startWorkout: .startWorkout
            case .saveAsTemplate: .saveAsTemplate
            }
        }

        /// The status the action leaves a card in.
        var settles: ArtifactStatus {
            switch self {
            case .accept, .saveRoutine, .saveAsTemplate: .accepted
            case .reject: .rejected
            case .startWorkout: .active
            }
        }
    }

    struct Request: Codable, Sendable {
        var action: Action
        var artifactId: String
        var conversationId: String
        /// The card's content as the user edited it.
        var data: JSONValue?

        init(action: Action, artifactId: String, conversationId: String, data: JSONValue? = nil) {
            self.action = action
            self.artifactId = artifactId
            self.conversationId = conversationId
            self.data = data
        }

        enum CodingKeys: String, CodingKey {
            case action, data
            case artifactId = "artifact_id"
            case conversationId = "conversation_id"
        }
    }

    struct Answer: Codable, Sendable {
        var artifact: Artifact
        var result: JSONValue
    }

    func perform(userId: String, request: Request, idempotencyKey: String?) async throws -> IdempotentAnswer<Answer> {
        let store = services.store
        let current = try await services.database.transaction { tx in
            try await store.artifact(in: tx, userId: userId, conversationId: request.conversationId, id: request.artifactId)
        }
        guard current.type.actions.contains(request.action.offered) else {
            let offered = current.type.actions.filter { $0 != .edit && $0 != .swap }.map(\.rawValue)
            throw ServiceError(
                .failedPrecondition,
                "A \(current.type.rawValue) card does not offer \(request.action.rawValue)"
                    + (offered.isEmpty ? "." : "; it offers \(offered.joined(separator: ", "))."),
                details: ["action": request.action.rawValue, "offered": offered.joined(separator: ",")])
        }
        if request.data != nil, request.action == .reject {
            throw ServiceError.invalidArgument(field: "data", reason: "reject takes no data")
        }
        // A card no longer pending is left to the keyed write below: the first answer for its key, or FAILED_PRECONDITION.
        var data = current.data
        var result: JSONValue = [:]
        if current.status == .pending {
            if let edited = request.data { data = try await CardEdit(services: services, userId: userId).apply(edited, to: current) }
            result = try await CardApplication(services: services, userId: userId).apply(
                request.action, to: current, content: data, edited: request.data != nil)
        }
        let applied = (data: data, result: result)
        let answer = try await idempotency.write(userId: userId, key: idempotencyKey, operation: "artifactAction", request: request) { tx in
            var artifact = try await store.artifact(in: tx, userId: userId, conversationId: request.conversationId, id: request.artifactId)
            guard artifact.status == .pending else {
                throw ServiceError(
                    .failedPrecondition, "This card was already \(artifact.status.rawValue).", details: ["status": artifact.status.rawValue]
                )
            }
            artifact.status = request.action.settles
            artifact.data = applied.data
            artifact.result = applied.result
            artifact.updatedAt = try await store.settle(in: tx, artifact: artifact)
            return Answer(artifact: artifact, result: applied.result)
        }
        await services.track(
            "artifact_action", userId: userId,
            params: ["action": .string(request.action.rawValue), "artifact_type": .string(current.type.rawValue)],
            eventId: "artifact_action:\(current.id)", logger: logger)
        return answer
    }
}
