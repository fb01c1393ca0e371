import Testing

@testable import Conversations

/// What users type when they ask the coach for a routine, and the request the rule-based coach reads from it
/// (`MessageUnderstanding`, the request its slots make); what they type when they do not, and the coach must not start
/// planning; the questions it asks for what is missing.
@Suite struct PlanningRequestTests {
    static func request(_ text: String) -> PlanRequest { RuleBasedCoach.request(of: MessageUnderstanding.read(text)) }

    static let requests: [(text: String, expected: PlanRequest)] = [
        ("build me a 4-day upper/lower with dumbbells", PlanRequest(days: 4, split: .upperLower, equipment: EquipmentSet([.dumbbell]))),
        ("PPL 6 days", PlanRequest(days: 6, split: .pushPullLegs)),
        ("push pull legs", PlanRequest(split: .pushPullLegs)),
        ("full body 3x a week at home", PlanRequest(days: 3, split: .fullBody, equipment: .bodyOnly)),
        ("I have 45 minutes and a barbell", PlanRequest(equipment: EquipmentSet([.barbell]), minutes: 45)),
        ("make me a routine", PlanRequest()),
        ("3 day split for strength", PlanRequest(days: 3, goal: .strength)),
        ("5 days a week bodybuilding", PlanRequest(days: 5, goal: .hypertrophy)),
        ("four days a week, upper lower, at the gym", PlanRequest(days: 4, split: .upperLower, equipment: .fullGym)),
        ("Give me a six-day push/pull/legs program for size", PlanRequest(days: 6, split: .pushPullLegs, goal: .hypertrophy)),
        (
            "twice a week full body with kettlebells and bands",
            PlanRequest(days: 2, split: .fullBody, equipment: EquipmentSet([.kettlebells, .bands]))
        ),
        (
            "Routine for mass: Monday, Wednesday and Friday, home gym with a barbell and dumbbells",
            PlanRequest(days: 3, equipment: EquipmentSet([.barbell, .dumbbell]), goal: .hypertrophy)
        ),
        ("I need a training plan, an hour a session, bad knees", PlanRequest(minutes: 60, avoid: ["knees"])),
        ("bro split at the gym for strength and size", PlanRequest(split: .bodyPart, equipment: .fullGym, goal: .strength)),
        ("upper lower push pull legs, 5 days, gym", PlanRequest(days: 5, split: .upperLowerPushPullLegs, equipment: .fullGym)),
        ("can you write me a program? 3 times per week, 1.5 hours, no equipment", PlanRequest(days: 3, equipment: .bodyOnly, minutes: 90)),
        ("new routine for general fitness please, half an hour", PlanRequest(goal: .general, minutes: 30)),
        (
            "an endurance routine, 4 days, cable machine and dumbbells",
            PlanRequest(days: 4, equipment: EquipmentSet([.cable, .dumbbell]), goal: .endurance)
        ),
        ("Make my routine easier on my lower back", PlanRequest(avoid: ["lower back"])),
    ]

    @Test(arguments: PlanningRequestTests.requests)
    func readsThePlanningRequest(text: String, expected: PlanRequest) {
        #expect(Self.request(text) == expected, "\(text)")
    }

    static let notRequests = [
        "how is my bench going?", "8 @ 100", "hello", "8x100", "done", "next set", "how is my routine going?",
        "what did I do last week?", "swap the bench press for dumbbells", "I did 3 sets of 10 today", "my knee hurts",
        "in 3 days I fly to Lisbon", "thanks!", "how many sets should I do for biceps?", "log 5 reps at 60 kg",
        "was my push pull legs too hard last week?", "",
    ]

    @Test(arguments: PlanningRequestTests.notRequests)
    func leavesOtherMessagesAlone(text: String) {
        #expect(MessageUnderstanding.read(text).intent != .planRoutine, "\(text)")
    }

    @Test func daysOutsideAWeekAreAskedAgain() {
        let request = Self.request("build me a 9 day routine with dumbbells")
        #expect(request == PlanRequest(equipment: EquipmentSet([.dumbbell])))
        #expect(PlanQuestions.missing(request).map(\.id) == ["days"])
    }

    @Test func asksOnlyForWhatIsMissing() {
        #expect(PlanQuestions.missing(PlanRequest()).map(\.id) == ["days", "equipment"])
        #expect(PlanQuestions.missing(PlanRequest(split: .pushPullLegs)).map(\.id) == ["equipment"])
        #expect(PlanQuestions.missing(PlanRequest(days: 4)).map(\.id) == ["equipment"])
        #expect(PlanQuestions.missing(PlanRequest(equipment: .fullGym)).map(\.id) == ["days"])
        #expect(PlanQuestions.missing(PlanRequest(days: 4, equipment: EquipmentSet([.dumbbell]))).isEmpty)
        #expect(PlanQuestions.missing(PlanRequest(split: .fullBody, equipment: .bodyOnly)).isEmpty)
    }

    @Test func everyOfferedAnswerAnswersItsQuestion() throws {
        for question in PlanQuestions.missing(PlanRequest()) {
            #expect(!question.text.isEmpty && question.options.count >= 2)
            for option in question.options {
                let answered = RuleBasedCoach.folding(MessageUnderstanding.read(option).slots, text: option, into: PlanRequest())
                switch question.id {
                case "days": #expect(answered.days != nil, "\(option)")
                case "equipment": #expect(answered.equipment != nil, "\(option)")
                default: Issue.record("unexpected question \(question.id)")
                }
                #expect(
                    PlanQuestions.missing(answered).map(\.id)
                        == PlanQuestions.missing(PlanRequest()).filter { $0.id != question.id }.map(\.id))
            }
        }
    }

    @Test func answersFillTheRequest() {
        let asked = PlanRequest(split: .upperLower, goal: .strength)
        func answer(_ text: String, to request: PlanRequest) -> PlanRequest {
            RuleBasedCoach.folding(MessageUnderstanding.read(text).slots, text: text, into: request)
        }
        #expect(answer("4", to: PlanRequest()).days == 4)
        #expect(answer("four", to: PlanRequest()).days == 4)
        #expect(
            answer("dumbbells only", to: asked) == PlanRequest(split: .upperLower, equipment: EquipmentSet([.dumbbell]), goal: .strength))
        #expect(answer("actually make it 5 days", to: PlanRequest(days: 4)).days == 5)
        #expect(answer("hmm", to: asked) == asked)
    }

    @Test func equipmentAlwaysIncludesTheBody() {
        #expect(EquipmentSet([.dumbbell]) == EquipmentSet([.dumbbell, .bodyOnly]))
        #expect(EquipmentSet([.dumbbell]).allows(catalogEquipment: "body only"))
        #expect(!EquipmentSet([.dumbbell]).allows(catalogEquipment: "barbell"))
        #expect(!EquipmentSet([.dumbbell]).allows(catalogEquipment: "e-z curl bar"))
        #expect(EquipmentSet.fullGym.allows(catalogEquipment: "foam roll"))
        #expect(EquipmentSet([.barbell, .dumbbell, .cable]).label == "barbell, dumbbells and cables")
        #expect(EquipmentSet.bodyOnly.label == "bodyweight")
    }
}
