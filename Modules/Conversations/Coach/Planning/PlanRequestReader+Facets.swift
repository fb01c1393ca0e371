import Platform

/// The facets of a planning request, each read on its own from the text: days a week, split, equipment, goal,
/// session length and body areas to spare. The grammar they follow is on `PlanRequestReader` and in
/// `docs/coach-planning.md`.
extension PlanRequestReader {
    /// The words that end a days-a-week phrase ("3 times a week", "3x/wk").
    static let weekWords: Set<String> = ["week", "weeks", "weekly", "wk", "wks"]
    /// Words before "N days" that make it a span of time, not a frequency ("in 3 days", "the last 5 days").
    static let spanWords: Set<String> = ["in", "last", "past", "after", "within", "ago", "every", "next"]
    /// Words after a number that count sessions when a week word follows ("3 sessions a week").
    static let sessionWords: Set<String> = ["x", "times", "time", "sessions", "session", "workouts", "workout", "trainings"]
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Days a week as the text says them; `mentioned` is true when it states a frequency at all (even one
    /// outside 1…7, which leaves `days` nil so the coach asks again).
    static func days(in text: PlanText) -> (days: Int?, mentioned: Bool) {
        let tokens = text.tokens
        for (index, token) in tokens.enumerated() {
            guard let number = Int(token), index + 1 < tokens.count else { continue }
            let next = tokens[index + 1]
            let following = tokens[(index + 2)..<min(tokens.count, index + 5)]
            let perWeek = following.contains(where: weekWords.contains)
            let isDays = (next == "day" || next == "days") && (perWeek || index == 0 || !spanWords.contains(tokens[index - 1]))
            let isSessions = sessionWords.contains(next) && perWeek
            if isDays || isSessions {
                return ((1...7).contains(number) ? number : nil, true)
            }
        }
        let named = weekdays.filter { text.contains($0) || text.contains($0 + "s") }
        if named.count >= 2 { return (named.count, true) }
        return (nil, false)
    }

    /// The split the text names, most specific first (the hybrid before push/pull/legs and upper/lower).
    static func split(in text: PlanText) -> (split: PlanRequest.Split, phrase: String)? {
        for (split, phrases) in splitPhrases {
            if let phrase = phrases.first(where: text.contains) { return (split, phrase) }
        }
        return nil
    }

    static let splitPhrases: [(PlanRequest.Split, [String])] = [
        (.upperLowerPushPullLegs, ["upper lower push pull legs", "upper lower push pull leg", "ulppl", "upper lower ppl", "phul ppl"]),
        (.pushPullLegs, ["ppl", "push pull legs", "push pull leg", "push pull and legs", "push pull and leg"]),
        (.upperLower, ["upper lower", "upper and lower", "upper body lower body", "upper body and lower body"]),
        (.fullBody, ["full body", "fullbody", "total body", "whole body"]),
        (.bodyPart, ["bro split", "body part", "bodypart", "body parts", "bodyparts", "1 muscle group", "muscle group per day"]),
    ]

    /// Places that are gyms but not full ones: the equipment is then whatever the text names.
    static let smallGyms = ["home gym", "garage gym", "basement gym", "apartment gym", "hotel gym"]
    static let fullGymPhrases = [
        "gym", "gyms", "full gym", "commercial gym", "fitness center", "fitness centre", "health club", "all equipment",
        "all the equipment", "any equipment", "full equipment",
    ]
    static let homePhrases = ["home", "house", "apartment", "hotel", "travelling", "traveling", "travel"]
    static let kindPhrases: [(EquipmentSet.Kind, [String])] = [
        (.barbell, ["barbell", "barbells", "squat rack", "power rack", "olympic bar", "bar and plates"]),
        (.dumbbell, ["dumbbell", "dumbbells", "dumbell", "dumbells", "db", "dbs"]),
        (.kettlebells, ["kettlebell", "kettlebells", "kettle bell", "kettle bells", "kb", "kbs"]),
        (.cable, ["cable", "cables", "cable machine", "cable machines", "cable station", "pulley", "pulleys"]),
        (.machine, ["machine", "machines", "smith machine", "leg press"]),
        (.bands, ["band", "bands", "resistance band", "resistance bands"]),
        (
            .bodyOnly,
            [
                "bodyweight", "body weight", "no equipment", "without equipment", "calisthenics", "body only", "nothing",
                "pull up bar", "pullup bar",
            ]
        ),
    ]

    /// The equipment the text names: a full gym, the kinds it names (at home, small gym or not), or bodyweight
    /// alone for "at home" / "hotel" / "travelling" with nothing named. A home gym with nothing named is unknown.
    static func equipment(in text: PlanText) -> EquipmentSet? {
        let outsideSmallGyms = text.removing(smallGyms)
        // "cable machine" is a cable, not a machine.
        let machines = text.removing(["cable machine", "cable machines"])
        var kinds: Set<EquipmentSet.Kind> = []
        for (kind, phrases) in kindPhrases where (kind == .machine ? machines : text).containsAny(phrases) {
            kinds.insert(kind)
        }
        if outsideSmallGyms.containsAny(fullGymPhrases) { return .fullGym }
        if !kinds.isEmpty { return EquipmentSet(kinds) }
        if text.containsAny(smallGyms) { return nil }
        if outsideSmallGyms.containsAny(homePhrases) { return .bodyOnly }
        return nil
    }

    static let goalPhrases: [(PlanRequest.Goal, [String])] = [
        (.strength, ["strength", "strong", "stronger", "strongest", "powerlifting", "powerlifter", "1rm", "heavy", "heavier"]),
        (
            .hypertrophy,
            [
                "hypertrophy", "muscle", "muscles", "muscular", "size", "mass", "bodybuilding", "bodybuilder", "bigger", "aesthetic",
                "aesthetics", "bulk", "bulking", "gains", "jacked", "swole",
            ]
        ),
        (.endurance, ["endurance", "stamina", "conditioning", "high reps", "high rep", "muscular endurance"]),
    ]
    static let generalPhrases = [
        "general", "fitness", "health", "healthy", "get fit", "stay fit", "keep fit", "in shape", "lose weight", "weight loss", "fat loss",
        "tone", "toning",
        "longevity",
    ]

    /// The goal the text names first among strength, size and endurance; general fitness only when none of
    /// those is named; nil when no goal is named.
    static func goal(in text: PlanText) -> PlanRequest.Goal? {
        // "muscular endurance" is endurance, not size.
        let specific = goalPhrases.compactMap { goal, phrases in
            text.removing(goal == .endurance ? [] : ["muscular endurance"]).firstOffset(of: phrases).map { (goal, $0) }
        }
        if let first = specific.min(by: { $0.1 < $1.1 }) { return first.0 }
        return text.containsAny(generalPhrases) ? .general : nil
    }

    /// Minutes a session as the text says them: "45 minutes", "45 min", "an hour", "1.5 hours", "half an hour",
    /// "an hour and a half". Nil when none is said or it is outside 10…240.
    static func minutes(in text: PlanText) -> Int? {
        if text.contains("half an hour") || text.contains("half hour") { return 30 }
        let tokens = text.tokens
        for (index, token) in tokens.enumerated() {
            guard index + 1 < tokens.count else { break }
            let unit = tokens[index + 1]
            let amount = Double(token) ?? (["a", "an"].contains(token) ? 1 : nil)
            guard let amount else { continue }
            var minutes: Double?
            if ["min", "mins", "minute", "minutes"].contains(unit) {
                minutes = amount
            } else if ["hour", "hours", "hr", "hrs", "h"].contains(unit) {
                let andAHalf = Array(tokens[(index + 2)...].prefix(3)) == ["and", "a", "half"]
                minutes = amount * 60 + (andAHalf ? 30 : 0)
            }
            if let minutes {
                let whole = Int(saturating: minutes.rounded())
                return (10...240).contains(whole) ? whole : nil
            }
        }
        return nil
    }

    static let avoidPhrases: [(String, [String])] = [
        ("knees", ["knee", "knees"]),
        ("lower back", ["lower back", "bad back", "back pain", "back injury", "back hurts", "sore back", "herniated", "sciatica"]),
        (
            "shoulders",
            [
                "bad shoulder", "bad shoulders", "shoulder pain", "shoulder injury", "shoulder hurts", "shoulders hurt",
                "rotator cuff", "impingement",
            ]
        ),
    ]

    /// The body areas the text asks to spare, in a fixed order.
    static func avoid(in text: PlanText) -> [String] {
        avoidPhrases.filter { text.containsAny($0.1) }.map(\.0)
    }
}
