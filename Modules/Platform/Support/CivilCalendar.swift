import Foundation

/// Days and weeks as a user lives them: a moment's civil date in the user's time zone, and the first day of
/// its week (Monday or Sunday, as the user chose). Dates are `YYYY-MM-DD`, so they sort as text.
public struct CivilCalendar: Sendable {
    public let timeZone: TimeZone
    public let weekStartsOnMonday: Bool

    /// An unknown or missing time zone is UTC (the account may predate time zones, or hold one the system lost).
    public init(timeZoneIdentifier: String?, weekStartsOnMonday: Bool) {
        self.timeZone = timeZoneIdentifier.flatMap(TimeZone.init(identifier:)) ?? TimeZone.gmt
        self.weekStartsOnMonday = weekStartsOnMonday
    }

    /// The moment's civil day, as days since 1970-01-01.
    public func dayNumber(of date: Date) -> Int {
        let offset = timeZone.secondsFromGMT(for: date)
        return Int(saturating: ((date.timeIntervalSince1970 + Double(offset)) / 86_400).rounded(.down))
    }

    /// The first day of the week holding `day` (days since 1970-01-01, a Thursday).
    public func weekStart(ofDay day: Int) -> Int {
        // 1970-01-01 was a Thursday: Monday-based weekday index 3, Sunday-based 4.
        let weekday = ((day + (weekStartsOnMonday ? 3 : 4)) % 7 + 7) % 7
        return day - weekday
    }

    /// The current week's first day and the `count - 1` weeks before it, oldest first.
    public func lastWeeks(_ count: Int, now: Date) -> [String] {
        let current = weekStart(ofDay: dayNumber(of: now))
        return (0..<count).reversed().map { Self.text(ofDay: current - 7 * $0) }
    }

    /// `YYYY-MM-DD` of a day number (proleptic Gregorian; H. Hinnant's civil-from-days).
    public static func text(ofDay day: Int) -> String {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    /// The day number of `YYYY-MM-DD`, nil when it is not a real date.
    public static func day(ofText text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let day = era * 146_097 + doe - 719_468
        return Self.text(ofDay: day) == text ? day : nil  // 2026-02-30 comes back as March: not a date
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
