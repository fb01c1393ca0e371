/// What a word of a message was read as: the slot grammar that took it. The classifier sees these roles
/// (`IntentFeatures`), so "how is my bench going" and "how is my deadlift going" look alike to it.
enum TokenRole: String, Sendable {
    case exercise, muscle, area, equipment, negatedEquipment, split, program, focus, time, minutes, days, goal, experience
    /// Words a grammar took so that no other reads them ("in a row", "chest pain").
    case ignored
}

/// Reads the slots of a message (docs/coach.md, "Understanding a message"). Each grammar takes the words it reads,
/// in an order that lets the more specific phrase win: programs before splits ("power hypertrophy upper lower"),
/// exercises before muscles and equipment ("leg press", "incline dumbbell press", "back squat"), areas to spare
/// before muscles ("bad shoulder"), session kinds before muscles ("leg day").
struct SlotReader {
    let tokens: [String]
    let clauses: [Int]
    var roles: [TokenRole?]
    var slots = MessageSlots()
    /// The exercises found, with the words each spans.
    var exerciseSpans: [(range: Range<Int>, name: String)] = []

    init(_ text: MessageText) {
        tokens = text.tokens
        clauses = text.clauses
        roles = Array(repeating: nil, count: text.tokens.count)
    }

    /// The slots of a message and the role of each of its words.
    static func read(_ text: MessageText) -> (slots: MessageSlots, roles: [TokenRole?]) {
        var reader = SlotReader(text)
        reader.readIgnored()
        reader.readPrograms()
        reader.readEquipmentNames()
        reader.readExercises()
        reader.readSplit()
        reader.readTime()
        reader.readMinutes()
        reader.readDays()
        reader.readAreas()
        reader.readFocus()
        reader.readMuscles()
        reader.readEquipment()
        reader.readGoal()
        reader.readExperience()
        reader.readSwap()
        reader.readEdit()
        return (reader.slots, reader.roles)
    }

    /// Whether no grammar has taken the word yet.
    func isFree(_ index: Int) -> Bool {
        index >= 0 && index < roles.count && roles[index] == nil
    }

    /// The word at `index`, or "" past either end.
    func token(_ index: Int) -> String {
        index >= 0 && index < tokens.count ? tokens[index] : ""
    }

    /// Whether two words are in the same clause.
    func sameClause(_ a: Int, _ b: Int) -> Bool {
        a >= 0 && b >= 0 && a < clauses.count && b < clauses.count && clauses[a] == clauses[b]
    }

    mutating func take(_ range: Range<Int>, as role: TokenRole) {
        for index in range where index < roles.count { roles[index] = role }
    }

    /// Every phrase of the table on words still free, left to right.
    func free<Value>(_ table: PhraseTable<Value>) -> [(range: Range<Int>, value: Value)] {
        table.matches(in: tokens, usable: isFree)
    }

    /// Words that would be misread: "in a row" (no exercise), "chest pain" (no muscle).
    static let ignoredPhrases = PhraseTable(
        [
            "in a row", "chest pain", "chest pains", "chest pain and", "back to back", "come back", "get back", "go back", "cut back",
            "back into", "im back", "i am back", "back again",
        ],
        value: ())

    mutating func readIgnored() {
        for (range, _) in free(Self.ignoredPhrases) {
            take(range, as: .ignored)
        }
    }
}
