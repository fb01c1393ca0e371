import Foundation

/// A JSON value already encoded (by `JSONWriter`, or stored as first sent): the envelope carries its bytes as
/// they are instead of encoding the value again.
public struct EncodedJSON: Encodable, Sendable, Equatable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Only for an encoder other than the envelope's: the bytes are read back and encoded as any JSON value.
    public func encode(to encoder: any Encoder) throws {
        try JSONDecoder().decode(JSONValue.self, from: Data(bytes)).encode(to: encoder)
    }
}
