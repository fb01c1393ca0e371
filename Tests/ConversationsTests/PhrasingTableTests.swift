import Conversations
import Testing

/// The phrasing table the coach's understanding is trained and evaluated on: large, every intent with training and
/// held-out rows, the split rule kept, each row's slots written in the table's notation, and every example at the
/// top of issue 50 in it with the reading a lifter expects.
@Suite struct PhrasingTableTests {
    static let issueExamples: [(text: String, intent: MessageIntent, slots: String)] = [
        ("How is my training going?", .progressOverall, ""),
        ("Show me my progress", .progressOverall, ""),
        ("How's my chest doing?", .progressMuscleGroup, "muscles=chest"),
        ("Change my routine to 4 days", .changeRoutine, "days=4"),
        ("No barbell, just dumbbells. 3 day full body", .planRoutine, "days=3; split=full_body; equipment=dumbbell; without=barbell"),
        ("PPL twice a week", .planRoutine, "days=6; split=ppl"),
        ("Give me a 5x5 program", .namedProgram, "program=stronglifts"),
        ("Give me a 45-minute push workout", .planSession, "minutes=45; focus=push"),
        ("Is 3 days a week at the gym enough?", .question, "days=3; equipment=gym"),
        (
            "Swap bench for incline dumbbell press", .swapExercise,
            "exercises=bench,incline dumbbell press; swap=bench>incline dumbbell press"
        ),
        ("I hurt my shoulder, what should I avoid?", .injury, "spare=shoulders"),
        ("forget it, how am I doing?", .progressOverall, ""),
        ("what should I train today? 45 minutes, dumbbells", .planSession, "time=today; minutes=45; equipment=dumbbell"),
        ("I only have dumbbells", .remember, "equipment=dumbbell"),
        ("I train 4 days", .remember, "days=4"),
        ("is 3 days a week enough?", .question, "days=3"),
        ("how am I doing?", .progressOverall, ""),
    ]

    @Test func theTableIsLargeCoversEveryIntentAndKeepsItsSplit() throws {
        let rows = try Phrasing.bundled()
        #expect(rows.count >= 400)
        for (offset, row) in rows.enumerated() {
            #expect(
                row.part == Phrasing.part(ofRow: offset + 1),
                "line \(row.line): the split rule puts row \(offset + 1) in \(Phrasing.part(ofRow: offset + 1))")
            #expect(try MessageSlots(encoded: row.slots.encoded) == row.slots, "line \(row.line)")
        }
        for intent in MessageIntent.allCases {
            let count = rows.filter { $0.intent == intent }.count
            #expect(count >= 10, "\(intent.rawValue) has \(count) rows")
            #expect(rows.contains { $0.intent == intent && $0.part == .heldout }, "\(intent.rawValue) has no held-out row")
        }
        let texts = rows.map { $0.text.lowercased() }
        #expect(Set(texts).count == texts.count, "a phrasing is listed twice")
    }

    @Test func theIssuesExamplesAreInTheTable() throws {
        let rows = try Phrasing.bundled()
        for example in Self.issueExamples {
            let expected = try MessageSlots(encoded: example.slots)
            let row = rows.first { $0.text.lowercased() == example.text.lowercased() }
            #expect(row?.intent == example.intent && row?.slots == expected, "\(example.text) is not in the table as expected")
        }
    }

    @Test func aRowThatCannotBeReadIsRefusedWithItsLine() {
        let header = "# comment\nset\tintent\ttext\tslots\n"
        #expect(throws: Phrasing.TableError.self) { try Phrasing.table(header + "train\tplan_routine\tmake me a routine") }
        #expect(throws: Phrasing.TableError.self) { try Phrasing.table(header + "train\tdance\thello\t") }
        #expect(throws: Phrasing.TableError.self) { try Phrasing.table(header + "train\tgreeting\thello\tdays=many") }
        #expect(throws: Phrasing.TableError.self) { try Phrasing.table(header + "train\tgreeting\thello\tcolour=red") }
        #expect(throws: Phrasing.TableError.self) { try Phrasing.table(header + "later\tgreeting\thello\t") }
        let rows = try? Phrasing.table(header + "heldout\tswap_exercise\tswap bench\tswap=bench>; exercises=bench")
        #expect(rows?.first?.slots == MessageSlots(exercises: ["bench"], swap: SwapTarget(from: "bench", to: nil)))
        #expect(rows?.first?.line == 3)
    }
}
