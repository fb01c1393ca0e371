import Conversations
import Foundation
import Testing

/// How well the model trained on the phrasing table's `train` rows reads its `heldout` rows: the numbers are printed
/// and recorded in docs/coach.md.
///
/// Intent accuracy: held-out rows whose intent is read as labelled. Slot accuracy: held-out rows whose slots are
/// *all* read exactly as labelled, a slot the label lacks counting as wrong when read (every row counts, those with no
/// slots too). Also printed, not gated: micro-averaged F1 over slot items (each `key=value`, each element of a list
/// its own item).
@Suite struct MessageUnderstandingEvaluationTests {
    static let rows: [Phrasing] = (try? Phrasing.bundled()) ?? []

    @Test func heldOutRowsAreReadAsLabelled() {
        let model = MessageUnderstanding(training: Self.rows.filter { $0.part == .train })
        let heldOut = Self.rows.filter { $0.part == .heldout }
        var intentsRight = 0
        var slotsRight = 0
        var counts = (matched: 0, read: 0, labelled: 0)
        var misses: [String] = []
        for row in heldOut {
            let understood = model.read(row.text)
            if understood.intent == row.intent {
                intentsRight += 1
            } else {
                misses.append("  intent line \(row.line) \"\(row.text)\": \(understood.intent.rawValue), expected \(row.intent.rawValue)")
            }
            if understood.slots == row.slots {
                slotsRight += 1
            } else {
                misses.append("  slots line \(row.line) \"\(row.text)\": \(understood.slots.encoded) | expected \(row.slots.encoded)")
            }
            let read = Self.items(understood.slots)
            let labelled = Self.items(row.slots)
            counts.matched += read.intersection(labelled).count
            counts.read += read.count
            counts.labelled += labelled.count
        }
        let intentAccuracy = Double(intentsRight) / Double(max(1, heldOut.count))
        let slotAccuracy = Double(slotsRight) / Double(max(1, heldOut.count))
        let precision = Double(counts.matched) / Double(max(1, counts.read))
        let recall = Double(counts.matched) / Double(max(1, counts.labelled))
        let f1 = precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0
        print(
            """
            Message understanding on \(heldOut.count) held-out phrasings (trained on \(Self.rows.count - heldOut.count)):
              intent accuracy \(Self.percent(intentAccuracy)) (\(intentsRight)/\(heldOut.count)), gate 95 %
              slot accuracy \(Self.percent(slotAccuracy)) (\(slotsRight)/\(heldOut.count) rows with every slot exact), gate 90 %
              slot items: precision \(Self.percent(precision)), recall \(Self.percent(recall)), F1 \(Self.percent(f1))
            \(misses.joined(separator: "\n"))
            """)
        #expect(heldOut.count >= 80)
        #expect(intentAccuracy >= 0.95)
        #expect(slotAccuracy >= 0.90)
    }

    @Test func theIssuesExamplesAreReadAsALifterExpects() throws {
        for example in PhrasingTableTests.issueExamples {
            let expected = try MessageSlots(encoded: example.slots)
            let understood = MessageUnderstanding.standard.read(example.text)
            #expect(understood.intent == example.intent, "\(example.text): \(understood.intent.rawValue)")
            #expect(understood.slots == expected, "\(example.text): \(understood.slots.encoded)")
        }
    }

    @Test func twoModelsOfTheSameRowsReadAlike() {
        let train = Self.rows.filter { $0.part == .train }
        let first = MessageUnderstanding(training: train)
        let second = MessageUnderstanding(training: train)
        for text in Self.rows.map(\.text) + ["", "asdf", "8 @ 100", String(repeating: "bench ", count: 200)] {
            #expect(first.read(text) == second.read(text), "\(text)")
            #expect(first.read(text) == MessageUnderstanding.standard.read(text), "\(text)")
        }
    }

    /// Each slot as items: `key=value`, a list's elements one by one.
    static func items(_ slots: MessageSlots) -> Set<String> {
        var items = Set<String>()
        for pair in slots.encoded.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            let values = parts[0] == "swap" ? [parts[1]] : parts[1].split(separator: ",").map(String.init)
            for value in values { items.insert("\(parts[0])=\(value)") }
        }
        return items
    }

    static func percent(_ value: Double) -> String {
        "\((value * 1000).rounded() / 10) %"
    }
}
