import Foundation

/// The JSON settings used for every stored document and API body: RFC 3339 dates with milliseconds,
/// sorted keys (stable output, comparable idempotency fingerprints).
public enum JSONCoding {
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.rfc3339)
        }
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            guard let date = Date(rfc3339: string) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an RFC 3339 timestamp")
            }
            return date
        }
        return decoder
    }

    /// For documents kept in the database: dates as milliseconds since 1970 (cheap to write and read back),
    /// keys unsorted. Never sent to clients as is.
    public static func makeStorageEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.millisecondsSince1970)
        }
        return encoder
    }

    /// Reads stored documents: millisecond dates, or RFC 3339 strings written by older versions.
    public static func makeStorageDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let milliseconds = try? container.decode(Int64.self) { return Date(millisecondsSince1970: milliseconds) }
            let string = try container.decode(String.self)
            guard let date = Date(rfc3339: string) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a timestamp")
            }
            return date
        }
        return decoder
    }

    /// A document as stored.
    public static func store(_ value: some Encodable) throws -> String {
        String(decoding: try makeStorageEncoder().encode(value), as: UTF8.self)
    }

    /// A stored document read back.
    public static func load<T: Decodable>(_ type: T.Type, from string: String) throws -> T {
        try makeStorageDecoder().decode(T.self, from: Data(string.utf8))
    }

    public static func encode(_ value: some Encodable) throws -> Data {
        try makeEncoder().encode(value)
    }

    /// The same bytes as `encode`, written by `JSONWriter` when the value can write itself.
    public static func bytes(_ value: some Encodable) throws -> [UInt8] {
        if !LibraryPaths.current.contains(.foundationEncoder), let writable = value as? any JSONWritable { return writable.jsonBytes }
        return Array(try encode(value))
    }

    public static func encodeToString(_ value: some Encodable) throws -> String {
        String(decoding: try makeEncoder().encode(value), as: UTF8.self)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from string: String) throws -> T {
        try makeDecoder().decode(T.self, from: Data(string.utf8))
    }
}
