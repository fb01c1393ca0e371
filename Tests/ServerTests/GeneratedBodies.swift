import Foundation
import Platform
import TestSupport

/// Request bodies made up from the OpenAPI document's schemas, for the property test that shows no body crashes
/// the server. Each body has a hostility: at 0 it keeps to the declared shape, filled with values the server gave
/// out (ids by the name of the field they came in), so it reaches past validation into the handlers; the higher
/// it is, the more of its values are hostile text (`HostileText`), of the wrong type, missing though required, or
/// fields nobody declared. Now and then the JSON text itself is damaged.
struct GeneratedBodies {
    let document: JSONValue
    /// Strings the server gave out, by the name of the field that carried them (`workout_id`, `id`, `set_id`…).
    var known: [String: [String]] = [:]

    /// Remembers the strings under id-like keys of an answer (at most 30 a key).
    mutating func learn(from value: JSONValue) {
        func walk(_ value: JSONValue, key: String) {
            switch value {
            case .object(let object):
                for (name, child) in object { walk(child, key: name) }
            case .array(let array):
                for child in array { walk(child, key: key) }
            case .string(let text) where key == "id" || key.hasSuffix("_id") || key.hasSuffix("Id"):
                var values = known[key, default: []]
                if !values.contains(text) { values.append(text) }
                known[key] = Array(values.suffix(30))
            default: break
            }
        }
        walk(value, key: "")
    }

