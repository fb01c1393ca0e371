import Foundation
import Platform

extension JSONValue {
    /// `value` as JSON: a typed body as it goes on the wire, or two answers of different operations' types compared
    /// field by field.
    init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }
}
