import Platform

/// Named programs, splits, session kinds, session length and days a week.
extension SlotReader {
    static let programs = PhraseTable<NamedProgram>(
        [
            ("stronglifts", .stronglifts), ("stronglift", .stronglifts), ("strong lifts", .stronglifts), ("strong lift", .stronglifts),
            ("sl 5 x 5", .stronglifts), ("5 x 5", .stronglifts), ("5 by 5", .stronglifts), ("starting strength", .startingStrength),
            ("rippetoe", .startingStrength), ("rippetoes", .startingStrength), ("mark rippetoe", .startingStrength), ("phul", .phul),
            ("power hypertrophy upper lower", .phul), ("531", .fiveThreeOne), ("5 3 1", .fiveThreeOne), ("wendler", .fiveThreeOne),
            ("wendlers", .fiveThreeOne), ("jim wendler", .fiveThreeOne), ("jim wendlers", .fiveThreeOne),
            ("boring but big", .fiveThreeOne), ("bbb", .fiveThreeOne), ("gzclp", .gzclp), ("gzcl", .gzclp), ("gzcl p", .gzclp),
        ])

    mutating func readPrograms() {
        for (range, program) in free(Self.programs) {
            take(range, as: .program)
            if slots.program == nil { slots.program = program }
        }
    }

    /// The splits by name ("ppl", "upper lower", "bro split").
    static let splitPhrases: [(PlanRequest.Split, [String])] = [
        (.upperLowerPushPullLegs, ["upper lower push pull legs", "upper lower push pull leg", "ulppl", "upper lower ppl", "phul ppl"]),
        (.pushPullLegs, ["ppl", "push pull legs", "push pull leg", "push pull and legs", "push pull and leg"]),
        (.upperLower, ["upper lower", "upper and lower", "upper body lower body", "upper body and lower body"]),
        (.fullBody, ["full body", "fullbody", "total body", "whole body"]),
        (.bodyPart, ["bro split", "body part", "bodypart", "body parts", "bodyparts", "1 muscle group", "muscle group per day"]),
    ]

    static let splits = PhraseTable<PlanRequest.Split>(
        splitPhrases.flatMap { split, phrases in phrases.map { ($0, split) } } + [
            ("full bodies", .fullBody), ("upper lower split", .upperLower), ("body part split", .bodyPart),
        ])

    mutating func readSplit() {
        for (range, split) in free(Self.splits) {
            take(range, as: .split)
            if slots.split == nil { slots.split = split }
        }
    }

    /// "push day", "leg workout", "upper body session", "lower body": a kind of session; "push" and "pull" need a
    /// session word after them.
    static let focusWords = PhraseTable<SessionFocus>(
        [
            ("push", .push), ("pull", .pull), ("leg", .legs), ("legs", .legs), ("upper body", .upper), ("upper", .upper),
            ("lower body", .lower), ("lower", .lower),
        ])
    static let sessionWords: Set<String> = ["day", "days", "workout", "workouts", "session", "sessions", "training", "routine"]

    mutating func readFocus() {
        for (range, focus) in free(Self.focusWords) {
            let next = token(range.upperBound)
            let named = tokens[range].count == 2 || Self.sessionWords.contains(next)
            guard named else { continue }
            take(range, as: .focus)
            if slots.focus == nil { slots.focus = focus }
        }
    }

    /// Session length: "45 minutes", "45 min", "an hour", "1.5 hours", "half an hour", "an hour and a half"; kept
    /// when 10…240.
    mutating func readMinutes() {
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            guard isFree(index) else { continue }
            if ["half an hour", "half hour", "half a hour"].first(where: { matches($0, at: index) }) != nil {
                let count = token(index + 1) == "hour" ? 2 : 3
                take(index..<(index + count), as: .minutes)
                if slots.minutes == nil { slots.minutes = 30 }
                continue
            }
            let amount = Double(tokens[index]) ?? (["a", "an"].contains(tokens[index]) ? 1 : nil)
            guard let amount, amount.isFinite, isFree(index + 1) else { continue }
            let unit = token(index + 1)
            var minutes: Double?
            var end = index + 2
            if ["min", "mins", "minute", "minutes", "m"].contains(unit) && (unit != "m" || Double(tokens[index]) != nil) {
                minutes = amount
            } else if ["hour", "hours", "hr", "hrs", "h"].contains(unit) {
                let andAHalf = matches("and a half", at: index + 2)
                minutes = amount * 60 + (andAHalf ? 30 : 0)
                if andAHalf { end += 3 }
            }
            guard let minutes else { continue }
            take(index..<end, as: .minutes)
            let whole = Int(saturating: minutes.rounded())
            if slots.minutes == nil, (10...240).contains(whole) { slots.minutes = whole }
        }
    }

    /// Whether the words from `index` are the phrase.
    func matches(_ phrase: String, at index: Int) -> Bool {
        let words = phrase.split(separator: " ")
        return words.enumerated().allSatisfy { offset, word in token(index + offset) == word }
    }
}
