import Foundation
import Platform
import PovverKit

extension CanvasCardModel {
    /// The card in a coach event's `data`, decoded by the app's own model (PovverKit), from the JSON the server wrote.
    static func decode(_ value: JSONValue) throws -> CanvasCardModel {
        try decode(try JSONEncoder().encode(value))
    }
}
