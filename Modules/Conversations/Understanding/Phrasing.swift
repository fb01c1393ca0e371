import Foundation

/// A row of the phrasing table (`Resources/phrasings.tsv`): a message as lifters type it, with the intent and slots a
/// lifter expects it to be read as, and whether the classifier trains on it or the tests hold it out.
public struct Phrasing: Sendable, Equatable {
    /// The part of the table a row belongs to.
    public enum Part: String, Sendable {
        case train
        case heldout
    }

    /// The row's line in the file, from 1.
    public let line: Int
    public let part: Part
    public let intent: MessageIntent
    public let text: String
    public let slots: MessageSlots

    public init(line: Int, part: Part, intent: MessageIntent, text: String, slots: MessageSlots) {
        self.line = line
        self.part = part
        self.intent = intent
        self.text = text
        self.slots = slots
    }

    /// A row that cannot be read, with its line.
    public struct TableError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "phrasings line \(line): \(reason)" }
    }

    /// The part the split rule gives the n-th data row (from 1): every fifth is held out.
    public static func part(ofRow number: Int) -> Part {
        number % 5 == 0 ? .heldout : .train
    }

    /// The rows of a table's text: lines starting with `#` and the header (`set`, `intent`, `text`, `slots`) are
    /// skipped; every other line needs four tab-separated columns.
    public static func table(_ text: String) throws -> [Phrasing] {
        var rows: [Phrasing] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("set\t") { continue }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 4 else { throw TableError(line: number, reason: "needs 4 tab-separated columns") }
            guard let part = Part(rawValue: columns[0]) else { throw TableError(line: number, reason: "unknown set \(columns[0])") }
            guard let intent = MessageIntent(rawValue: columns[1]) else {
                throw TableError(line: number, reason: "unknown intent \(columns[1])")
            }
            let slots: MessageSlots
            do {
                slots = try MessageSlots(encoded: columns[3])
            } catch {
                throw TableError(line: number, reason: "\(error)")
            }
            rows.append(Phrasing(line: number, part: part, intent: intent, text: columns[2], slots: slots))
        }
        return rows
    }

    /// The table bundled with the module.
    public static func bundled() throws -> [Phrasing] {
        guard let url = Bundle.module.url(forResource: "phrasings", withExtension: "tsv") else {
            throw TableError(line: 0, reason: "the bundled phrasing table is missing")
        }
        return try table(String(decoding: Data(contentsOf: url), as: UTF8.self))
    }
}
