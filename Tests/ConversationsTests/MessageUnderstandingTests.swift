import Conversations
import TestSupport
import Testing

/// What the coach reads in a message beyond the table's evaluation: the plan request it makes, named programs' real
/// structure, and that no text traps the reader.
@Suite struct MessageUnderstandingTests {
    let model = MessageUnderstanding.standard

    @Test func negatedEquipmentIsNotPlannedWith() {
        let understood = model.read("No barbell, just dumbbells. 3 day full body")
        #expect(understood.slots.equipment == EquipmentSet([.dumbbell]))
        #expect(understood.slots.withoutEquipment == [.barbell])
        #expect(understood.planRequest == PlanRequest(days: 3, split: .fullBody, equipment: EquipmentSet([.dumbbell])))
        #expect(model.read("i dont have a barbell or a rack, only kettlebells").slots.withoutEquipment == [.barbell])
    }

    @Test func aSplitTwiceAWeekCountsItsSessions() {
        #expect(model.read("PPL twice a week").slots.days == 6)
        #expect(model.read("upper lower twice a week").slots.days == 4)
        #expect(model.read("full body twice a week").slots.days == 2)
        #expect(model.read("I train twice a week").slots.days == 2)
        #expect(model.read("hit legs twice a week").slots.days == nil)
    }

    @Test func aNamedProgramPlansAsThatProgram() {
        let understood = model.read("Give me a 5x5 program")
        #expect(understood.slots.program == .stronglifts)
        #expect(understood.slots.days == nil)
        #expect(understood.planRequest == PlanRequest(days: 3, split: .fullBody, goal: .strength))
        #expect(model.read("wendler 531, 3 days a week").planRequest.days == 3)
        for program in NamedProgram.allCases {
            #expect((2...6).contains(program.days) && !program.scheme.isEmpty && !program.title.isEmpty)
        }
    }

    @Test func aSwapKeepsItsNamedTarget() {
        let understood = model.read("Swap bench for incline dumbbell press")
        #expect(understood.slots.swap == SwapTarget(from: "bench", to: "incline dumbbell press"))
        #expect(model.read("sub in chin ups for pulldowns").slots.swap == SwapTarget(from: "pulldown", to: "chin up"))
        #expect(model.read("swap squats for something easier on my knees").slots.swap == SwapTarget(from: "squat", to: nil))
    }

    @Test func muscleGroupsMapToTheCatalogsMuscles() {
        #expect(model.read("how's my chest doing?").slots.muscles == [.chest])
        #expect(model.read("more glute and hammy work").slots.muscles == [.glutes, .hamstrings])
        #expect(MuscleGroup.back.catalogMuscles.contains("lats"))
        #expect(MuscleGroup.legs.catalogMuscles.contains("quadriceps"))
        #expect(MuscleGroup.allCases.allSatisfy { !$0.catalogMuscles.isEmpty })
        // A sore shoulder is an area to spare, not a muscle to train.
        let hurt = model.read("I hurt my shoulder, what should I avoid?")
        #expect(hurt.slots.spare == [.shoulders] && hurt.slots.muscles.isEmpty)
        #expect(hurt.planRequest.avoid == ["shoulders"])
    }

    @Test func typosAndShorthandAreRead() {
        #expect(model.read("buld me a rotuine 4 dyas").slots.days == 4)
        #expect(model.read("how's my incline db press").slots.exercises == ["incline dumbbell press"])
        #expect(model.read("ohp and rdls").slots.exercises == ["overhead press", "romanian deadlift"])
        #expect(model.read("wat do i do 2day").slots.time == .today)
    }

    /// Random and hostile text, and the table's rows damaged, never trap and always get an intent with a probability.
    @Test func hostileTextAlwaysGetsAnIntent() throws {
        var random = SeededRandomNumberGenerator(seed: 50)
        let rows = try Phrasing.bundled().map(\.text)
        var texts = HostileText.numbers + HostileText.words
        for _ in 0..<3000 {
            let base = HostileText.pick(rows, using: &random)
            texts.append(HostileText.mutate(base, using: &random))
            texts.append((0..<Int.random(in: 1...6, using: &random)).map { _ in HostileText.any(using: &random) }.joined(separator: " "))
        }
        texts.append(String(repeating: "swap bench for squat, ", count: 500))
        for text in texts {
            let understood = model.read(text)
            #expect(understood.confidence.isFinite && (0...1).contains(understood.confidence), "\(text)")
            #expect(MessageIntent.allCases.contains(understood.intent))
            if let days = understood.slots.days { #expect((1...7).contains(days)) }
            if let minutes = understood.slots.minutes { #expect((10...240).contains(minutes)) }
        }
        #expect(model.read("").intent == .unknown)
        #expect(model.read(" \n\t ").intent == .unknown)
    }
}
