/// A swap's two sides and what a routine change does.
///
/// Swap: "swap / replace / switch / sub / substitute / exchange / trade / change X for|with|to|by|into Y" (X out, Y
/// in; "change" only with both), "sub in / swap in X for Y" (Y out, X in), "X instead of Y", "an alternative to /
/// substitute for / replacement for / swap for X", "besides X", "other than X", and "X … something else / what else /
/// a different exercise / instead". The sides are exercises the reader found; a side with none is empty ("swap squats
/// for something easier on my knees"); "swap it / them" is the exercise named before.
///
/// Edit: add ("add", "include", "put … in", "throw in"), remove ("drop", "remove", "delete", "take … out/off", "get rid
/// of", "cut", "ditch", "no more"), more ("more", "extra", "emphasize", "prioritize", "bring up", "focus more on"),
/// less ("less", "fewer", "reduce", "cut back on", "tone down"), when an exercise, muscle group, session kind, a
/// day, a weekday, "exercises", or "sets" / "volume" in a clause naming a muscle or routine follows within four words
/// in the clause. The first one counts.
extension SlotReader {
    static let swapVerbs: Set<String> = [
        "swap", "replace", "switch", "sub", "substitute", "exchange", "trade", "change", "swapping", "replacing",
    ]
    static let swapJoiners: Set<String> = ["for", "with", "to", "by", "into"]
    static let swapTargetWords = PhraseTable(
        [
            "alternative to", "alternative for", "alternatives to", "alternatives for", "substitute for", "replacement for",
            "swap for", "sub for", "besides", "other than", "in place of",
        ], value: ())

    mutating func readSwap() {
        let spans = exerciseSpans.sorted { $0.range.lowerBound < $1.range.lowerBound }
        guard let first = spans.first else { return }
        func span(after index: Int) -> (range: Range<Int>, name: String)? { spans.first { $0.range.lowerBound > index } }
        func other(than name: String) -> String? { spans.first { $0.name != name }?.name }
        if let at = tokens.indices.first(where: { matches("instead of", at: $0) }), let from = span(after: at) {
            slots.swap = SwapTarget(from: from.name, to: other(than: from.name))
            return
        }
        if let (range, _) = Self.swapTargetWords.matches(in: tokens).first, let from = span(after: range.lowerBound) {
            slots.swap = SwapTarget(from: from.name, to: other(than: from.name))
            return
        }
        for index in tokens.indices where Self.swapVerbs.contains(tokens[index]) {
            let reversed = token(index + 1) == "in"
            // "I can't do dips, swap them": the exercise named before.
            let pronoun = ["it", "them", "that", "this", "those", "these"].contains(token(index + 1))
            guard let object = pronoun ? spans.last(where: { $0.range.upperBound <= index }) : span(after: index) else { continue }
            let joiner = (object.range.upperBound..<min(tokens.count, object.range.upperBound + 3)).first {
                Self.swapJoiners.contains(tokens[$0])
            }
            let target = joiner.flatMap { span(after: $0) }.flatMap { sameClause($0.range.lowerBound, object.range.lowerBound) ? $0 : nil }
            if tokens[index] == "change", target == nil { continue }
            slots.swap = reversed ? SwapTarget(from: target?.name, to: object.name) : SwapTarget(from: object.name, to: target?.name)
            return
        }
        let endsWithInstead = tokens.indices.contains { tokens[$0] == "instead" && token($0 + 1) != "of" }
        let otherWords = [
            "something else", "anything else", "what else", "different exercise", "another exercise", "different one",
            "something different",
        ]
        if endsWithInstead || otherWords.contains(where: matchesAnywhere) {
            slots.swap = SwapTarget(from: first.name, to: nil)
        }
    }

    func matchesAnywhere(_ phrase: String) -> Bool {
        tokens.indices.contains { matches(phrase, at: $0) }
    }

    static let editWords = PhraseTable<RoutineEdit>(
        [
            ("add", .add), ("adding", .add), ("include", .add), ("put", .add), ("throw in", .add), ("stick in", .add), ("drop", .remove),
            ("remove", .remove), ("delete", .remove), ("take out", .remove), ("take", .remove), ("get rid of", .remove), ("cut", .remove),
            ("cut out", .remove), ("ditch", .remove), ("no more", .remove), ("more", .more), ("extra", .more), ("emphasize", .more),
            ("emphasise", .more), ("prioritize", .more), ("prioritise", .more), ("bring up", .more), ("focus more on", .more),
            ("less", .less), ("fewer", .less), ("reduce", .less), ("cut back on", .less), ("cut back", .less), ("tone down", .less),
            ("cut down on", .less),
        ])
    static let editObjects: Set<TokenRole> = [.exercise, .muscle, .focus]
    /// Words naming a routine ("my routine", "this program").
    static let routineNouns: Set<String> = ["routine", "routines", "program", "programme", "plan", "split", "schedule", "workouts"]
    static let editObjectWords: Set<String> = ["day", "days", "volume", "sets", "exercise", "exercises"]

    static func isWeekday(_ word: String) -> Bool {
        weekdays.contains { $0.contains(word) }
    }

    mutating func readEdit() {
        for (range, edit) in Self.editWords.matches(in: tokens) {
            let after = range.upperBound..<min(tokens.count, range.upperBound + 4)
            let clause = tokens.indices.filter { sameClause($0, range.lowerBound) }
            // "more sets" and "less volume" change a routine when the clause names what or which routine.
            let namesWhat = clause.contains { at in
                roles[at].map(Self.editObjects.contains) ?? false || Self.routineNouns.contains(tokens[at])
            }
            let object = after.first { at in
                guard sameClause(at, range.lowerBound) else { return false }
                if roles[at].map(Self.editObjects.contains) ?? false || Self.isWeekday(tokens[at]) { return true }
                return Self.editObjectWords.contains(tokens[at]) && (!["sets", "volume"].contains(tokens[at]) || namesWhat)
            }
            guard let object else { continue }
            // "take squats out of my program", "put rows in my back day": "take" and "put" change a routine only with
            // "out" / "in" after what they name ("put together a workout" adds nothing).
            let particles: [String: Set<String>] = ["take": ["out", "off"], "put": ["in", "into", "back"]]
            if range.count == 1, let needed = particles[tokens[range.lowerBound]],
                !(object..<min(tokens.count, object + 5)).contains(where: { needed.contains(tokens[$0]) })
            {
                continue
            }
            let between = tokens[range.upperBound..<object]
            // "put more ab work in", "add more sets": the nearer word says what the change does ("add one more day" adds).
            if between.contains(where: { ["more", "less", "fewer"].contains($0) }),
                !["day", "days", "exercise", "exercises"].contains(tokens[object])
            {
                continue
            }
            // "add weight to my bench": the object follows the verb, not a preposition.
            if edit == .add || edit == .remove, between.contains(where: { ["to", "from", "on", "in"].contains($0) }) { continue }
            slots.edit = edit
            return
        }
    }
}
