import Contracts
import Fakes
import Foundation
import Platform
import Recommendations
import TestSupport
import Testing

struct AnalysisSummariesFixture: Sendable {
    /// Stores a note for the user that expires after `days`.
    var write: @Sendable (_ userId: String, _ note: AnalysisNote, _ days: Int) async throws -> Void
    /// Moves the clock the summaries read forward.
    var advance: @Sendable (_ seconds: TimeInterval) async -> Void
}

/// The `TrainingAnalysisSummaries` contract: the user's own notes only, by section, newest insights first and at
/// most `limit`, the brief of the day asked, nothing expired, bad arguments refused naming the field. Runs on the
/// fake and on the live analysis notes (SQLite, and PostgreSQL when configured).
func trainingAnalysisSummariesConformance(_ summaries: some TrainingAnalysisSummaries, fixture: AnalysisSummariesFixture) async throws {
    let start = Date(timeIntervalSince1970: 1_767_225_600)
    func note(_ id: String, _ section: AnalysisSection, _ period: String, hours: Double) -> AnalysisNote {
        AnalysisNote(
            id: id, section: section, period: period, headline: "\(id) headline", findings: ["\(id) finding"],
            createdAt: start.addingTimeInterval(hours * 3600))
    }
    try await fixture.write("u1", note("i1", .insights, "2026-01-01", hours: 1), 7)
    try await fixture.write("u1", note("i2", .insights, "2026-01-02", hours: 25), 7)
    try await fixture.write("u1", note("i3", .insights, "2026-01-03", hours: 49), 7)
    try await fixture.write("u1", note("b1", .dailyBrief, "2026-01-02", hours: 30), 7)
    try await fixture.write("u1", note("b2", .dailyBrief, "2026-01-03", hours: 54), 7)
    try await fixture.write("u1", note("w1", .weeklyReview, "2026-W01", hours: 60), 30)
    try await fixture.write("u2", note("other", .insights, "2026-01-03", hours: 50), 7)

    let all = try await summaries.summary(userId: "u1", sections: Set(AnalysisSection.allCases), date: nil, limit: 2)
    #expect(all.insights.map(\.id) == ["i3", "i2"], "newest first, at most the limit")
    #expect(all.dailyBrief?.id == "b2", "the newest brief without a date")
    #expect(all.weeklyReview?.id == "w1")
    #expect(all.insights.first?.headline == "i3 headline" && all.insights.first?.findings == ["i3 finding"])
    let dated = try await summaries.summary(userId: "u1", sections: [.dailyBrief], date: "2026-01-02", limit: 5)
    #expect(dated.dailyBrief?.id == "b1" && dated.insights.isEmpty && dated.weeklyReview == nil, "only the sections asked")
    #expect(try await summaries.summary(userId: "u1", sections: [.dailyBrief], date: "2025-12-01", limit: 5).dailyBrief == nil)
    #expect(try await summaries.summary(userId: "u3", sections: Set(AnalysisSection.allCases), date: nil, limit: 5).isEmpty)
    let other = try await summaries.summary(userId: "u2", sections: Set(AnalysisSection.allCases), date: nil, limit: 5)
    #expect(other.insights.map(\.id) == ["other"], "another user's notes are not shown")

    // Ten days on, the seven-day notes are gone and the thirty-day review stays.
    await fixture.advance(10 * 86_400)
    let later = try await summaries.summary(userId: "u1", sections: Set(AnalysisSection.allCases), date: nil, limit: 5)
    #expect(later.insights.isEmpty && later.dailyBrief == nil && later.weeklyReview?.id == "w1")

    for (field, call) in [
        ("limit", { _ = try await summaries.summary(userId: "u1", sections: [.insights], date: nil, limit: 0) }),
        ("limit", { _ = try await summaries.summary(userId: "u1", sections: [.insights], date: nil, limit: 21) }),
        ("date", { _ = try await summaries.summary(userId: "u1", sections: [.dailyBrief], date: "2026-02-30", limit: 5) }),
        ("date", { _ = try await summaries.summary(userId: "u1", sections: [.dailyBrief], date: "yesterday", limit: 5) }),
    ] as [(String, () async throws -> Void)] {
        await expectCode(.invalidArgument, "a bad \(field)", details: ["field": field]) { try await call() }
    }
}

@Suite struct TrainingAnalysisSummariesConformanceTests {
    @Test func fake() async throws {
        let clock = FakeWallClock()
        let summaries = FakeTrainingAnalysisSummaries(clock: clock)
        try await trainingAnalysisSummariesConformance(
            summaries,
            fixture: AnalysisSummariesFixture(
                write: { userId, note, days in
                    await summaries.add(note, userId: userId, expiresAt: note.createdAt.addingTimeInterval(Double(days) * 86_400))
                },
                advance: { clock.advance(by: $0) }))
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        try await LiveRecommendations.with(engine, clock: clock) { module, database in
            try await trainingAnalysisSummariesConformance(
                module.summaries,
                fixture: AnalysisSummariesFixture(
                    write: { userId, note, days in
                        try await database.transaction { tx in
                            try await module.notes.write(
                                note, userId: userId, expiresAt: note.createdAt.addingTimeInterval(Double(days) * 86_400), in: tx)
                        }
                    },
                    advance: { clock.advance(by: $0) }))
        }
    }
}
