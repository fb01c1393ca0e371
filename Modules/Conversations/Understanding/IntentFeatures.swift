/// The features the intent classifier sees in a message: its words and word pairs; the class of each word (what the
/// slot grammar read it as, "EXERCISE", "MUSCLE" …, else its cue class, `IntentCues`) and pairs and triples of
/// classes; the slots found; whether it is a set command (`SetCommandParser`) or a question; its first word and
/// length. Features are names; the classifier numbers them.
enum IntentFeatures {
    static func of(text: MessageText, slots: MessageSlots, roles: [TokenRole?], isSetCommand: Bool) -> [String] {
        var features = Set<String>()
        let tokens = text.tokens
        var classes: [String] = []
        for (index, token) in tokens.enumerated() {
            features.insert("w:" + token)
            let cues = IntentCues.classesByWord[token] ?? []
            for cue in cues { features.insert("k:" + cue) }
            if let role = roles[index], role != .ignored {
                classes.append(role.rawValue.uppercased())
                features.insert("k:" + role.rawValue.uppercased())
            } else if Double(token) != nil {
                classes.append("NUM")
            } else {
                classes.append(cues.first ?? token)
            }
        }
        let words = ["^"] + tokens + ["$"]
        for index in 1..<words.count { features.insert("b:\(words[index - 1])_\(words[index])") }
        let sequence = ["^"] + classes + ["$"]
        for index in 1..<sequence.count {
            features.insert("kb:\(sequence[index - 1])_\(sequence[index])")
            if index >= 2 { features.insert("kt:\(sequence[index - 2])_\(sequence[index - 1])_\(sequence[index])") }
        }
        let present = slotPresence(slots).filter(\.1).map(\.0)
        for name in present { features.insert("s:" + name) }
        // What a slot means depends on the words around it: a muscle with "how" is progress, with "more" a change.
        let frames = Set(features.filter { $0.hasPrefix("k:") }.map { String($0.dropFirst(2)) })
            .union(["first:" + (classes.first ?? ""), text.asksQuestion ? "q" : "statement"])
        for frame in frames {
            features.insert("j:\(frame)|" + (present.isEmpty ? "none" : present.joined(separator: "+")))
            for name in present { features.insert("j:\(frame)|\(name)") }
        }
        if tokens.count >= 2 { features.insert("x:first2:\(tokens[0])_\(tokens[1])") }
        // "forget it, how am I doing?": the last clause says what is asked.
        if let lastClause = text.clauses.last, text.clauses.first != lastClause,
            let start = text.clauses.firstIndex(of: lastClause)
        {
            features.insert("l:first:" + tokens[start])
            for index in start..<tokens.count { features.insert("l:" + classes[index]) }
        }
        features.insert("x:mood:" + mood(tokens: tokens, classes: classes, asksQuestion: text.asksQuestion))
        // The words around what the message is about: "my bench" is the user's own lift, "for chest" a topic.
        let targets: Set<TokenRole> = [.exercise, .muscle, .focus, .area]
        if let first = roles.firstIndex(where: { $0.map(targets.contains) ?? false }),
            let last = roles.lastIndex(where: { $0.map(targets.contains) ?? false })
        {
            features.insert("x:before-target:" + (first > 0 ? tokens[first - 1] : "^"))
            features.insert("x:after-target:" + (last + 1 < tokens.count ? tokens[last + 1] : "$"))
        }
        let constraints = [slots.minutes != nil, slots.equipment != nil, slots.focus != nil, !slots.muscles.isEmpty, slots.split != nil]
            .filter { $0 }.count
        features.insert("x:constraints:\(min(constraints, 2))")
        // A message with nothing of training in it ("what's 2 plus 2", "how do I invest money").
        let trainingClasses: Set<String> = ["SESSION", "ROUTINE", "LOG", "PROGRESS", "MAKE", "SWAP", "CHANGE", "FINISH", "NEXT"]
        let aboutTraining =
            roles.contains { $0 != nil && $0 != .ignored }
            || tokens.contains { token in (IntentCues.classesByWord[token] ?? []).contains(where: trainingClasses.contains) }
            || tokens.contains(where: trainingWords.contains)
        features.insert(aboutTraining ? "x:training" : "x:not-training")
        // "my routine", "this program": the user's own plan, which a change is about and a new plan is not.
        for (index, token) in tokens.enumerated() where SlotReader.routineNouns.contains(token) {
            if tokens[max(0, index - 3)..<index].contains(where: owners.contains) { features.insert("x:owned-routine") }
        }
        // A short message of one kind of word and fillers ("hi coach", "ok sounds good", "scratch that") is that kind.
        if tokens.count <= 6, present.isEmpty {
            let kinds = Set(tokens.compactMap { IntentCues.classesByWord[$0]?.first })
            features.insert("x:only:" + (kinds.count == 1 ? kinds.first ?? "" : kinds.isEmpty ? "none" : "mixed"))
        }
        if let edit = slots.edit { features.insert("s:edit:" + edit.rawValue) }
        if isSetCommand { features.insert("x:set") }
        if text.asksQuestion { features.insert("x:q") }
        features.insert("x:first:" + (tokens.first ?? ""))
        features.insert("x:firstclass:" + (classes.first ?? ""))
        features.insert("x:len:" + (tokens.count <= 2 ? String(tokens.count) : tokens.count <= 5 ? "3-5" : "6+"))
        return features.sorted()
    }

    /// What kind of sentence the message is: a question, a request, a statement about the user, or a fragment ("3 days").
    static func mood(tokens: [String], classes: [String], asksQuestion: Bool) -> String {
        let first = tokens.first ?? ""
        let firstClasses = IntentCues.classesByWord[first] ?? []
        if asksQuestion || firstClasses.contains(where: ["WH", "AUX", "ADVICE"].contains) { return "question" }
        let requestClasses = ["MAKE", "CHANGE", "SWAP"]
        if firstClasses.contains(where: requestClasses.contains) || ["please", "pls", "lets", "can", "could"].contains(first) {
            return "request"
        }
        if ["i", "im", "ive", "id", "my", "we", "were", "iam"].contains(first) {
            let asks = tokens.prefix(4).contains { ["want", "need", "like", "give", "make", "build"].contains($0) }
            return asks ? "request" : "statement"
        }
        return tokens.count <= 3 ? "fragment" : "other"
    }

    static let trainingWords: Set<String> = [
        "train", "training", "lift", "lifting", "gym", "exercise", "exercises", "reps", "rep", "sets", "set", "weight", "weights",
        "muscle", "muscles", "strength", "cardio", "workout", "deload", "form", "volume", "rest", "warmup", "failure", "rir", "rpe",
    ]
    static let owners: Set<String> = ["my", "current", "this", "existing", "our"]

    static func slotPresence(_ slots: MessageSlots) -> [(String, Bool)] {
        [
            ("days", slots.days != nil), ("split", slots.split != nil), ("program", slots.program != nil),
            ("minutes", slots.minutes != nil), ("focus", slots.focus != nil), ("equipment", slots.equipment != nil),
            ("without", !slots.withoutEquipment.isEmpty), ("goal", slots.goal != nil), ("experience", slots.experience != nil),
            ("exercise", !slots.exercises.isEmpty), ("exercises2", slots.exercises.count > 1), ("muscle", !slots.muscles.isEmpty),
            ("spare", !slots.spare.isEmpty), ("time", slots.time != nil), ("swap", slots.swap != nil),
            ("swapto", slots.swap?.to != nil),
        ]
    }
}
