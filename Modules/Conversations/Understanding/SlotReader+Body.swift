/// Body areas to spare and muscle groups. An area counts when a word saying it hurts or should be spared is within six
/// words of it in its clause ("I hurt my shoulder", "bad knees", "easy on my lower back", "avoid knees"), or when the
/// phrase says so itself ("sciatica", "tennis elbow", "rotator cuff"); otherwise a shoulder or a lower back is a muscle
/// group ("shoulder workout").
extension SlotReader {
    mutating func readAreas() {
        for (range, area) in free(BodyLexicon.selfHurting) {
            take(range, as: .area)
            if !slots.spare.contains(area) { slots.spare.append(area) }
        }
        for (range, area) in free(BodyLexicon.areas) where hurtNearby(range) {
            take(range, as: .area)
            if !slots.spare.contains(area) { slots.spare.append(area) }
        }
    }

    /// Whether a word saying an area hurts is within six words of the range, in its clause.
    func hurtNearby(_ range: Range<Int>) -> Bool {
        let window = (range.lowerBound - 6)..<(range.upperBound + 6)
        return window.contains { at in
            !range.contains(at) && sameClause(at, range.lowerBound) && BodyLexicon.hurtWords.contains(token(at))
        }
    }

    mutating func readMuscles() {
        for (range, muscle) in free(BodyLexicon.muscles) {
            take(range, as: .muscle)
            if !slots.muscles.contains(muscle) { slots.muscles.append(muscle) }
        }
    }
}
