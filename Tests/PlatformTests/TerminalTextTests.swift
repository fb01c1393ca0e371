import Platform
import Testing

/// Someone's text printed by an admin CLI cannot act on the operator's terminal (`TerminalText`, `TextTable`).
@Suite struct TerminalTextTests {
    @Test func controlCharactersArePrintedAsEscapes() {
        #expect(TerminalText.escaped("\u{1B}]0;owned\u{07}") == #"\u{1B}]0;owned\u{07}"#, "OSC: the window title")
        #expect(TerminalText.escaped("\u{1B}[2J\u{1B}[H") == #"\u{1B}[2J\u{1B}[H"#, "CSI: clear the screen")
        #expect(TerminalText.escaped("a\u{9B}31mb") == #"a\u{9B}31mb"#, "the one-character CSI (C1)")
        #expect(TerminalText.escaped("ok\rfake\u{7F}") == #"ok\rfake\u{7F}"#)
        #expect(TerminalText.escaped("evil\u{202E}txt.exe") == #"evil\u{202E}txt.exe"#, "a right-to-left override")
        #expect(TerminalText.escaped("one\ntwo\tthree") == #"one\ntwo\tthree"#, "a field stays on its line")
        #expect(
            TerminalText.escaped("one\ntwo\tthree\u{1B}[1m", keepingLines: true) == "one\ntwo\tthree\\u{1B}[1m", "a message keeps its lines"
        )
    }

    @Test func printableTextIsLeftAsItIs() {
        for text in ["Leg day 💪", "Cafe\u{301} push", "Ελληνικά", "日本語", #"a\u{1B}"#, ""] {
            #expect(TerminalText.escaped(text) == text)
        }
    }

    @Test func tableCellsAreEscapedAndStayOnTheirRow() {
        let table = TextTable.render(["id", "name"], [["w1", "Legs\n\u{1B}[31mw2  Forged"], ["w3", "Pull"]])
        #expect(!table.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        let lines = table.split(separator: "\n")
        #expect(lines.count == 3, "\(table)")
        #expect(lines[1] == #"w1  Legs\n\u{1B}[31mw2  Forged"#)
        #expect(lines[2] == "w3  Pull")
    }
}
