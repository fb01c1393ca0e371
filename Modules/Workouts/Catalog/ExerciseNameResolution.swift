import Contracts

/// Which catalog exercise a name from another app's workout log means, for an import that must map every logged
/// exercise or report it as unmatched: a wrong guess would file a lifter's history under another lift, so a name
/// is resolved only when the answer is sure, and nil is an answer.
extension CatalogIndex {
    /// The exercise `name` means, or nil when no exercise is a confident match. In order:
    ///
    /// 1. An alias (`ExerciseAliases`): "Overhead Press (Barbell)" is the standing military press.
    /// 2. The catalog's search, whose top hit is taken only when it is a confident match (`confidentMatch`): the
    ///    whole name ("Barbell Squat"), or the plain name of a staple ("Squat", by the commonness prior).
    /// 3. For a name ending in an equipment in parentheses, as Strong and Hevy write them ("Preacher Curl
    ///    (Cable)"), the same search for the name without it, among exercises of that equipment only.
    func resolve(exportedName name: String) -> Exercise? {
        if let id = ExerciseAliases.exerciseId(forExportedName: name), let exercise = byID[id] { return exercise }
        guard name.count <= SQLExerciseCatalog.maxQueryLength else { return nil }
        if let exercise = confidentMatch(name, equipment: nil) { return exercise }
        guard name.hasSuffix(")"), let open = name.lastIndex(of: "(") else { return nil }
        let equipmentWord = Self.fold(String(name[open...])).split(separator: " ").first.map(String.init) ?? ""
        guard let equipment = Self.exportedEquipment[equipmentWord] else { return nil }
        return confidentMatch(String(name[..<open]), equipment: equipment)
    }

    /// The catalog's equipment for the first word of an exported name's parenthesis ("Cable - Straight Bar" is
    /// cable, "Smith Machine" a machine).
    static let exportedEquipment: [String: String] = [
        "barbell": "barbell", "dumbbell": "dumbbell", "cable": "cable", "machine": "machine", "smith": "machine",
        "kettlebell": "kettlebells", "band": "bands", "bands": "bands", "bodyweight": "body only", "ez": "e-z curl bar",
    ]

    /// The search's top hit for `text` (among exercises of `equipment`, if given) when it is a confident match:
    /// - it is the text's alias, or
    /// - every word of the text is one of the name's words as typed, or its plural, or gym shorthand spelled out
    ///   (no prefix completed, no typo, no words run together), and the name has at most one word more (the
    ///   standard lift of the commonness prior may have more: "Bench Press" is "Barbell Bench Press - Medium Grip");
    /// - and the next hit ranks lower by match quality, not merely by length or name (two names equally good
    ///   are a guess: "Press" could be the leg press or the military press).
    func confidentMatch(_ text: String, equipment: String?) -> Exercise? {
        let folded = Self.fold(text)
        guard !folded.isEmpty else { return nil }
        let ranked = hits(text: text, muscle: nil, equipment: equipment, category: nil)
        guard let top = ranked.first else { return nil }
        let entry = entries[Int(top.entry)]
        if ExerciseAliases.exerciseId(forFolded: folded) == entry.exercise.id { return entry.exercise }
        guard Self.isConfident(Self.words(folded), entry) else { return nil }
        if ranked.count > 1, quality(ranked[1]) >= quality(top) { return nil }
        return entry.exercise
    }

    /// A hit's match quality: its score without the length tie-break.
    func quality(_ hit: Hit) -> Int {
        (Int(hit.score) + Self.qualityWeight - 1) / Self.qualityWeight
    }

    /// Whether every token is one of the entry's words (see `confidentMatch`) and the name's other words are at
    /// most one, or the entry is a standard lift.
    static func isConfident(_ tokens: [[UInt32]], _ entry: Entry) -> Bool {
        var covered = Set<Int>()
        for token in tokens {
            var found = false
            for (index, word) in entry.words.enumerated() where isSameWord(token, word) {
                covered.insert(index)
                found = true
            }
            if !found, let ways = shorthandWords[token] {
                for way in ways where !found {
                    let indices = way.compactMap { part in entry.words.firstIndex { isSameWord(part, $0) } }
                    if indices.count == way.count {
                        covered.formUnion(indices)
                        found = true
                    }
                }
            }
            if !found { return false }
        }
        return entry.words.count - covered.count <= 1 || entry.boost == StapleExercises.Tier.standard.boost
    }

    /// The same word, or one the other's plural ("curl" and "curls", "press" and "presses", not "pres" and
    /// "press").
    static func isSameWord(_ a: [UInt32], _ b: [UInt32]) -> Bool {
        let s = UInt32(UInt8(ascii: "s"))
        let e = UInt32(UInt8(ascii: "e"))
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard long.starts(with: short) else { return false }
        let suffix = long[short.count...]
        // "press" is no plural of "pres": a word ending in "ss" takes "es".
        return suffix.isEmpty || (suffix.elementsEqual([s]) && short.last != s) || suffix.elementsEqual([e, s])
    }
}
