/// Word classes that tell intents apart, for the classifier: the table teaches how much each class weighs for each
/// intent, the classes let it see "swap" in "substitute" and "thanks" in "cheers" without a row for every word.
enum IntentCues {
    static let classes: [(name: String, words: [String])] = [
        (
            "SWAP",
            [
                "swap", "replace", "substitute", "sub", "switch", "exchange", "trade", "instead", "alternative", "alternatives", "besides",
                "else", "replacement", "swapping", "replacing", "substitution",
            ]
        ),
        (
            "MAKE",
            [
                "build", "make", "create", "design", "write", "give", "setup", "draft", "generate", "suggest", "recommend", "need",
                "want", "get", "craft", "prescribe", "program",
            ]
        ),
        ("ROUTINE", ["routine", "routines", "programs", "programme", "split", "plan", "schedule", "regimen", "week", "weekly"]),
        ("SESSION", ["workout", "workouts", "session", "sessions", "day"]),
        (
            "CHANGE",
            [
                "change", "changing", "adjust", "modify", "edit", "update", "tweak", "redo", "turn", "bump", "alter", "current",
                "instead",
            ]
        ),
        (
            "PROGRESS",
            [
                "progress", "progressing", "going", "doing", "improved", "improving", "numbers", "pr", "prs", "1rm", "e1rm",
                "best", "stalled", "stuck", "track", "chart", "graph", "coming", "growing", "volume", "heavy", "much", "trend",
                "looking", "max",
            ]
        ),
        (
            "IMPROVE",
            [
                "increase", "improve", "fix", "boost", "raise", "grow", "break", "better", "stop", "avoid", "prevent",
                "beat", "add",
            ]
        ),
        (
            "TOPIC",
            [
                "plateau", "plateauing", "plateaued", "tempo", "superset", "supersets", "deload", "deloads", "overtraining",
                "overtrained", "form", "technique", "failure", "rir", "rpe", "progressive", "overload", "warmup", "warm",
                "stretch", "stretching", "recovery", "results", "growth", "range", "motion", "frequency", "intensity",
                "soreness", "sore", "rest", "compound", "isolation", "dropset", "drop", "cardio", "beginner", "natural",
                "hypertrophy", "spotter", "belt", "straps", "breathe", "breathing", "grip", "parallel", "depth",
            ]
        ),
        (
            "OVERALL",
            [
                "summary", "summarize", "overview", "stats", "analysis", "insights", "report", "overall", "everything",
                "consistent", "review", "training", "lifting", "workouts",
            ]
        ),
        ("NEXT", ["next", "first", "up", "on"]),
        (
            "HISTORY",
            [
                "did", "was", "were", "been", "gotten", "hit", "lifted", "trained", "improved", "added", "ever", "so", "far",
                "since", "now", "last", "done", "current", "currently", "benched", "squatted", "deadlifted",
            ]
        ),
        (
            "ADVICE",
            [
                "should", "shouldnt", "best", "better", "worse", "ideal", "good", "bad", "ok", "okay", "enough", "normal",
                "worth", "recommended", "need", "important", "often", "long", "many", "difference", "explain", "mean", "means",
                "optimal", "proper", "properly", "correct", "too", "way",
            ]
        ),
        ("WH", ["what", "whats", "how", "hows", "why", "which", "when", "where", "whether"]),
        (
            "AUX",
            [
                "is", "are", "does", "do", "can", "could", "would", "will", "am", "was", "were", "did", "have", "has", "isnt",
                "arent", "shall", "cant",
            ]
        ),
        ("HURT", Array(BodyLexicon.hurtWords)),
        (
            "FOOD",
            [
                "protein", "eat", "eating", "ate", "diet", "dieting", "calories", "calorie", "kcal", "meal", "meals", "macros", "macro",
                "supplements", "supplement", "creatine", "keto", "carbs", "carb", "carbohydrates", "water", "hydration", "fasting",
                "fasted", "breakfast", "lunch", "dinner", "snack", "snacks", "recipe", "recipes", "powder", "shake", "shakes", "whey",
                "bulk", "bulking", "cutting", "nutrition", "food", "foods", "drink", "drinking", "vegan", "vegetarian", "sugar",
                "fat", "belly", "coffee", "caffeine", "alcohol", "beer", "wine", "vitamins", "vitamin", "magnesium", "zinc",
                "omega", "bcaa", "bcaas", "preworkout", "pre", "burners", "burner", "banana", "rice", "chicken", "eggs", "meat",
                "fruit", "vegetables", "bread", "pasta", "pizza", "grams", "intake", "hungry", "appetite", "cheat", "juice", "peanut",
                "butter", "electrolyte", "electrolytes", "healthiest", "red", "fiber", "salt",
            ]
        ),
        (
            "MEDICAL",
            [
                "doctor", "doctors", "medication", "medicine", "meds", "diagnose", "diagnosis", "prescribe", "prescription",
                "painkillers", "ibuprofen", "advil", "tylenol", "paracetamol", "physio", "physiotherapist", "therapist",
                "steroids", "trt", "pills", "cancer", "disease", "blood", "pressure", "breath", "appointment", "hernia",
                "infection", "fever", "cold", "flu", "sick", "ill", "illness", "stomach", "bug", "virus", "covid", "heart",
                "racing", "dangerous", "symptoms", "dizzy", "nausea", "mole", "rash", "pregnant", "pregnancy", "diabetes",
                "asthma", "cure", "treatment", "hospital", "mri", "scan", "wrong", "safe", "aid", "hangover", "headache",
                "throat", "side", "effects", "tight", "pill",
            ]
        ),
        (
            "OFFTOPIC",
            [
                "weather", "joke", "jokes", "poem", "capital", "taxes", "tax", "bitcoin", "crypto", "stock", "stocks", "game",
                "score", "movie", "movies", "film", "song", "songs", "music", "news", "politics", "president", "won", "france",
                "spanish", "translate", "story", "email", "letter", "restaurant", "restaurants", "meaning", "homework", "code",
                "favourite", "favorite", "book", "money", "invest", "investing", "buy", "shoe", "shoes", "clothes", "posture",
                "desk", "podcast", "job", "rain", "math", "plus", "times", "fact", "funny",
            ]
        ),
        ("FINISH", ["finished", "finish", "done", "end", "complete", "wrap", "save"]),
        (
            "GREET",
            [
                "hi", "hello", "hey", "heya", "hiya", "heyy", "heyyy", "hii", "hiii", "helloo", "hellooo", "yo", "sup", "wassup",
                "whatsup", "howdy", "morning", "evening", "afternoon", "greetings", "hola", "who", "gday", "hai",
            ]
        ),
        (
            "THANK",
            [
                "thanks", "thank", "thx", "ty", "cheers", "appreciate", "appreciated", "thankyou", "tnx", "ta", "helps", "thanx",
                "tysm", "grateful", "helpful", "legend",
            ]
        ),
        (
            "YES",
            [
                "yes", "yeah", "yep", "yup", "yea", "ya", "sure", "ok", "okay", "k", "kk", "absolutely", "definitely", "alright",
                "y", "ahead", "works", "sounds", "go", "do", "it", "accept", "agreed", "agree", "perfect", "great", "fine", "please",
                "deal", "affirmative", "course", "certainly",
            ]
        ),
        ("NO", ["no", "nope", "nah", "not", "dont", "rather", "leave", "pass", "decline", "negative", "keep", "think"]),
        (
            "CANCEL",
            [
                "nevermind", "nvm", "forget", "cancel", "stop", "scrap", "scratch", "ignore", "over", "mind", "actually", "abort",
                "drop", "undo", "quit", "changed",
            ]
        ),
        (
            "HELP",
            [
                "help", "commands", "command", "options", "lost", "app", "features", "feature", "talk", "examples", "example",
                "instructions", "capable", "chat", "bot", "buttons", "button", "tap", "screen", "save", "delete", "edit", "accept",
            ]
        ),
        ("YOU", ["you", "your", "yourself", "coach", "u"]),
        (
            "REMEMBER",
            [
                "remember", "note", "fyi", "know", "mind", "usually", "prefer", "only", "just", "have", "got", "hate", "like",
                "am", "im", "been", "cant", "access",
            ]
        ),
        (
            "LOG",
            [
                "log", "logged", "did", "got", "reps", "rep", "kg", "kgs", "lbs", "lb", "x", "rir", "rpe", "set", "sets", "felt",
                "same", "skip",
            ]
        ),
    ]

    /// Classes that together say a message is off the coach's ground (food, medicine, the rest of the world): they also
    /// count as one, "OUTSIDE", so each teaches the others.
    static let outside: Set<String> = ["FOOD", "MEDICAL", "OFFTOPIC"]

    /// Each word's classes, in the order above ("OUTSIDE" last).
    static let classesByWord: [String: [String]] = {
        var byWord: [String: [String]] = [:]
        for (name, words) in classes {
            for word in words where byWord[word]?.contains(name) != true { byWord[word, default: []].append(name) }
        }
        return byWord.mapValues { names in names.contains(where: outside.contains) ? names + ["OUTSIDE"] : names }
    }()
}
