import Contracts
import Foundation
import Hummingbird
import NIOCore

/// Reading request bodies.
enum RequestBody {
    /// The JSON to decode: the body of a POST (an empty body reads as `{}`), or for a GET the query string
    /// turned into a JSON object typed by the endpoint's schema.
    static func json(_ request: Request, context: APIRequestContext, schema: JSONValue?, settings: EndpointSettings) async throws -> Data {
        let data = try await body(request, schema: schema, settings: settings)
        try refuseNonObject(data)
        return try checkedStrings(data)
    }

    /// Every request body of the API is a JSON object: a number, string, array or `null` (which a decoder of a
    /// type with no required field could otherwise take as an empty input) is `INVALID_ARGUMENT`.
    static func refuseNonObject(_ data: Data) throws {
        let first = data.first { !(($0 == 0x20) || ($0 == 0x0A) || ($0 == 0x0D) || ($0 == 0x09)) }
        guard first == UInt8(ascii: "{") else {
            throw ServiceError(.invalidArgument, "The request body must be a JSON object.", details: ["reason": "expected object"])
        }
    }

    private static func body(_ request: Request, schema: JSONValue?, settings: EndpointSettings) async throws -> Data {
        // HEAD is answered by the GET route (the router generates it), so it reads its input as GET does.
        if request.method == .get || request.method == .head {
            return try queryAsJSON(request.uri.queryParameters, schema: schema)
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: settings.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw ServiceError(
                .payloadTooLarge, "The request body is larger than \(settings.maxBodyBytes) bytes.",
                details: ["limit_bytes": "\(settings.maxBodyBytes)"])
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw ServiceError(
                .payloadTooLarge, "The request body is larger than \(settings.maxBodyBytes) bytes.",
                details: ["limit_bytes": "\(settings.maxBodyBytes)"])
        }
        if buffer.readableBytes == 0 { return Data("{}".utf8) }
        return Data(buffer.readableBytesView)
    }

    /// The body with its strings made decodable, or `INVALID_ARGUMENT` for a NUL character.
    ///
    /// No text of the API has a use for the NUL character, and PostgreSQL cannot store it in a text column: a
    /// string or key holding one (`\u0000`, or a raw 0 byte) is refused naming where it is, on every engine,
    /// before anything reads the request. A lone surrogate escape is read as U+FFFD (`JSONStringEscapes`). Most
    /// bodies hold no backslash and no 0 byte at all, which two `memchr`s tell.
    static func checkedStrings(_ data: Data) throws -> Data {
        let suspect = data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress, raw.count > 0 else { return false }
            return memchr(base, 0, raw.count) != nil || memchr(base, Int32(UInt8(ascii: "\\")), raw.count) != nil
        }
        guard suspect else { return data }
        let scan = JSONStringEscapes.scan(data)
        let text = scan.repaired ?? data
        guard scan.holdsNUL else { return text }
        // Where it is, when Foundation can read the whole text (it refuses numbers beyond a Double, which the
        // decoder takes in a field it skips); the body as a whole otherwise.
        let root = try? JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed])
        let path = root.flatMap { pathOfNUL(in: $0, at: "") } ?? ""
        throw ServiceError.invalidArgument(field: path.isEmpty ? "body" : path, reason: "must not contain the NUL character")
    }

    /// Where the first string or key holding NUL is (`exercises[0].name`), or nil.
    private static func pathOfNUL(in value: Any, at path: String) -> String? {
        switch value {
        case let text as String:
            return text.utf8.contains(0) ? path : nil
        case let object as [String: Any]:
            for (key, item) in object.sorted(by: { $0.key < $1.key }) {
                let child = path.isEmpty ? key : "\(path).\(key)"
                if key.utf8.contains(0) { return child }
                if let found = pathOfNUL(in: item, at: child) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, item) in array.enumerated() {
                if let found = pathOfNUL(in: item, at: "\(path)[\(index)]") { return found }
            }
            return nil
        default:
            return nil
        }
    }

    static func queryAsJSON(_ parameters: Parameters, schema: JSONValue?) throws -> Data {
        var object: [String: JSONValue] = [:]
        for (key, value) in parameters {
            let name = String(key)
            let text = String(value)
            switch Schema.propertyType(schema, name) {
            case "integer":
                guard let number = Int(text) else {
                    throw ServiceError.invalidArgument(field: name, reason: "expected an integer")
                }
                object[name] = .int(number)
            case "number":
                guard let number = Double(text), number.isFinite else {
                    throw ServiceError.invalidArgument(field: name, reason: "expected a number")
                }
                object[name] = .double(number)
            case "boolean":
                guard let flag = Bool(text.lowercased()) else {
                    throw ServiceError.invalidArgument(field: name, reason: "expected true or false")
                }
                object[name] = .bool(flag)
            case "array":
                let items = text.split(separator: ",").map { JSONValue.string(String($0)) }
                object[name] = .array(items)
            default:
                object[name] = .string(text)
            }
        }
        return try JSONEncoder().encode(JSONValue.object(object))
    }
}
