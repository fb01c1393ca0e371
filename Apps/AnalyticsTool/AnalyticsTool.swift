import Analytics
import Contracts
import Foundation
import Platform
import Synchronization

/// `povver-analytics`: reports on a composition with Analytics (the server's database). One method per
/// subcommand, each returning the text to print, so a new subcommand is a method here and a few lines in the parser.
public struct AnalyticsTool: Sendable {
    let analytics: AnalyticsModule

    /// Works on `composition`, which must hold Analytics (the CLI's `AdminComposition`, or a test's).
    public init(composition: Composition) throws {
        self.analytics = try composition.module(AnalyticsModule.self)
    }

    /// The activation funnel over [`from`, `to`), days in UTC (`YYYY-MM-DD`): users per step, and the conversion
    /// from the previous step and from the first.
    public func funnel(from: String, to: String) async throws -> String {
        let start = try Self.day(from, field: "from")
        let end = try Self.day(to, field: "to")
        let steps = try await analytics.product.funnel.report(from: start, to: end)
        return "funnel \(from) → \(to) (to excluded)\n"
            + TextTable.render(
                ["step", "users", "from previous", "from first"],
                steps.map { [$0.name, "\($0.users)", Self.percent($0.fromPrevious), Self.percent($0.fromFirst)] })
    }

    /// Recomputes one user's training analytics from their history; `progress` hears workouts read.
    public func rebuild(userId: String, progress: ProgressReport? = nil) async throws -> String {
        let read = Mutex(0)
        try await analytics.rebuild(userId: userId) { count in
            read.withLock { $0 = count }
            progress?.update(count, of: count)
        }
        progress?.finish()
        return "rebuilt \(userId): \(read.withLock { $0 }) workouts\n"
    }

    /// Recomputes every user with a history (resuming after `after`); `progress` hears users done.
    public func rebuildAll(after: String? = nil, progress: ProgressReport? = nil) async throws -> String {
        let total = try await analytics.usersWithHistory()
        let done = Mutex(0)
        let count = try await analytics.rebuildAll(after: after) { _ in
            let now = done.withLock {
                $0 += 1
                return $0
            }
            progress?.update(now, of: total)
        }
        progress?.finish()
        return "rebuilt \(count) users\n"
    }

    /// The user's latest product events, newest first, milestones included.
    public func events(userId: String, limit: Int) async throws -> String {
        let events = try await analytics.product.recentEvents(userId: userId, limit: limit)
        return TextTable.render(
            ["occurred", "name", "source", "params", "install"],
            events.map { event in
                [
                    event.occurredAt.rfc3339, event.name, event.source.rawValue,
                    event.params.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "), event.installId ?? "-",
                ]
            })
    }

    /// Midnight UTC of a `YYYY-MM-DD` day; `INVALID_ARGUMENT` naming `field` otherwise.
    static func day(_ text: String, field: String) throws -> Date {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw ServiceError.invalidArgument(field: field, reason: "must be a day as YYYY-MM-DD") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.gmt
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else {
            throw ServiceError.invalidArgument(field: field, reason: "must be a day as YYYY-MM-DD")
        }
        return date
    }

    static func percent(_ ratio: Double?) -> String {
        ratio.map { String(format: "%.1f%%", $0 * 100) } ?? "-"
    }
}
