/// The clarifying questions the coach asks before it can plan: the days a week (unless a split implies them) and
/// the equipment. Each option, sent back as the user's answer, reads as that answer (`MessageUnderstanding`).
public enum PlanQuestions {
    /// A clarifying question (a `clarify_questions` artifact's entry): a stable id, the sentence shown, and the
    /// answers offered as buttons.
    public struct Question: Sendable, Equatable {
        /// "days" or "equipment": the request field the answer fills.
        public let id: String
        public let text: String
        public let options: [String]

        public init(id: String, text: String, options: [String]) {
            self.id = id
            self.text = text
            self.options = options
        }
    }

    /// How many days a week the user trains, when neither they nor their split said.
    public static let daysQuestion = Question(
        id: "days", text: "How many days a week can you train?",
        options: ["2 days a week", "3 days a week", "4 days a week", "5 days a week", "6 days a week"])

    /// What the user trains with, when they did not say.
    public static let equipmentQuestion = Question(
        id: "equipment", text: "What equipment do you have?",
        options: ["Full gym", "Dumbbells only", "Barbell and dumbbells", "Kettlebells", "Resistance bands", "No equipment"])

    /// The questions to ask before planning, days first: none when `RoutinePlanner` can plan the request as it is.
    public static func missing(_ request: PlanRequest) -> [Question] {
        var questions: [Question] = []
        if request.plannedDays == nil { questions.append(daysQuestion) }
        if request.equipment == nil { questions.append(equipmentQuestion) }
        return questions
    }
}
