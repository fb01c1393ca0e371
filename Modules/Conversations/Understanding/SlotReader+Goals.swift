/// The goal and the experience a user states.
///
/// Goal: strength ("strength", "stronger", "powerlifting", "lift heavy"), hypertrophy ("hypertrophy", "build muscle",
/// "for size", "mass", "bodybuilding", "jacked"), endurance ("endurance", "stamina", "conditioning", "high reps",
/// "marathon"), the first of these named; else general ("general fitness", "health", "lose weight", "fat loss",
/// "tone up"). A goal word right after "my" or "your", or after "getting" in a question, is progress, not a goal ("my
/// strength", "am I getting stronger"; "a program for getting stronger" is one); "muscle" alone names none ("what
/// muscles does it work").
///
/// Experience: "beginner", "noob", "new to lifting", "just started" …; "intermediate"; "advanced", "experienced"; or
/// time lifting ("lifting for 5 years"): months are a beginner, 1–2 years intermediate, 3 or more advanced. A word
/// wins over a time.
extension SlotReader {
    static let goalPhrases = PhraseTable<PlanRequest.Goal>(
        [
            ("strength", .strength), ("strong", .strength), ("stronger", .strength), ("strongest", .strength),
            ("powerlifting", .strength), ("powerlifter", .strength), ("lift heavy", .strength), ("lifting heavy", .strength),
            ("go heavy", .strength), ("heavy weights", .strength), ("heavy lifting", .strength), ("lift heavier", .strength),
            ("hypertrophy", .hypertrophy), ("mass", .hypertrophy), ("bodybuilding", .hypertrophy), ("bodybuilder", .hypertrophy),
            ("bigger", .hypertrophy), ("aesthetic", .hypertrophy), ("aesthetics", .hypertrophy), ("jacked", .hypertrophy),
            ("swole", .hypertrophy), ("size", .hypertrophy), ("muscle gain", .hypertrophy),
            ("gain muscle", .hypertrophy), ("build muscle", .hypertrophy), ("building muscle", .hypertrophy),
            ("put on muscle", .hypertrophy), ("more muscle", .hypertrophy), ("for muscle", .hypertrophy), ("grow muscle", .hypertrophy),
            ("muscle building", .hypertrophy), ("add muscle", .hypertrophy), ("endurance", .endurance), ("stamina", .endurance),
            ("conditioning", .endurance), ("high reps", .endurance), ("high rep", .endurance), ("marathon", .endurance),
            ("muscular endurance", .endurance), ("general fitness", .general), ("for fitness", .general), ("overall fitness", .general),
            ("health", .general),
            ("healthy", .general), ("get fit", .general), ("getting fit", .general), ("getting in shape", .general), ("stay fit", .general),
            ("keep fit", .general), ("in shape", .general),
            ("lose weight", .general), ("weight loss", .general), ("fat loss", .general), ("lose fat", .general), ("tone", .general),
            ("toning", .general), ("tone up", .general), ("longevity", .general),
        ])
    static let progressOwners: Set<String> = ["my", "your", "what", "which", "the"]
    static let progressVerbs: Set<String> = ["getting", "gotten", "got", "become", "becoming"]
    static let progressOpenings: Set<String> = ["am", "are", "is", "have", "has", "did", "was", "were", "how", "why", "im"]

    mutating func readGoal() {
        var specific: PlanRequest.Goal?
        var general = false
        let asksProgress = Self.progressOpenings.contains(token(0))
        for (range, goal) in free(Self.goalPhrases) {
            let before = token(range.lowerBound - 1)
            // "my overall fitness" is a goal; "my strength" is progress.
            let owned = Self.progressOwners.contains(before) && goal != .general
            guard !owned, !(asksProgress && Self.progressVerbs.contains(before)) else { continue }
            take(range, as: .goal)
            if goal == .general {
                general = true
            } else if specific == nil {
                specific = goal
            }
        }
        slots.goal = specific ?? (general ? .general : nil)
    }

    static let experiencePhrases = PhraseTable<Experience>(
        [
            ("beginner", .beginner), ("beginners", .beginner), ("newbie", .beginner), ("noob", .beginner), ("novice", .beginner),
            ("new to lifting", .beginner), ("new to the gym", .beginner), ("new to working out", .beginner),
            ("new to training", .beginner), ("new to weights", .beginner), ("new to weightlifting", .beginner),
            ("just started", .beginner), ("just starting", .beginner), ("never lifted", .beginner), ("first time", .beginner),
            ("starting out", .beginner), ("start lifting", .beginner), ("new to this", .beginner), ("start working out", .beginner),
            ("started working out", .beginner), ("new at this", .beginner), ("started lifting", .beginner), ("begin lifting", .beginner),
            ("intermediate", .intermediate), ("advanced", .advanced), ("experienced", .advanced),
            ("veteran", .advanced),
        ])
    static let liftingWords: Set<String> = ["lifting", "training", "lifted", "trained", "experience", "gym", "working"]

    mutating func readExperience() {
        // "I'm not a beginner, I'm advanced": a denied level is not the user's.
        if let (range, experience) = free(Self.experiencePhrases).first(where: {
            token($0.range.lowerBound - 1) != "not" && token($0.range.lowerBound - 2) != "not"
        }) {
            take(range, as: .experience)
            slots.experience = experience
            return
        }
        for index in tokens.indices where isFree(index) {
            guard let count = Double(tokens[index]), count.isFinite else { continue }
            let unit = token(index + 1)
            guard ["year", "years", "yr", "yrs", "month", "months"].contains(unit) else { continue }
            let context = ((index - 4)..<(index + 5)).contains { Self.liftingWords.contains(token($0)) }
            guard context else { continue }
            take(index..<(index + 2), as: .experience)
            slots.experience = unit.hasPrefix("m") || count < 1 ? .beginner : count < 3 ? .intermediate : .advanced
            return
        }
    }
}
