/// Text someone else wrote (names, emails, titles, messages, event payloads, what a webhook carried), made safe for
/// the admin CLIs to print on an operator's terminal: control characters are shown as escapes instead of acting.
/// An escape sequence (`ESC [`, `ESC ]`, or the one-character CSI `U+009B`) can otherwise move the cursor, rewrite
/// what is on screen, set the window's title, or on some terminals answer back with input; a carriage return or a
/// bidirectional override can make a line read as something it is not. Every admin CLI prints user text through
/// this, cell by cell in `TextTable`.
public enum TerminalText {
    /// `text` with C0 and C1 control characters, DEL, and the bidirectional controls written as escapes: `\n`, `\r`,
    /// `\t`, else `\u{1B}`-style (two hex digits at least). With `keepingLines`, line feeds and tabs stay as they are (a message's paragraphs);
    /// the rest is escaped still. Text with nothing to escape is answered as it is.
    public static func escaped(_ text: String, keepingLines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLines: keepingLines) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLines: keepingLines) else {
                result.append(scalar)
                continue
            }
            let escape =
                switch scalar {
                case "\n": "\\n"
                case "\r": "\\r"
                case "\t": "\\t"
                default: "\\u{\(scalar.value < 0x10 ? "0" : "")\(String(scalar.value, radix: 16, uppercase: true))}"
                }
            result.append(contentsOf: escape.unicodeScalars)
        }
        return String(result)
    }

    static func needsEscape(_ scalar: Unicode.Scalar, keepingLines: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLines
        case 0x00...0x1F, 0x7F...0x9F: true
        // Bidirectional marks, embeddings, overrides and isolates; the line and paragraph separators.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
