/// Days a week: "4 days", "4-day", "3 full body days", "3x a week", "3 times per week", "twice weekly", "3x/wk", two or more weekday names
/// ("mon wed fri"), "every day" / "daily" (7). A split repeated "once" or "twice" a week counts its sessions: "PPL twice
/// a week" is 6, "upper/lower twice a week" 4. Not days a week: a span ("in 3 days", "the last 10 days", "2 days in a
/// row", "every 2 days"), a day added or dropped ("drop 1 day"), or a muscle's frequency ("legs twice a week", "abs
/// every day"). Kept when 1…7.
extension SlotReader {
    static let weekWords: Set<String> = ["week", "weeks", "weekly", "wk", "wks"]
    static let spanWords: Set<String> = ["in", "last", "past", "after", "within", "ago", "every", "next", "previous"]
    static let changeWords: Set<String> = ["add", "drop", "remove", "cut", "extra", "another", "more", "less", "fewer", "lose"]
    static let countWords: Set<String> = ["x", "times", "time", "sessions", "session", "workouts", "workout", "trainings"]
    static let weekdays: [[String]] = [
        ["monday", "mondays", "mon"], ["tuesday", "tuesdays", "tue", "tues"], ["wednesday", "wednesdays", "wed"],
        ["thursday", "thursdays", "thu", "thur", "thurs"], ["friday", "fridays", "fri"], ["saturday", "saturdays", "sat"],
        ["sunday", "sundays", "sun"],
    ]

    mutating func readDays() {
        if let (days, times, range) = frequency() {
            take(range, as: .days)
            let cycle = slots.split.map(Self.cycleLength) ?? 1
            if times, (1...2).contains(days), cycle > 1, days * cycle <= 7 {
                slots.days = days * cycle
            } else if (1...7).contains(days) {
                slots.days = days
            }
            return
        }
        let dayWords = tokens.indices.filter { isFree($0) && Self.isWeekday(tokens[$0]) }
        let named = Set(dayWords.compactMap { at in Self.weekdays.firstIndex { $0.contains(tokens[at]) } })
        if named.count >= 2 {
            slots.days = named.count
            for index in dayWords { take(index..<(index + 1), as: .days) }
        }
    }

    /// The sessions of one round of the split.
    static func cycleLength(_ split: PlanRequest.Split) -> Int {
        switch split {
        case .fullBody, .bodyPart: 1
        case .upperLower: 2
        case .pushPullLegs: 3
        case .upperLowerPushPullLegs: 5
        }
    }

    /// The first frequency in the text: the number, whether it counts times ("3x a week") rather than days, and its
    /// words.
    func frequency() -> (days: Int, times: Bool, range: Range<Int>)? {
        for index in tokens.indices where isFree(index) {
            if matches("every day", at: index) || tokens[index] == "everyday" || tokens[index] == "daily" {
                let count = tokens[index] == "every" ? 2 : 1
                if !followsMuscle(index) { return (7, false, index..<(index + count)) }
                continue
            }
            guard let number = Int(tokens[index]), index + 1 < tokens.count, roles[index + 1] == nil || roles[index + 1] == .split else {
                continue
            }
            // "3 full body days": a split's name between the number and "days".
            var dayAt = index + 1
            while dayAt < tokens.count, roles[dayAt] == .split { dayAt += 1 }
            if dayAt > index + 1, ["day", "days"].contains(token(dayAt)), !followsMuscle(index) {
                return (number, false, index..<(dayAt + 1))
            }
            let next = token(index + 1)
            let weekAt = ((index + 2)..<min(tokens.count, index + 5)).first { Self.weekWords.contains(tokens[$0]) }
            let previous = token(index - 1)
            let end = (weekAt ?? index + 1) + 1
            if next == "day" || next == "days" {
                let isSpan = Self.spanWords.contains(previous) && weekAt == nil
                let inARow = index + 2 < roles.count && roles[index + 2] == .ignored
                guard !isSpan, !inARow, !Self.changeWords.contains(previous), !followsMuscle(index) else { continue }
                return (number, false, index..<end)
            }
            if Self.countWords.contains(next), weekAt != nil, !followsMuscle(index) {
                return (number, true, index..<end)
            }
        }
        return nil
    }

    /// Whether a muscle group or "muscle" comes just before the word ("legs twice a week", "each muscle 2x a week").
    func followsMuscle(_ index: Int) -> Bool {
        ((index - 3)..<index).contains { at in
            at >= 0 && sameClause(at, index)
                && (BodyLexicon.muscles.match(tokens, at: at, usable: isFree) != nil
                    || ["muscle", "muscles", "bodypart", "part"].contains(tokens[at]))
        }
    }
}
