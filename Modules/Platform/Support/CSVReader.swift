import Foundation

/// Reads CSV as spreadsheet apps export it (RFC 4180 and its usual variants): a byte-order mark, comma or
/// semicolon separators (whichever the header line uses), fields in double quotes holding separators, line
/// breaks and doubled quotes, CRLF or LF line ends, a last line with or without its end. Records are numbered
/// as a spreadsheet shows them: the header is record 1.
public struct CSVReader: Sendable {
    public struct Record: Sendable, Equatable {
        /// The record's number (the header is 1; a record spanning lines counts once).
        public var number: Int
        public var fields: [String]
    }

    /// A quote left open, or text after a closing quote: the record where it starts.
    public struct MalformedError: Error, Equatable, Sendable {
        public var record: Int
        public var reason: String
    }

    public let header: [String]
    public let records: [Record]
    public let separator: UInt8

    /// Parses `text` whole. Blank lines are skipped (they are no records, and take no number).
    public init(_ text: String) throws(MalformedError) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let separator = Self.separator(of: bytes)
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var index = 0
        var inQuotes = false
        var quotedField = false
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            quotedField = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(number: records.count + 1, fields: fields)) }
            fields.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    field.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard field.allSatisfy({ $0 == UInt8(ascii: " ") }), !quotedField else {
                    throw MalformedError(record: records.count + 1, reason: "a quote inside an unquoted field")
                }
                field.removeAll()
                inQuotes = true
                quotedField = true
            case separator:
                endField()
            case UInt8(ascii: "\r") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n"):
                break
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                endRecord()
            default:
                if quotedField, byte != UInt8(ascii: " ") {
                    throw MalformedError(record: records.count + 1, reason: "text after a closing quote")
                }
                if !quotedField { field.append(byte) }
            }
            index += 1
        }
        if inQuotes { throw MalformedError(record: records.count + 1, reason: "a quote that is never closed") }
        if !field.isEmpty || !fields.isEmpty || quotedField { endRecord() }
        self.separator = separator
        self.header = records.first?.fields.map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        self.records = Array(records.dropFirst())
    }

    /// `;` when the header line has more semicolons than commas (outside quotes), else `,`.
    static func separator(of bytes: [UInt8]) -> UInt8 {
        var commas = 0
        var semicolons = 0
        var quoted = false
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if quoted { continue }
            if byte == UInt8(ascii: "\n") { break }
            if byte == UInt8(ascii: ",") { commas += 1 }
            if byte == UInt8(ascii: ";") { semicolons += 1 }
        }
        return semicolons > commas ? UInt8(ascii: ";") : UInt8(ascii: ",")
    }
}
