import Contracts
import Foundation
import Platform
import SQLKit

/// The analyst's notes as stored: one row per insight (per workout), daily brief (per day) and weekly review (per
/// week), each until its TTL. Answers `TrainingAnalysisSummaries` for the coach and `getAnalysisSummary`.
public struct AnalysisNotes: TrainingAnalysisSummaries {
    /// How long each section's notes are answered (docs/product.md): 7, 7 and 30 days.
    public static func timeToLive(_ section: AnalysisSection) -> TimeInterval {
        switch section {
        case .insights, .dailyBrief: 7 * 86_400
        case .weeklyReview: 30 * 86_400
        }
    }

    /// The largest a note may be as JSON (docs/product.md).
    public static let maxBytes = 2048

    let database: Database
    let clock: any WallClock

    public init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Stores the note (replacing one with its id: a job run again rewrites its own note), cut to `maxBytes`, until
    /// `expiresAt`.
    public func write(_ note: AnalysisNote, userId: String, expiresAt: Date, in tx: Transaction) async throws {
        let note = Self.bounded(note)
        try await tx.sql.raw(
            """
            INSERT INTO recommendations_notes (user_id, id, section, period, headline, findings, created_at, expires_at)
            VALUES (\(bind: userId), \(bind: note.id), \(bind: note.section.rawValue), \(bind: note.period), \(bind: note.headline),
                    \(bind: try JSONCoding.store(note.findings)), \(bind: note.createdAt.millisecondsSince1970), \(bind: expiresAt.millisecondsSince1970))
            ON CONFLICT (user_id, id) DO UPDATE SET section = excluded.section, period = excluded.period, headline = excluded.headline,
                findings = excluded.findings, created_at = excluded.created_at, expires_at = excluded.expires_at
            """
        ).run()
    }

    /// Removes one of the user's notes (a deleted workout's insight), in the caller's transaction.
    func remove(userId: String, id: String, in tx: Transaction) async throws {
        try await tx.sql.raw("DELETE FROM recommendations_notes WHERE user_id = \(bind: userId) AND id = \(bind: id)").run()
    }

    /// The note with findings dropped from the end until its JSON fits `maxBytes` (a headline is short by
    /// construction; an overlong one is cut too).
    public static func bounded(_ note: AnalysisNote) -> AnalysisNote {
        var note = note
        if note.headline.count > 200 { note.headline = String(note.headline.prefix(199)) + "…" }
        note.findings = note.findings.map { $0.count > 300 ? String($0.prefix(299)) + "…" : $0 }
        while size(note) >= maxBytes, !note.findings.isEmpty { note.findings.removeLast() }
        return note
    }

    static func size(_ note: AnalysisNote) -> Int { (try? JSONCoding.encode(note).count) ?? Int.max }

    public func summary(userId: String, sections: Set<AnalysisSection>, date: String?, limit: Int) async throws -> AnalysisSummary {
        guard (1...20).contains(limit) else { throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 20") }
        if let date, CivilCalendar.day(ofText: date) == nil {
            throw ServiceError.invalidArgument(field: "date", reason: "must be a day as YYYY-MM-DD")
        }
        guard !sections.isEmpty else { return AnalysisSummary() }
        let now = clock.now().millisecondsSince1970
        // One statement, one round trip: each asked section's newest rows, unexpired (a sub-select each, since a
        // compound select's members cannot have their own ORDER BY and LIMIT).
        let columns: SQLQueryString = "id, section, period, headline, findings, created_at"
        var parts: [SQLQueryString] = []
        if sections.contains(.insights) {
            parts.append(
                """
                SELECT * FROM (SELECT \(columns) FROM recommendations_notes
                    WHERE user_id = \(bind: userId) AND section = 'insights' AND expires_at > \(bind: now)
                    ORDER BY created_at DESC, id DESC LIMIT \(bind: limit)) AS insights
                """)
        }
        if sections.contains(.dailyBrief) {
            let day: SQLQueryString = date.map { "AND period = \(bind: $0)" } ?? ""
            parts.append(
                """
                SELECT * FROM (SELECT \(columns) FROM recommendations_notes
                    WHERE user_id = \(bind: userId) AND section = 'daily_brief' AND expires_at > \(bind: now) \(day)
                    ORDER BY created_at DESC, id DESC LIMIT 1) AS brief
                """)
        }
        if sections.contains(.weeklyReview) {
            parts.append(
                """
                SELECT * FROM (SELECT \(columns) FROM recommendations_notes
                    WHERE user_id = \(bind: userId) AND section = 'weekly_review' AND expires_at > \(bind: now)
                    ORDER BY created_at DESC, id DESC LIMIT 1) AS review
                """)
        }
        var statement = parts[0]
        for part in parts.dropFirst() { statement = "\(statement) UNION ALL \(part)" }
        let notes = try Self.notes(try await database.sql.raw(statement).all())
        var summary = AnalysisSummary()
        summary.insights = notes.filter { $0.section == .insights }.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
        summary.dailyBrief = notes.first { $0.section == .dailyBrief }
        summary.weeklyReview = notes.first { $0.section == .weeklyReview }
        return summary
    }

    static func notes(_ rows: [any SQLRow]) throws -> [AnalysisNote] {
        try rows.map { row in
            AnalysisNote(
                id: try row.decode(column: "id", as: String.self),
                section: AnalysisSection(rawValue: try row.decode(column: "section", as: String.self)) ?? .insights,
                period: try row.decode(column: "period", as: String.self),
                headline: try row.decode(column: "headline", as: String.self),
                findings: try JSONCoding.load([String].self, from: try row.decode(column: "findings", as: String.self)),
                createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)))
        }
    }

    /// Deletes notes past their TTL; answers how many.
    public func purgeExpired() async throws -> Int {
        let now = clock.now().millisecondsSince1970
        return try await database.transaction { tx in
            try await tx.sql.raw("DELETE FROM recommendations_notes WHERE expires_at <= \(bind: now) RETURNING id").all().count
        }
    }
}
