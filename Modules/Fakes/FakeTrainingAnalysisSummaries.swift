import Contracts
import Foundation

/// Analysis notes a test writes by hand, answered as the training analyst's summaries are: by section, newest
/// first, expired ones never.
public actor FakeTrainingAnalysisSummaries: TrainingAnalysisSummaries {
    private let clock: any WallClock
    private var notes: [(userId: String, note: AnalysisNote, expiresAt: Date)] = []

    public init(clock: any WallClock) {
        self.clock = clock
    }

    /// Stores a note of the user, answered until `expiresAt`.
    public func add(_ note: AnalysisNote, userId: String, expiresAt: Date) {
        notes.append((userId, note, expiresAt))
    }

    public func summary(userId: String, sections: Set<AnalysisSection>, date: String?, limit: Int) async throws -> AnalysisSummary {
        guard (1...20).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 20") }
        if let date, !Self.isDay(date) { throw ServiceError.invalidArgument(field: "date", reason: "must be a day as YYYY-MM-DD") }
        let now = clock.now()
        let live = notes.filter { $0.userId == userId && $0.expiresAt > now }.map(\.note)
            .sorted { $0.createdAt != $1.createdAt ? $0.createdAt > $1.createdAt : $0.id > $1.id }
        var summary = AnalysisSummary()
        if sections.contains(.insights) { summary.insights = Array(live.filter { $0.section == .insights }.prefix(limit)) }
        if sections.contains(.dailyBrief) {
            summary.dailyBrief = live.first { $0.section == .dailyBrief && (date == nil || $0.period == date) }
        }
        if sections.contains(.weeklyReview) { summary.weeklyReview = live.first { $0.section == .weeklyReview } }
        return summary
    }

    /// `YYYY-MM-DD`, a real day.
    static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.gmt
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return false }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        return back.year == year && back.month == month && back.day == day
    }
}
