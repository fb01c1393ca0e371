/// Reads a message to the coach into an intent with slots (docs/coach.md, "Understanding a message"): a classifier
/// trained on the phrasing table decides the intent; grammars read the slots. Deterministic: the same table gives the
/// same model, and the same message the same answer.
///
///     let understood = MessageUnderstanding.standard.read("No barbell, just dumbbells. 3 day full body")
///     understood.intent          // .planRoutine
///     understood.slots.equipment // dumbbells (and bodyweight); withoutEquipment: [.barbell]
///     understood.planRequest     // what RoutinePlanner needs
public struct MessageUnderstanding: Sendable {
    private let classifier: IntentClassifier
    private let corrector: TypoCorrector

    /// A model trained on the rows given (all of them: pass the `train` part to evaluate on the rest).
    public init(training rows: [Phrasing]) {
        let corrector = TypoCorrector(vocabulary: Self.vocabulary(training: rows))
        self.corrector = corrector
        classifier = IntentClassifier(
            examples: rows.map { row in
                (Self.features(of: MessageText(row.text, corrector: corrector).droppingCalledOff(), message: row.text).features, row.intent)
            })
    }

    /// The model of the bundled table's `train` rows, built once. Should the table be missing or broken (the tests
    /// show it is neither) the model knows no intents and answers `unknown`, slots still read.
    public static let standard: MessageUnderstanding = {
        guard let rows = try? Phrasing.bundled() else { return MessageUnderstanding(untrained: ()) }
        return MessageUnderstanding(training: rows.filter { $0.part == .train })
    }()

    private init(untrained: Void) {
        corrector = TypoCorrector(vocabulary: Self.lexiconWords)
        classifier = IntentClassifier(examples: [])
    }

    /// The standard model's reading of a message (`standard.read(_:)`).
    public static func read(_ message: String) -> Understood {
        standard.read(message)
    }

    /// The message's intent, how sure the classifier is, and its slots. Never traps; any text gets an intent.
    public func read(_ message: String) -> Understood {
        let text = MessageText(message, corrector: corrector).droppingCalledOff()
        let (features, slots) = Self.features(of: text, message: message)
        guard !text.tokens.isEmpty else { return Understood(intent: .unknown, confidence: 1, slots: slots) }
        if Self.isSetCommand(message) { return Understood(intent: .workoutCommand, confidence: 1, slots: slots) }
        guard !classifier.isUntrained else { return Understood(intent: .unknown, confidence: 1, slots: slots) }
        let (intent, probability) = classifier.classify(features)
        return Understood(intent: intent, confidence: probability, slots: slots)
    }

    /// Whether the whole message is a set command (`SetCommandParser`: "8 @ 100", "done", "next set"), which the grammar
    /// reads exactly; "finished" there means the set, but alone it ends the workout, so the classifier decides it.
    static func isSetCommand(_ message: String) -> Bool {
        guard SetCommandParser.parse(message) != nil else { return false }
        let words = SetCommandParser.tokenize(message).filter { $0.first?.isLetter ?? false }
        return !words.contains("finished")
    }

    /// The slots of a message and its features for the classifier.
    static func features(of text: MessageText, message: String) -> (features: [String], slots: MessageSlots) {
        let (slots, roles) = SlotReader.read(text)
        let isSetCommand = SetCommandParser.parse(message) != nil
        return (IntentFeatures.of(text: text, slots: slots, roles: roles, isSetCommand: isSetCommand), slots)
    }

    /// The words the typo corrector corrects to: the reader's word lists first, then every word of two or more training
    /// rows (a word in one row alone may be its typo), most frequent first.
    static func vocabulary(training rows: [Phrasing]) -> [String] {
        var rowsWith: [String: Int] = [:]
        for row in rows {
            for word in Set(MessageText(row.text).tokens) { rowsWith[word, default: 0] += 1 }
        }
        let frequent = rowsWith.filter { $0.value >= 2 }.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
        return lexiconWords + frequent
    }

    /// Every word of the reader's phrase tables and cue classes.
    static let lexiconWords: [String] = {
        let tables: [[String]] = [
            ExerciseLexicon.modifiers.words, ExerciseLexicon.movements.words, BodyLexicon.muscles.words, BodyLexicon.areas.words,
            BodyLexicon.selfHurting.words, Array(BodyLexicon.hurtWords).sorted(), SlotReader.programs.words, SlotReader.splits.words,
            SlotReader.focusWords.words, SlotReader.equipmentWords.words, SlotReader.timePhrases.words, SlotReader.goalPhrases.words,
            SlotReader.experiencePhrases.words, SlotReader.editWords.words, SlotReader.weekdays.flatMap { $0 },
            ["day", "days", "week", "weeks", "minutes", "minute", "hour", "hours", "times", "routine", "program", "workout", "session"],
            IntentCues.classes.flatMap(\.words), CommonWords.list,
        ]
        return tables.flatMap { $0 }
    }()
}
