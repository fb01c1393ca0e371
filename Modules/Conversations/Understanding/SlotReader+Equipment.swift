/// Equipment, with negation. Kinds ("barbell", "db", "kb", "cable machine", "free weights" …), a full gym ("gym",
/// "commercial gym"), a small gym ("home gym", "hotel gym": only what it names), or home ("at home", "hotel room",
/// "travelling": bodyweight when nothing is named). A mention is negated by "no", "not", "without", "don't have",
/// "don't like", "hate", "avoid", "minus", "except", "remove" … before it in its clause, unless "just", "only", "but", "with",
/// "have", "got", "use" or "plus" comes between ("no barbell, just dumbbells": dumbbells, without a barbell); a
/// mention joined by "and" / "or" to a negated one is negated too ("no cables or machines"), while another mention
/// otherwise ends the negation ("no barbell at my gym": a gym, without a barbell).
/// The equipment is then a full gym when one is named, else the kinds named, else bodyweight at home or with "no
/// gym"; negated kinds go to `withoutEquipment`.
extension SlotReader {
    enum EquipmentWord: Sendable {
        case kinds(Set<EquipmentSet.Kind>)
        case gym, smallGym, home
    }

    static let equipmentWords = PhraseTable<EquipmentWord>(
        [
            ("gym", .gym), ("gyms", .gym), ("full gym", .gym), ("commercial gym", .gym), ("fitness center", .gym),
            ("fitness centre", .gym), ("health club", .gym), ("all equipment", .gym), ("all the equipment", .gym),
            ("any equipment", .gym), ("full equipment", .gym), ("home gym", .smallGym), ("garage gym", .smallGym),
            ("basement gym", .smallGym), ("apartment gym", .smallGym), ("hotel gym", .smallGym), ("home", .home), ("house", .home),
            ("apartment", .home), ("hotel", .home), ("hotel room", .home), ("travelling", .home), ("traveling", .home),
            ("travel", .home), ("travels", .home), ("free weights", .kinds([.barbell, .dumbbell])),
            ("free weight", .kinds([.barbell, .dumbbell])),
            ("no equipment", .kinds([.bodyOnly])), ("without equipment", .kinds([.bodyOnly])),
            ("without any equipment", .kinds([.bodyOnly])), ("zero equipment", .kinds([.bodyOnly])),
        ] + kindWords.flatMap { kind, phrases in phrases.map { ($0, EquipmentWord.kinds([kind])) } })

    static let kindWords: [(EquipmentSet.Kind, [String])] = [
        (.barbell, ["barbell", "barbells", "bb", "squat rack", "power rack", "rack", "olympic bar", "bar and plates", "squat stand"]),
        (.dumbbell, ["dumbbell", "dumbbells", "dumbell", "dumbells", "db", "dbs", "adjustable dumbbells"]),
        (.kettlebells, ["kettlebell", "kettlebells", "kettle bell", "kettle bells", "kb", "kbs"]),
        (.cable, ["cable", "cables", "cable machine", "cable machines", "cable station", "cable stack", "pulley", "pulleys"]),
        (.machine, ["machine", "machines", "smith machine", "machine weights"]),
        (.bands, ["band", "bands", "resistance band", "resistance bands", "mini bands", "loop bands"]),
        (
            .bodyOnly,
            [
                "bodyweight", "body weight", "calisthenics", "body only", "pull up bar", "pullup bar", "chin up bar", "dip bar",
                "dip bars", "dip station",
            ]
        ),
    ]

    /// Equipment names that hold an exercise's words ("squat rack", "pull up bar"), read before exercises.
    static let equipmentNames = PhraseTable(
        ["squat rack", "pull up bar", "pullup bar", "chin up bar", "dip bar", "dip bars", "dip station", "squat stand"], value: ())

    mutating func readEquipmentNames() {
        for (range, _) in free(Self.equipmentNames) { take(range, as: .equipment) }
    }

    static let negations: Set<String> = [
        "no", "not", "without", "dont", "doesnt", "never", "cant", "cannot", "lack", "minus", "except", "hate", "avoid", "havent",
        "hasnt", "didnt", "wont", "nor", "remove", "drop", "ditch", "dislike",
    ]
    static let affirmations: Set<String> = ["just", "only", "but", "with", "have", "got", "use", "plus", "own", "using", "has"]

    mutating func readEquipment() {
        var kinds = Set<EquipmentSet.Kind>()
        var without = Set<EquipmentSet.Kind>()
        var (gym, smallGym, home, noGym) = (false, false, false, false)
        let roles = self.roles
        let usable = { (at: Int) in roles[at] == nil || roles[at] == .equipment }
        for (range, word) in Self.equipmentWords.matches(in: tokens, usable: usable) {
            let negated = isNegated(range.lowerBound)
            take(range, as: negated ? .negatedEquipment : .equipment)
            switch (word, negated) {
            case (.kinds(let named), false): kinds.formUnion(named)
            case (.kinds(let named), true): without.formUnion(named.subtracting([.bodyOnly]))
            case (.gym, false): gym = true
            case (.gym, true), (.smallGym, true): noGym = true
            case (.smallGym, false): smallGym = true
            case (.home, _): home = true
            }
        }
        if gym {
            slots.equipment = .fullGym
        } else if !kinds.isEmpty {
            slots.equipment = EquipmentSet(kinds)
        } else if !smallGym && (home || noGym) {
            slots.equipment = .bodyOnly
        }
        slots.withoutEquipment = without
    }

    /// Whether a negation governs the mention starting at `index`: one comes before it in its clause with no word
    /// affirming between ("don't have" negates, "have" affirms).
    func isNegated(_ index: Int) -> Bool {
        var at = index - 1
        while at >= 0, sameClause(at, index), index - at <= 6 {
            let word = tokens[at]
            // "cables or machines": a mention joined to an earlier one shares its negation; "a barbell at my gym" does not.
            if roles[at] == .equipment || roles[at] == .negatedEquipment {
                let joined = tokens[(at + 1)..<index].contains { ["or", "and", "nor"].contains($0) }
                return joined && roles[at] == .negatedEquipment
            }
            if Self.negations.contains(word) { return true }
            if Self.affirmations.contains(word) { return Self.negations.contains(token(at - 1)) }
            at -= 1
        }
        return false
    }
}