    /// Remembers the ids of an answer the generated client decoded, by the names they have on the wire.
    mutating func learn(fromAnswer answer: some Encodable) throws {
        learn(from: try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(answer)))
    }

    /// A body for `schema` as JSON text, at a hostility picked at random; its text damaged one time in ten.
    func body(for schema: JSONValue?, using random: inout SeededRandomNumberGenerator) -> String {
        let hostility = HostileText.pick([0, 0, 0.03, 0.1, 0.3], using: &random)
        let text = json(for: schema, name: "", hostility: hostility, using: &random)
        return Int.random(in: 0..<10, using: &random) == 0 ? HostileText.mutate(text, using: &random) : text
    }

    /// A value for `schema` (of the field `name`) as JSON text.
    func json(for schema: JSONValue?, name: String, hostility: Double, depth: Int = 0, using random: inout SeededRandomNumberGenerator)
        -> String
    {
        let schema = resolved(schema ?? [:])
        if depth > 6 || Double.random(in: 0..<1, using: &random) < hostility / 3 { return anything(depth: depth, using: &random) }
        if let choices = schema["anyOf"]?.arrayValue ?? schema["oneOf"]?.arrayValue, !choices.isEmpty {
            let choice = HostileText.pick(choices, using: &random)
            return json(for: merged(schema, with: choice), name: name, hostility: hostility, depth: depth + 1, using: &random)
        }
        if let value = schema["const"] { return Self.text(value) }
        if let values = schema["enum"]?.arrayValue, !values.isEmpty {
            return Self.text(HostileText.pick(values, using: &random))
        }
        switch type(of: schema, using: &random) {
        case "object": return object(schema, hostility: hostility, depth: depth, using: &random)
        case "array":
            let most = schema["maxItems"]?.doubleValue.map { Int(exactly: $0) ?? 4 } ?? 4
            let count =
                Double.random(in: 0..<1, using: &random) < hostility
                ? Int.random(in: 0...80, using: &random) : Int.random(in: 0...min(most, 4), using: &random)
            let least = Double.random(in: 0..<1, using: &random) < hostility ? 0 : Int(exactly: schema["minItems"]?.doubleValue ?? 0) ?? 0
            return "["
                + (0..<max(count, least)).map { _ in
                    json(for: schema["items"], name: name, hostility: hostility, depth: depth + 1, using: &random)
                }
                .joined(separator: ",") + "]"
        case "integer", "number":
            if Double.random(in: 0..<1, using: &random) < hostility { return hostileNumber(using: &random) }
            let low = max(schema["minimum"]?.doubleValue ?? 0, -1e6)
            let high = max(min(schema["maximum"]?.doubleValue ?? 1000, 1e6), low)
            let integer = schema["type"] == "integer" || schema["type"]?.arrayValue?.contains("integer") == true
            let value = Double.random(in: low...high, using: &random)
            return integer ? "\(Int(exactly: value.rounded(.down)) ?? 0)" : "\((value * 4).rounded() / 4)"
        case "boolean": return Bool.random(using: &random) ? "true" : "false"
        case "null": return "null"
        default: return Self.quoted(string(schema, name: name, hostility: hostility, using: &random))
        }
    }

    private func object(_ schema: JSONValue, hostility: Double, depth: Int, using random: inout SeededRandomNumberGenerator) -> String {
        var fields: [String] = []
        let properties = schema["properties"]?.objectValue ?? [:]
        let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
            // A legacy name beside its field: sent alone now and then, never with a value of its own at hostility 0.
            let legacy = property["description"]?.stringValue?.hasPrefix("legacy name of") == true
            if legacy, Double.random(in: 0..<1, using: &random) >= hostility { continue }
            let keep = required.contains(name) ? Double.random(in: 0..<1, using: &random) >= hostility / 2 : Bool.random(using: &random)
            guard keep else { continue }
            let value =
                special(name, using: &random) ?? json(for: property, name: name, hostility: hostility, depth: depth + 1, using: &random)
            fields.append(Self.quoted(name) + ":" + value)
        }
        if Double.random(in: 0..<1, using: &random) < hostility {
            fields.append(Self.quoted(HostileText.any(using: &random)) + ":" + anything(depth: depth + 1, using: &random))
        }
        return "{" + fields.shuffled(using: &random).joined(separator: ",") + "}"
    }

    /// What a person sends in the fields that carry a whole document or sentence: an export file to import, a
    /// message to the coach.
    private func special(_ name: String, using random: inout SeededRandomNumberGenerator) -> String? {
        switch name {
        case "content":
            return Self.quoted(GeneratedExports.file(format: HostileText.pick(["strong_csv", "hevy_csv"], using: &random), using: &random))
        case "message":
            let words = [
                "8", "@", "100", "x", "kg", "lbs", "done", "build", "me", "a", "inf", "minute", "day", "routine", "how", "is", "my",
            ]
            let text = (0..<Int.random(in: 1...8, using: &random)).map { _ in
                Bool.random(using: &random)
                    ? HostileText.pick(words, using: &random) : HostileText.pick(HostileText.numbers, using: &random)
            }
            return Self.quoted(text.joined(separator: " "))
        default: return nil
        }
    }

    private func string(_ schema: JSONValue, name: String, hostility: Double, using random: inout SeededRandomNumberGenerator) -> String {
        if Double.random(in: 0..<1, using: &random) < hostility { return HostileText.any(using: &random) }
        if name == "exercise_id", Int.random(in: 0..<4, using: &random) != 0 {
            return HostileText.pick(["Barbell_Squat", "Barbell_Bench_Press_-_Medium_Grip", "Barbell_Deadlift"], using: &random)
        }
        let candidates = (known[name] ?? []) + (name.hasSuffix("_id") || name.hasSuffix("Id") ? known["id"] ?? [] : [])
        if !candidates.isEmpty, Int.random(in: 0..<8, using: &random) != 0 { return HostileText.pick(candidates, using: &random) }
        if schema["format"] == "date-time" {
            return HostileText.pick(
                ["2024-03-04T18:30:00Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2024-02-29T10:00:00+14:00"], using: &random)
        }
        if schema["pattern"] != nil, name.contains("date") || name.hasSuffix("_day") || name == "from" || name == "to" {
            return HostileText.pick(["2024-03-04", "2024-02-29", "1900-01-01", "2200-12-31"], using: &random)
        }
        switch name {
        case "exercise_id":
            return HostileText.pick(["Barbell_Squat", "Barbell_Bench_Press_-_Medium_Grip", "Barbell_Deadlift"], using: &random)
        case "email": return "fuzz\(Int.random(in: 0..<1000, using: &random))@example.com"
        case "password", "new_password", "current_password": return "secret\(Int.random(in: 100..<1000, using: &random))"
        default: return "\(name.isEmpty ? "x" : name) \(Int.random(in: 0..<1000, using: &random))"
        }
    }

    private func hostileNumber(using random: inout SeededRandomNumberGenerator) -> String {
        HostileText.pick(
            [
                "1e16", "1e308", "-1e308", "1e309", "-0", "0.5", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
                "18446744073709551616", "1e-320", "4.9e-324", "2147483648", "99999999999999999999999999", "-1", "1.5",
            ], using: &random)
    }

    /// A value of any type, for a place that expects another.
    private func anything(depth: Int, using random: inout SeededRandomNumberGenerator) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return hostileNumber(using: &random)
        case 1: return Self.quoted(HostileText.any(using: &random))
        case 2: return depth > 6 ? "[]" : "[" + anything(depth: depth + 1, using: &random) + "]"
        case 3: return depth > 6 ? "{}" : "{\"a\":" + anything(depth: depth + 1, using: &random) + "}"
        case 4: return HostileText.pick(["null", "true", "false"], using: &random)
        default: return Self.quoted(String(repeating: "y", count: Int.random(in: 0...5000, using: &random)))
        }
    }

    private func type(of schema: JSONValue, using random: inout SeededRandomNumberGenerator) -> String {
        if let types = schema["type"]?.arrayValue?.compactMap(\.stringValue), !types.isEmpty {
            let real = types.filter { $0 != "null" }
            return HostileText.pick(real.isEmpty || Int.random(in: 0..<8, using: &random) == 0 ? types : real, using: &random)
        }
        if let type = schema["type"]?.stringValue { return type }
        return schema["properties"] != nil ? "object" : "string"
    }

    /// One alternative of an `anyOf` with what the schema around it says (its properties, its requirements).
    private func merged(_ schema: JSONValue, with choice: JSONValue) -> JSONValue {
        guard case .object(var base) = schema, case .object(let alternative) = resolved(choice) else { return choice }
        base["anyOf"] = nil
        base["oneOf"] = nil
        for (key, value) in alternative {
            switch (key, base[key], value) {
            case ("properties", .object(let mine)?, .object(let theirs)):
                base[key] = .object(mine.merging(theirs) { _, new in new })
            case ("required", .array(let mine)?, .array(let theirs)): base[key] = .array(mine + theirs)
            default: base[key] = value
            }
        }
        return .object(base)
    }

    /// The schema a `$ref` points at, with `allOf` parts merged into it.
    private func resolved(_ schema: JSONValue) -> JSONValue {
        guard case .object(var object) = schema else { return schema }
        if let reference = object["$ref"]?.stringValue, let name = reference.split(separator: "/").last,
            let target = document["components"]?["schemas"]?[String(name)]
        {
            return resolved(target)
        }
        if let parts = object.removeValue(forKey: "allOf")?.arrayValue {
            var required = object["required"]?.arrayValue ?? []
            for case .object(let part) in parts.map(resolved) {
                // A field required under one of its names (`anyOf` of `required`): the first name is required.
                if let first = part["anyOf"]?.arrayValue?.first, let names = first["required"]?.arrayValue {
                    required += names
                    continue
                }
                for (key, value) in part where object[key] == nil { object[key] = value }
            }
            object["required"] = .array(required)
        }
        return .object(object)
    }

    static func quoted(_ text: String) -> String {
        (try? JSONCoding.store(text)) ?? "\"\""
    }

    static func text(_ value: JSONValue) -> String {
        (try? JSONCoding.store(value)) ?? "null"
    }
}

extension JSONValue {
    fileprivate var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    fileprivate var doubleValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
