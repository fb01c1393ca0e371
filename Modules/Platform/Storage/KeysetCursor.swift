import Contracts
import Foundation

/// The cursor of a list ordered by a time (milliseconds) and then an id: opaque base64url text naming the last row a
/// page held, so the next page starts strictly after it and pages never overlap or skip.
public struct KeysetCursor: Sendable, Equatable {
    public var milliseconds: Int64
    public var id: String

    public init(milliseconds: Int64, id: String) {
        self.milliseconds = milliseconds
        self.id = id
    }

    /// The cursor as a client holds it.
    public func encoded(separator: Character = ".") -> String {
        Data("\(milliseconds)\(separator)\(id)".utf8).base64URLEncoded()
    }

    /// The cursor a list issued, or nil for none (nil or empty); `INVALID_ARGUMENT` (field `cursor`) for any other text.
    public static func parse(_ cursor: String?, separator: Character = ".") throws -> KeysetCursor? {
        guard let cursor, !cursor.isEmpty else { return nil }
        guard let data = Data(base64URLEncoded: cursor), let text = String(data: data, encoding: .utf8),
            let mark = text.firstIndex(of: separator), let milliseconds = Int64(text[..<mark])
        else { throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this list") }
        return KeysetCursor(milliseconds: milliseconds, id: String(text[text.index(after: mark)...]))
    }
}
