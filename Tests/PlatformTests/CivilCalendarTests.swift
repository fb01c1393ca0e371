import Foundation
import Platform
import Testing

/// Days and weeks in the user's time zone and with the user's week start.
@Suite struct CivilCalendarTests {
    static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func aMomentFallsOnTheUsersDay() {
        let berlin = CivilCalendar(timeZoneIdentifier: "Europe/Berlin", weekStartsOnMonday: true)
        let newYork = CivilCalendar(timeZoneIdentifier: "America/New_York", weekStartsOnMonday: true)
        let moment = Self.date("2026-03-01T23:30:00Z")  // Monday 00:30 in Berlin, Sunday 18:30 in New York
        #expect(CivilCalendar.text(ofDay: berlin.dayNumber(of: moment)) == "2026-03-02")
        #expect(CivilCalendar.text(ofDay: newYork.dayNumber(of: moment)) == "2026-03-01")
        // Across the spring change in Europe (29 March 2026): 00:30 local is 23:30 UTC the day before.
        #expect(CivilCalendar.text(ofDay: berlin.dayNumber(of: Self.date("2026-03-28T23:30:00Z"))) == "2026-03-29")
        #expect(CivilCalendar.text(ofDay: berlin.dayNumber(of: Self.date("2026-03-29T22:30:00Z"))) == "2026-03-30")
    }

    @Test func weeksStartOnTheUsersDay() throws {
        let monday = CivilCalendar(timeZoneIdentifier: "UTC", weekStartsOnMonday: true)
        let sunday = CivilCalendar(timeZoneIdentifier: "UTC", weekStartsOnMonday: false)
        let wednesday = try #require(CivilCalendar.day(ofText: "2026-11-25"))
        #expect(CivilCalendar.text(ofDay: monday.weekStart(ofDay: wednesday)) == "2026-11-23")
        #expect(CivilCalendar.text(ofDay: sunday.weekStart(ofDay: wednesday)) == "2026-11-22")
        let sundayDay = try #require(CivilCalendar.day(ofText: "2026-11-29"))
        #expect(CivilCalendar.text(ofDay: monday.weekStart(ofDay: sundayDay)) == "2026-11-23")
        #expect(CivilCalendar.text(ofDay: sunday.weekStart(ofDay: sundayDay)) == "2026-11-29")
        #expect(monday.lastWeeks(3, now: Self.date("2026-11-26T12:00:00Z")) == ["2026-11-09", "2026-11-16", "2026-11-23"])
    }

    @Test func datesRoundTripAndImpossibleOnesAreRefused() {
        for text in ["1970-01-01", "2000-02-29", "2024-12-31", "1969-12-31", "2100-03-01"] {
            #expect(CivilCalendar.day(ofText: text).map(CivilCalendar.text(ofDay:)) == text)
        }
        #expect(CivilCalendar.day(ofText: "1970-01-01") == 0)
        for bad in ["2026-02-30", "2025-02-29", "2026-13-01", "26-01-01", "2026-1-01", "", "yesterday"] {
            #expect(CivilCalendar.day(ofText: bad) == nil, "\(bad)")
        }
    }

    @Test func anUnknownTimeZoneIsUTC() {
        let calendar = CivilCalendar(timeZoneIdentifier: "Mars/Olympus", weekStartsOnMonday: true)
        #expect(calendar.timeZone.secondsFromGMT() == 0)
    }
}
