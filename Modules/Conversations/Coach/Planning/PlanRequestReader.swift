/// Reads a planning request ("build me a 4-day upper/lower with dumbbells") out of a chat message, with no
/// model: a few word lists and rules, so the rule-based coach plans offline and the same words always give
/// the same request.
///
/// The grammar (case and punctuation aside; number words count as digits: "four days" is "4 days"):
/// - **Days a week**: `N day(s)` ("4-day", "6 days"; not after "in", "last", "past", "every" …, unless a week word
///   follows), `N x|times|sessions|workouts (a|per|each) week` ("3x a week", "twice a week", "3x/wk"), or two or more
///   weekday names ("monday, wednesday and friday" is 3). Only 1…7 is kept.
/// - **Split**: "ppl" / "push pull legs", "upper/lower" / "upper and lower", "full body" / "total body",
///   "bro split" / "body part", "upper lower push pull legs" / "ulppl".
/// - **Equipment**: "gym" / "full gym" (not "home gym") is a full gym; "barbell", "squat rack", "dumbbells", "db",
///   "kettlebells", "kb", "cables", "machines", "smith machine", "bands", "bodyweight", "no equipment", "calisthenics"
///   name kinds (bodyweight always included); "at home", "hotel", "travelling" with nothing named is bodyweight only;
///   a home gym with nothing named is left unknown, as is a message naming none of these.
/// - **Goal**: strength ("strength", "stronger", "powerlifting", "heavy"), hypertrophy ("muscle", "size",
///   "bodybuilding", "mass", "hypertrophy"), endurance ("endurance", "stamina", "conditioning", "high reps"); the first
///   named wins; else general ("fitness", "health", "get fit", "lose weight", "toning"); else hypertrophy.
/// - **Session length**: "45 minutes", "45 min", "an hour", "1.5 hours", "half an hour", "an hour and a half" (10…240).
/// - **Avoid**: "knee(s)" → "knees"; "lower back", "bad back", "back pain" → "lower back"; "bad shoulder",
///   "shoulder pain", "rotator cuff" → "shoulders".
///
/// A message is a planning request when it
/// 1. names a split ("push pull legs"), or
/// 2. names a routine ("routine", "program", "programme", "split", "schedule", "regimen", "training plan", "a plan")
///    with a verb asking for one ("build", "make", "create", "give", "need", "want", "plan", …) or with any facet
///    ("3 day split for strength"), or
/// 3. asks for one ("make", "give", "plan", …) and says the days a week ("give me 3 days a week"), or
/// 4. states two facets ("I have 45 minutes and a barbell", "5 days a week bodybuilding"), unless it starts with a
///    question about the past or the present ("how", "why", "did", "was", "when").
///
/// A split or routine the user already has ("my routine", "my current split", "this program") counts only with a
/// verb asking for one ("make my routine harder" is a request; "how is my routine going?" is not). Anything else is
/// not a planning request: "how is my bench going?", "8 @ 100", "hello".
public enum PlanRequestReader {
    /// The planning request in the text, or nil when the text is not one.
    public static func read(_ text: String) -> PlanRequest? {
        let text = PlanText(text)
        let facets = Facets(text)
        let asks = text.tokens.contains(where: askingWords.contains)
        let split = self.split(in: text)
        let nouns = (routineNouns.filter(text.contains) + (split.map { [$0.phrase] } ?? []))
        let allOwned = !nouns.isEmpty && nouns.allSatisfy { isOwned($0, in: text) }
        let isRequest: Bool
        if allOwned && !asks {
            isRequest = false
        } else if split != nil {
            isRequest = true
        } else if !nouns.isEmpty {
            isRequest = asks || facets.count >= 1
        } else if asks && facets.daysMentioned {
            isRequest = true
        } else {
            isRequest = facets.count >= 2 && !questionWords.contains(text.tokens.first ?? "")
        }
        guard isRequest else { return nil }
        return PlanRequest(
            days: facets.days, split: split?.split, equipment: facets.equipment, goal: facets.goal ?? .hypertrophy,
            minutes: facets.minutes, avoid: facets.avoid)
    }

    /// The request with what the text adds to it: the user's answer to a clarifying question ("4", "four days",
    /// "dumbbells only") or a change of mind ("actually make it 5 days"). A facet the text names replaces the
    /// request's; a bare number 1…7 answers the days when they are still unknown. The text need not be a planning
    /// request on its own.
    public static func answer(_ text: String, to request: PlanRequest) -> PlanRequest {
        let text = PlanText(text)
        let facets = Facets(text)
        var answered = request
        if let days = facets.days {
            answered.days = days
        } else if request.days == nil, text.tokens.count == 1, let number = Int(text.tokens[0]), (1...7).contains(number) {
            answered.days = number
        }
        if let split = split(in: text)?.split { answered.split = split }
        if let equipment = facets.equipment { answered.equipment = equipment }
        if let goal = facets.goal { answered.goal = goal }
        if let minutes = facets.minutes { answered.minutes = minutes }
        answered.avoid += facets.avoid.filter { !answered.avoid.contains($0) }
        return answered
    }

    /// Words that ask for a plan.
    static let askingWords: Set<String> = [
        "build", "make", "create", "design", "write", "give", "need", "want", "suggest", "recommend", "generate", "new", "plan",
        "setup", "set", "put", "draft", "craft", "program", "help", "looking", "start", "get",
    ]
    /// Words naming a routine.
    static let routineNouns = [
        "routine", "routines", "program", "programme", "programs", "split", "schedule", "regimen", "training plan", "workout plan",
        "gym plan", "lifting plan", "weekly plan", "a plan", "new plan",
    ]
    /// Words that make a routine one the user already has.
    static let owningWords: Set<String> = ["my", "current", "this", "existing", "old", "our"]
    /// First words of a question about what is or was, not a request.
    static let questionWords: Set<String> = ["how", "why", "did", "was", "were", "when"]

    /// Whether the phrase is owned: one of the three words before it is "my", "current", "this" ….
    static func isOwned(_ phrase: String, in text: PlanText) -> Bool {
        guard let index = text.tokenIndex(of: phrase) else { return false }
        return text.tokens[max(0, index - 3)..<index].contains(where: owningWords.contains)
    }

    /// Every facet of one text, read once.
    struct Facets {
        let days: Int?
        let daysMentioned: Bool
        let equipment: EquipmentSet?
        let goal: PlanRequest.Goal?
        let minutes: Int?
        let avoid: [String]

        init(_ text: PlanText) {
            (days, daysMentioned) = PlanRequestReader.days(in: text)
            equipment = PlanRequestReader.equipment(in: text)
            goal = PlanRequestReader.goal(in: text)
            minutes = PlanRequestReader.minutes(in: text)
            avoid = PlanRequestReader.avoid(in: text)
        }

        /// How many of days, equipment, goal and session length the text states.
        var count: Int {
            [daysMentioned, equipment != nil, goal != nil, minutes != nil].filter { $0 }.count
        }
    }
}
