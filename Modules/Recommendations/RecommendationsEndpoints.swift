import Contracts
import Foundation
import Platform

/// Recommendations' HTTP endpoints (docs/recommendations.md). What a free user sees is gate 3 of its
/// three: the analysis, the recommendations and auto-pilot are premium (`PREMIUM_REQUIRED`); the settings read
/// answers everyone, with `premium` so the app knows to show the paywall.
struct RecommendationsEndpoints {
    static let tag = "Recommendations"

    let module: RecommendationsModule

    struct SummaryInput: Decodable, Sendable {
        var sections: [AnalysisSection]?
        var date: String?
        var limit: Int?

        enum CodingKeys: String, CodingKey {
            case sections, date, limit
        }

        /// `sections` is a list, or one comma-separated string; an unknown name is refused naming the field.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            date = try container.decodeIfPresent(String.self, forKey: .date)
            limit = try container.decodeIfPresent(Int.self, forKey: .limit)
            let names: [String]?
            if let list = try? container.decodeIfPresent([String].self, forKey: .sections) {
                names = list
            } else if let text = try? container.decodeIfPresent(String.self, forKey: .sections) {
                names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            } else if container.contains(.sections), try !container.decodeNil(forKey: .sections) {
                throw ServiceError.invalidArgument(field: "sections", reason: "must be a list of section names")
            } else {
                names = nil
            }
            sections = try names?.map { name in
                guard let section = AnalysisSection(rawValue: name) else {
                    throw ServiceError.invalidArgument(field: "sections", reason: "must be insights, daily_brief or weekly_review")
                }
                return section
            }
        }
    }

    /// The summary with an absent brief or review written as `null`.
    struct SummaryOutput: Encodable, Sendable {
        var summary: AnalysisSummary

        enum CodingKeys: String, CodingKey {
            case insights
            case dailyBrief = "daily_brief"
            case weeklyReview = "weekly_review"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(summary.insights, forKey: .insights)
            try container.encode(summary.dailyBrief, forKey: .dailyBrief)
            try container.encode(summary.weeklyReview, forKey: .weeklyReview)
        }
    }

    struct ListInput: Decodable, Sendable {
        var status: RecommendationStatus?
        var limit: Int?
        var cursor: String?
    }

    struct ListOutput: Encodable, Sendable {
        var items: [Recommendation]
        var nextCursor: String?

        enum CodingKeys: String, CodingKey {
            case items
            case nextCursor = "next_cursor"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(nextCursor, forKey: .nextCursor)
        }
    }

    struct ReviewInput: Decodable, Sendable {
        var recommendationId: String
        var action: RecommendationReview.Action

        enum CodingKeys: String, CodingKey {
            case recommendationId = "recommendation_id"
            case action
        }
    }

    struct SettingsInput: Decodable, Sendable {
        var autoPilotEnabled: Bool

        enum CodingKeys: String, CodingKey {
            case autoPilotEnabled = "auto_pilot_enabled"
        }
    }

    struct SettingsOutput: Encodable, Sendable {
        var autoPilotEnabled: Bool
        var premium: Bool

        enum CodingKeys: String, CodingKey {
            case autoPilotEnabled = "auto_pilot_enabled"
            case premium
        }
    }

    struct Empty: Decodable, Sendable {}

    /// Where the answers lead (OpenAPI links): a recommendation listed is one to review.
    static let links = [
        EndpointLink(from: "getRecommendations", to: "reviewRecommendation", ["recommendation_id": EndpointLink.answer("/items/0/id")])
    ]

    var all: [Endpoint] {
        let module = self.module
        let tag = Self.tag
        return [
            .rpc(
                "getAnalysisSummary", access: .user, tag: tag, readOnly: true,
                summary:
                    "The training analyst's notes: the newest insights, the daily brief (of `date`, or the newest) and the weekly review.",
                request: Schema.object([
                    "sections": Schema.array(Schema.enumeration(AnalysisSection.allCases.map(\.rawValue))),
                    "date": Schema.date, "limit": Schema.integer(minimum: 1, maximum: 20),
                ]),
                response: RecommendationsSchemas.summary, input: SummaryInput.self
            ) { input, call in
                let userId = try call.userId()
                try await module.premium.requirePremium(userId: userId)
                let sections = input.sections.map(Set.init) ?? Set(AnalysisSection.allCases)
                return SummaryOutput(
                    summary: try await module.notes.summary(userId: userId, sections: sections, date: input.date, limit: input.limit ?? 5))
            },
            .rpc(
                "getRecommendations", access: .user, tag: tag, readOnly: true,
                summary: "The user's recommendations, newest first, of one status when given.",
                request: Schema.object([
                    "status": RecommendationsSchemas.status, "limit": Schema.integer(minimum: 1, maximum: 100), "cursor": Schema.string,
                ]),
                response: RecommendationsSchemas.page, input: ListInput.self
            ) { input, call in
                let userId = try call.userId()
                try await module.premium.requirePremium(userId: userId)
                let limit = input.limit ?? 20
                guard (1...100).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100") }
                let page = try await module.store.list(userId: userId, status: input.status, limit: limit, cursor: input.cursor)
                return ListOutput(items: page.items, nextCursor: page.nextCursor)
            },
            .rpc(
                "reviewRecommendation", access: .user, tag: tag,
                summary:
                    "Accepts (a template change is applied if the template is unchanged since; `CONFLICT` otherwise) or rejects a pending recommendation.",
                request: Schema.object(
                    ["recommendation_id": Schema.string(minLength: 1), "action": Schema.enumeration(["accept", "reject"])],
                    required: ["recommendation_id", "action"]),
                response: RecommendationsSchemas.recommendation, input: ReviewInput.self
            ) { input, call in
                try await module.review.review(userId: try call.userId(), id: input.recommendationId, action: input.action)
            },
            .rpc(
                "getRecommendationSettings", access: .user, tag: tag, readOnly: true,
                summary: "Whether auto-pilot applies template recommendations at once (in effect only while premium).",
                request: Schema.empty, response: RecommendationsSchemas.settings, input: Empty.self
            ) { _, call in
                let userId = try call.userId()
                return SettingsOutput(
                    autoPilotEnabled: try await module.store.autoPilot(userId: userId),
                    premium: try await module.premium.isPremium(userId: userId))
            },
            .rpc(
                "updateRecommendationSettings", access: .user, tag: tag,
                summary: "Turns auto-pilot on or off (premium).",
                request: Schema.object(["auto_pilot_enabled": Schema.boolean], required: ["auto_pilot_enabled"]),
                response: RecommendationsSchemas.settings, input: SettingsInput.self
            ) { input, call in
                let userId = try call.userId()
                try await module.premium.requirePremium(userId: userId)
                try await module.store.setAutoPilot(userId: userId, enabled: input.autoPilotEnabled, now: module.clock.now())
                return SettingsOutput(autoPilotEnabled: input.autoPilotEnabled, premium: true)
            },
        ]
    }
}
