import Foundation

/// A section of the training analyst's summary (`getAnalysisSummary`, docs/recommendations.md "Notes").
public enum AnalysisSection: String, Codable, Sendable, CaseIterable {
    /// What the analyst noticed after each workout.
    case insights
    /// Readiness and the next planned workout, once a day.
    case dailyBrief = "daily_brief"
    /// Progression, sets per muscle and adherence, once a week.
    case weeklyReview = "weekly_review"
}

/// One bounded piece of analysis: a headline and a few findings in plain words, for the coach to quote.
public struct AnalysisNote: Codable, Sendable, Equatable {
    public var id: String
    public var section: AnalysisSection
    /// The day (`YYYY-MM-DD`, the user's calendar) or week (`YYYY-Www`) it is about.
    public var period: String
    public var headline: String
    public var findings: [String]
    public var createdAt: Date

    public init(id: String, section: AnalysisSection, period: String, headline: String, findings: [String], createdAt: Date) {
        self.id = id
        self.section = section
        self.period = period
        self.headline = headline
        self.findings = findings
        self.createdAt = createdAt
    }

    enum CodingKeys: String, CodingKey {
        case id, section, period, headline, findings
        case createdAt = "created_at"
    }
}

/// The analyst's summary of one user: the newest insights, and the daily brief and weekly review in effect.
public struct AnalysisSummary: Codable, Sendable, Equatable {
    /// Newest first.
    public var insights: [AnalysisNote]
    public var dailyBrief: AnalysisNote?
    public var weeklyReview: AnalysisNote?

    public init(insights: [AnalysisNote] = [], dailyBrief: AnalysisNote? = nil, weeklyReview: AnalysisNote? = nil) {
        self.insights = insights
        self.dailyBrief = dailyBrief
        self.weeklyReview = weeklyReview
    }

    public var isEmpty: Bool { insights.isEmpty && dailyBrief == nil && weeklyReview == nil }

    enum CodingKeys: String, CodingKey {
        case insights
        case dailyBrief = "daily_brief"
        case weeklyReview = "weekly_review"
    }
}

/// The training analyst's pre-computed summaries. Provided by Recommendations; read by the coach (its
/// `get_training_analysis` tool and the workout brief). Reads only: nothing is computed on the call.
public protocol TrainingAnalysisSummaries: Sendable {
    /// The user's summary, of `sections` only (the others empty): at most `limit` insights (1…20, newest first),
    /// the daily brief of `date` (`YYYY-MM-DD`; the newest when nil) and the newest weekly review. Expired notes are
    /// never answered. Throws `INVALID_ARGUMENT` (field `date` or `limit`) for a bad date or limit.
    func summary(userId: String, sections: Set<AnalysisSection>, date: String?, limit: Int) async throws -> AnalysisSummary
}
