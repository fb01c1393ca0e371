/// When a message is about: "today" (also "tonight", "this morning"), "tomorrow", "yesterday" ("last night"),
/// "lately", "this/last week|month|year", "the last/past N days|weeks|months", "the past week|month" (1). The first
/// one named counts.
extension SlotReader {
    static let timePhrases = PhraseTable<TimeReference>(
        [
            ("today", .today), ("todays", .today), ("tonight", .today), ("tonights", .today), ("this morning", .today),
            ("this evening", .today), ("this afternoon", .today), ("for the day", .today), ("tomorrow", .tomorrow),
            ("tomorrows", .tomorrow), ("yesterday", .yesterday), ("yesterdays", .yesterday), ("last night", .yesterday),
            ("lately", .recent), ("recently", .recent), ("this week", .thisWeek), ("this weeks", .thisWeek), ("was my week", .thisWeek),
            ("my week going", .thisWeek), ("my week so far", .thisWeek),
            ("my week look", .thisWeek),
            ("last week", .lastWeek), ("last weeks", .lastWeek), ("previous week", .lastWeek), ("this month", .thisMonth),
            ("this months", .thisMonth), ("last month", .lastMonth), ("last months", .lastMonth), ("previous month", .lastMonth),
            ("this year", .thisYear), ("last year", .lastYear), ("past week", .pastWeeks(1)), ("past month", .pastMonths(1)),
        ])
    static let spanStarts: Set<String> = ["last", "past", "previous"]

    mutating func readTime() {
        var found: (at: Int, time: TimeReference)?
        for index in tokens.indices where isFree(index) && Self.spanStarts.contains(tokens[index]) {
            guard let count = Int(token(index + 1)), count > 0, isFree(index + 2) else { continue }
            let time: TimeReference? =
                switch token(index + 2) {
                case "day", "days": .pastDays(count)
                case "week", "weeks", "wk", "wks": .pastWeeks(count)
                case "month", "months": .pastMonths(count)
                default: nil
                }
            guard let time else { continue }
            take(index..<(index + 3), as: .time)
            if found == nil || index < found?.at ?? 0 { found = (index, time) }
        }
        for (range, time) in free(Self.timePhrases) {
            take(range, as: .time)
            if found == nil || range.lowerBound < found?.at ?? 0 { found = (range.lowerBound, time) }
        }
        slots.time = found?.time
    }
}
