/// Text chosen to break parsers, for the property tests that show input never traps (docs/platform.md): numbers
/// no integer type holds, that are not finite or not numbers at all, and text that breaks quoting, lines and
/// encodings. `mutate` damages a well-formed input the way a truncated upload or a hand-edited file does.
public enum HostileText {
    /// Numbers as a person, a spreadsheet or an attacker writes them.
    public static let numbers: [String] = [
        "0", "-0", "1", "-1", "8", "82.5", "100", "1000", "1001", "1e16", "1e16h", "1e308", "-1e308", "1e309", "inf", "-inf",
        "Infinity", "nan", "NaN", "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "1e-320", "4.9e-324", "1.7976931348623157e308", "0x1p62", "١٢", "１２", "+5", " 5 ", "5e", ".", "1.2.3", "1,5",
        "00000000000000000000001", "99999999999999999999999999", "2147483648", "-2147483649",
    ]

    /// Words and characters that break quoting, lines, encodings and naive escaping.
    public static let words: [String] = [
        "", " ", "\"", "\"\"", ",", ";", "\n", "\r\n", "\r", "\t", "🏋️‍♀️", "\u{202E}", "a\u{0301}\u{0301}\u{0301}", "\u{FEFF}",
        "<script>", "' OR 1=1 --", "%s%n", "\\", "\\u0000", "null", "true", "[]", "{}", "\u{7F}", "\u{1B}[2J",
        String(repeating: "x", count: 300),
    ]

    /// Either kind, picked at random.
    public static func any(using random: inout some RandomNumberGenerator) -> String {
        Bool.random(using: &random) ? pick(numbers, using: &random) : pick(words, using: &random)
    }

    /// An element of a non-empty list (the lists above; a test's own).
    public static func pick<T>(_ list: [T], using random: inout some RandomNumberGenerator) -> T {
        list[Int.random(in: 0..<list.count, using: &random)]
    }

    /// `text` with one to four random edits: a span deleted, a hostile piece inserted, a span doubled, a
    /// character replaced by a quote, a separator or a line break.
    public static func mutate(_ text: String, using random: inout some RandomNumberGenerator) -> String {
        var characters = Array(text)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let at = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &random)
            let length = characters.isEmpty ? 0 : Int.random(in: 0...min(12, characters.count - at), using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: characters.removeSubrange(at..<(at + length))
            case 1: characters.insert(contentsOf: any(using: &random), at: at)
            case 2: characters.insert(contentsOf: characters[at..<(at + length)], at: at)
            default:
                if !characters.isEmpty { characters[at] = pick(["\"", ",", ";", "\n", "@", "x", "0"] as [Character], using: &random) }
            }
        }
        return String(characters)
    }
}
