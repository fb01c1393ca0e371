/// Exercises: modifiers followed by a movement (`ExerciseLexicon`), written with the modifiers' and movement's names:
/// "incline db press" is "incline dumbbell press", "rdls" "romanian deadlift", "squats" "squat". A "machine" right
/// after an exercise belongs to it ("leg press machine" is "leg press"). "a bench" and "no bench" are equipment, and
/// "good morning" alone a greeting.
extension SlotReader {
    mutating func readExercises() {
        var index = 0
        while index < tokens.count {
            guard let (range, name) = exercise(at: index) else {
                index += 1
                continue
            }
            var taken = range
            if isFree(range.upperBound), token(range.upperBound) == "machine" || token(range.upperBound) == "machines" {
                taken = range.lowerBound..<(range.upperBound + 1)
            }
            take(taken, as: .exercise)
            exerciseSpans.append((taken, name))
            if !slots.exercises.contains(name) { slots.exercises.append(name) }
            index = taken.upperBound
        }
    }

    /// The exercise starting at `index`: its words and name.
    func exercise(at index: Int) -> (range: Range<Int>, name: String)? {
        var names: [String] = []
        var cursor = index
        let inClause = { (at: Int) in isFree(at) && sameClause(at, index) }
        while let (count, name) = ExerciseLexicon.modifiers.match(tokens, at: cursor, usable: inClause) {
            // "lower back deadlifting": the back is hurt, not squatted.
            if name == "back", ["lower", "upper", "low"].contains(token(cursor - 1)) { return nil }
            // A modifier that also starts a movement ("trap bar", "leg press") is read as the movement when one
            // follows no further.
            if let movement = movement(at: cursor, afterModifiers: !names.isEmpty, clause: index), movement.count >= count,
                ExerciseLexicon.modifiers.match(tokens, at: cursor + count, usable: inClause) == nil,
                ExerciseLexicon.movements.match(tokens, at: cursor + count, usable: inClause) == nil
            {
                return (index..<(cursor + movement.count), (names + [movement.name]).joined(separator: " "))
            }
            names.append(name)
            cursor += count
        }
        if let movement = movement(at: cursor, afterModifiers: !names.isEmpty, clause: index) {
            // "hurt my shoulder benching": a verb takes no body part before it; the movement alone is the exercise.
            if token(cursor).hasSuffix("ing"), names.contains(where: ExerciseLexicon.bodyModifiers.contains) { return nil }
            return (index..<(cursor + movement.count), (names + [movement.name]).joined(separator: " "))
        }
        return nil
    }

    /// The movement starting at `cursor` in the clause of the word `clause`, if it may stand there.
    func movement(at cursor: Int, afterModifiers: Bool, clause: Int) -> (count: Int, name: String, needsModifier: Bool)? {
        let usable = { (at: Int) in isFree(at) && sameClause(at, clause) }
        guard let (count, movement) = ExerciseLexicon.movements.match(tokens, at: cursor, usable: usable) else { return nil }
        if movement.needsModifier && !afterModifiers {
            let isLiftGreeting = movement.name == "good morning" && ExerciseLexicon.liftDeterminers.contains(token(cursor - 1))
            guard isLiftGreeting else { return nil }
        }
        if movement.name == "bench", !afterModifiers, ExerciseLexicon.benchAsEquipment.contains(token(cursor - 1)),
            !ExerciseLexicon.liftWordsAfter.contains(token(cursor + count))
        {
            return nil
        }
        return (count, movement.name, movement.needsModifier)
    }
}
