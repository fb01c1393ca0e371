import Platform

/// Recommendations' own settings: the local hour (in each user's time zone) from which the daily brief is
/// written (`POVVER_ANALYST_DAILY_BRIEF_HOUR`, 6) and the hour of the first day of the user's week from which the
/// review of the week just ended is (`POVVER_ANALYST_WEEKLY_REVIEW_HOUR`, 6); how often the scheduler looks
/// (`POVVER_ANALYST_SCHEDULER_MINUTES`, 15). A bad value throws `INVALID_ARGUMENT` naming the variable.
public struct RecommendationsSettings: Sendable {
    public var dailyBriefHour: Int
    public var weeklyReviewHour: Int
    public var schedulerInterval: Duration

    public init(dailyBriefHour: Int = 6, weeklyReviewHour: Int = 6, schedulerInterval: Duration = .seconds(900)) {
        self.dailyBriefHour = dailyBriefHour
        self.weeklyReviewHour = weeklyReviewHour
        self.schedulerInterval = schedulerInterval
    }

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        dailyBriefHour = try reader.integer("POVVER_ANALYST_DAILY_BRIEF_HOUR", default: 6, range: 0...23)
        weeklyReviewHour = try reader.integer("POVVER_ANALYST_WEEKLY_REVIEW_HOUR", default: 6, range: 0...23)
        schedulerInterval = .seconds(60 * (try reader.integer("POVVER_ANALYST_SCHEDULER_MINUTES", default: 15, range: 1...1440)))
    }
}
