import Contracts
import Foundation
import Platform

/// An artifact the coach proposed in a conversation: a card as the app decodes it (docs/api.md "Cards": `id`, `type`,
/// `lane`, `status`, `title`, `subtitle`, `data`, `actions`, `meta`) with, where it is stored, the message that
/// proposed it, its times and, once acted on, what the action made (`result`: e.g. `routine_id`, `template_ids`).
/// `lane`, `actions`, `subtitle` and `meta` follow from the rest, so a stored card and a streamed one always agree.
public struct Artifact: Sendable, Equatable {
    public var id: String
    public var type: ArtifactType
    public var status: ArtifactStatus
    public var title: String
    public var data: JSONValue
    public var result: JSONValue?
    public var messageId: String
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        id: String, type: ArtifactType, status: ArtifactStatus, title: String, data: JSONValue, result: JSONValue? = nil,
        messageId: String, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.type = type
        self.status = status
        self.title = title
        self.data = data
        self.result = result
        self.messageId = messageId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The card's place on the app's canvas.
    public var lane: CardLane { type.lane(status) }

    /// What the card offers: its type's actions while it is pending, none once acted on.
    public var actions: [CardAction] { status == .pending ? type.actions : [] }

    /// A line under the title: how many days, exercises, weeks or questions the card holds.
    public var subtitle: String? {
        func count(_ items: [JSONValue]?, _ noun: String) -> String? {
            guard let items, !items.isEmpty else { return nil }
            return "\(items.count) \(noun)\(items.count == 1 ? "" : "s")"
        }
        switch type {
        case .routineSummary, .routineUpdate: return count(data["days"]?.arrayValue, "day")
        case .sessionPlan, .templateUpdate: return count(data["exercises"]?.arrayValue, "exercise")
        case .visualization:
            // A bar chart of this week's sets has a point per muscle group; every other chart a point per week.
            let unit = data["chart"] == "bar" && data["muscle"] == nil ? "muscle group" : "week"
            return count(data["points"]?.arrayValue, unit) ?? count(data["rows"]?.arrayValue, "lift")
        case .clarifyQuestions: return count(data["questions"]?.arrayValue, "question")
        case .analysisSummary: return count(data["findings"]?.arrayValue, "finding")
        case .suggestion: return data["text"]?.stringValue
        case .text: return nil
        }
    }

    /// Where the card comes from: the template and routine a session or a change is of; a proposed routine is its own
    /// draft (`draft_id`, the card's id).
    public var meta: CardMeta {
        switch type {
        case .sessionPlan:
            CardMeta(sourceTemplateId: data["template_id"]?.stringValue, sourceRoutineId: data["routine_id"]?.stringValue)
        case .templateUpdate: CardMeta(sourceTemplateId: data["template_id"]?.stringValue)
        case .routineUpdate: CardMeta(sourceRoutineId: data["routine_id"]?.stringValue)
        case .routineSummary: CardMeta(draftId: id)
        case .visualization, .analysisSummary, .clarifyQuestions, .suggestion, .text: CardMeta()
        }
    }

    /// The card alone, as the `artifact` event carries it in `data`.
    public var card: Card { Card(artifact: self) }

    /// The card alone: what the `artifact` SSE event carries.
    public struct Card: Encodable, Sendable {
        let artifact: Artifact

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try artifact.encodeCard(into: &container)
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, type, lane, status, title, subtitle, data, actions, meta, result
        case messageId = "message_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    func encodeCard(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(lane, forKey: .lane)
        try container.encode(status, forKey: .status)
        try container.encode(title, forKey: .title)
        try container.encode(ExplicitNull(wrappedValue: subtitle), forKey: .subtitle)
        try container.encode(data, forKey: .data)
        try container.encode(actions, forKey: .actions)
        try container.encode(meta, forKey: .meta)
    }
}

extension Artifact: Codable {
    /// The card with where it is stored (`message_id`, `created_at`, `updated_at`) and what acting on it made.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encodeCard(into: &container)
        try container.encode(ExplicitNull(wrappedValue: result), forKey: .result)
        try container.encode(messageId, forKey: .messageId)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }

    /// Reads a card back (a kept answer of `artifactAction`), in the form written before cards too.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let stored = StoredCard(
            type: try container.decode(String.self, forKey: .type), status: try container.decode(String.self, forKey: .status),
            data: try container.decode(JSONValue.self, forKey: .data))
        self.init(
            id: try container.decode(String.self, forKey: .id), type: stored.type, status: stored.status,
            title: try container.decode(String.self, forKey: .title), data: stored.data,
            result: try container.decodeIfPresent(JSONValue.self, forKey: .result).flatMap { $0 == .null ? nil : $0 },
            messageId: try container.decode(String.self, forKey: .messageId),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            updatedAt: try container.decode(Date.self, forKey: .updatedAt))
    }
}

/// Where a card comes from (docs/api.md: `source_template_id`, `source_routine_id`, `draft_id`); each is null where it
/// does not apply.
public struct CardMeta: Codable, Sendable, Equatable {
    @ExplicitNull public var sourceTemplateId: String?
    @ExplicitNull public var sourceRoutineId: String?
    @ExplicitNull public var draftId: String?

    public init(sourceTemplateId: String? = nil, sourceRoutineId: String? = nil, draftId: String? = nil) {
        self.sourceTemplateId = sourceTemplateId
        self.sourceRoutineId = sourceRoutineId
        self.draftId = draftId
    }

    enum CodingKeys: String, CodingKey {
        case sourceTemplateId = "source_template_id"
        case sourceRoutineId = "source_routine_id"
        case draftId = "draft_id"
    }
}
