import Foundation

/// The product events Povver records, typed (docs/analytics.md "Taxonomy" and "Milestones"), and the rules
/// an event must meet to be stored. The same rules hold for the app's `trackEvents` and the server's
/// `ProductEventSink`, so a fake sink refuses what the live one refuses.
public enum ProductEventTaxonomy {
    /// The largest parameter object, serialized as JSON.
    public static let maxParamsBytes = 1024
    /// The longest string parameter.
    public static let maxStringLength = 100
    /// The longest `event_id` and `install_id`.
    public static let maxIdLength = 64

    private static let app: Set<ProductEventSource> = [.client]
    // Recorded by the server alone, from what it did: sign-up, workouts and subscriptions from their domain events;
    // the coach's conversations, messages, artifacts and their actions, and the analyst's recommendation actions,
    // through `ProductEventSink`. Sent by the app too, they would count twice, or make a funnel step or a
    // milestone that nothing happened for.
    private static let server: Set<ProductEventSource> = [.server]
    // Reported by the app (a stream it saw fail); the coach may report it through `ProductEventSink` as well.
    private static let either: Set<ProductEventSource> = [.client, .server]

    /// Every event, milestones included.
    public static let all: [ProductEventDefinition] = [
        ProductEventDefinition("app_opened", from: app),
        ProductEventDefinition("signup_completed", [.init("provider", .string)], from: server),
        ProductEventDefinition("tab_viewed", [.init("tab", .string)], from: app),
        ProductEventDefinition("screen_viewed", [.init("screen", .string)], from: app),
        ProductEventDefinition("conversation_started", [.init("entry_point", .string)], from: server),
        ProductEventDefinition("message_sent", [.init("message_length", .integer)], from: server, milestone: "first_message_sent"),
        ProductEventDefinition("artifact_received", [.init("artifact_type", .string)], from: server, milestone: "first_artifact_received"),
        ProductEventDefinition("artifact_action", [.init("action", .string), .init("artifact_type", .string)], from: server),
        ProductEventDefinition(
            "workout_started", [.init("source", .oneOf(["routine", "template", "freeform"])), .init("workout_id", .string)], from: server),
        ProductEventDefinition(
            "workout_completed",
            [
                .init("duration_min", .number), .init("exercise_count", .integer), .init("set_count", .integer),
                .init("workout_id", .string),
            ],
            from: server, milestone: "first_workout_completed"),
        ProductEventDefinition("workout_cancelled", [.init("duration_min", .number), .init("workout_id", .string)], from: server),
        ProductEventDefinition("workout_coach_opened", from: app),
        ProductEventDefinition("paywall_shown", [.init("trigger", .string)], from: app),
        ProductEventDefinition("trial_started", [.init("product_id", .string, required: false)], from: server),
        ProductEventDefinition("subscription_purchased", [.init("product_id", .string, required: false)], from: server),
        ProductEventDefinition("recommendation_action", [.init("action", .string), .init("type", .string)], from: server),
        ProductEventDefinition("streaming_error", [.init("error_code", .string)], from: either),
        ProductEventDefinition("first_message_sent", from: []),
        ProductEventDefinition("first_artifact_received", from: []),
        ProductEventDefinition("first_workout_completed", from: []),
    ]

    private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The event named `name`, or nil when the taxonomy has none.
    public static func definition(named name: String) -> ProductEventDefinition? { byName[name] }

    /// The parameters as stored, once `name` and `params` meet the taxonomy for an event sent by `source`:
    /// a known, non-milestone name `source` may send; every required parameter present, none unknown (a
    /// misspelt name would otherwise be stored and never counted); each of its type (a whole `12.0` becomes
    /// `12`); strings of 1 to `maxStringLength` characters; numbers not negative; at most `maxParamsBytes` of JSON.
    /// Throws `INVALID_ARGUMENT` naming the field (`name`, `params.<parameter>` or `params`).
    public static func validate(
        name: String, params: [String: ProductEventValue], from source: ProductEventSource
    ) throws -> [String: ProductEventValue] {
        guard let definition = byName[name] else {
            throw ServiceError.invalidArgument(
                field: "name", reason: "unknown event", message: "'\(name.prefix(maxStringLength))' is not a known event.")
        }
        guard definition.sources.contains(source) else {
            let who = definition.isMilestone ? "derived by the server from the event that reaches it" : "recorded by the server"
            throw ServiceError.invalidArgument(
                field: "name", reason: definition.isMilestone ? "milestone" : "server event",
                message: "'\(name)' is \(who); do not send it.")
        }
        var stored: [String: ProductEventValue] = [:]
        for parameter in definition.parameters {
            let field = "params.\(parameter.name)"
            guard let value = params[parameter.name] else {
                if parameter.required { throw ServiceError.invalidArgument(field: field, reason: "required") }
                continue
            }
            stored[parameter.name] = try check(value, is: parameter.type, field: field)
        }
        let known = Set(definition.parameters.map(\.name))
        if let unknown = params.keys.sorted().first(where: { !known.contains($0) }) {
            throw ServiceError.invalidArgument(
                field: "params.\(unknown.prefix(maxStringLength))", reason: "unknown parameter",
                message: "'\(name)' has no parameter '\(unknown.prefix(maxStringLength))'.")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if let bytes = try? encoder.encode(stored), bytes.count > maxParamsBytes {
            throw ServiceError.invalidArgument(field: "params", reason: "larger than \(maxParamsBytes) bytes")
        }
        return stored
    }

    /// True for an `event_id` or `install_id` of 1 to `maxIdLength` letters, digits, `-`, `_`, `.` or `:`.
    public static func isValidId(_ id: String) -> Bool {
        !id.isEmpty && id.count <= maxIdLength
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.:".unicodeScalars.contains($0))
            }
    }

    private static func check(
        _ value: ProductEventValue, is type: ProductEventDefinition.ParameterType, field: String
    ) throws -> ProductEventValue {
        switch (type, value) {
        case (.string, .string(let text)):
            guard !text.isEmpty else { throw ServiceError.invalidArgument(field: field, reason: "empty") }
            guard text.count <= maxStringLength else {
                throw ServiceError.invalidArgument(field: field, reason: "longer than \(maxStringLength) characters")
            }
            return value
        case (.oneOf(let allowed), .string(let text)):
            guard allowed.contains(text) else {
                throw ServiceError.invalidArgument(field: field, reason: "must be one of \(allowed.joined(separator: ", "))")
            }
            return value
        case (.integer, .int(let number)):
            guard number >= 0 else { throw ServiceError.invalidArgument(field: field, reason: "negative") }
            return value
        case (.integer, .number(let number)):
            guard number.rounded() == number, let whole = Int(exactly: number) else {
                throw ServiceError.invalidArgument(field: field, reason: "must be a whole number")
            }
            guard whole >= 0 else { throw ServiceError.invalidArgument(field: field, reason: "negative") }
            return .int(whole)
        case (.number, .int(let number)):
            guard number >= 0 else { throw ServiceError.invalidArgument(field: field, reason: "negative") }
            return value
        case (.number, .number(let number)):
            guard number.isFinite, number >= 0 else { throw ServiceError.invalidArgument(field: field, reason: "negative") }
            return value
        case (.string, _), (.oneOf, _):
            throw ServiceError.invalidArgument(field: field, reason: "must be a string")
        case (.integer, _):
            throw ServiceError.invalidArgument(field: field, reason: "must be a whole number")
        case (.number, _):
            throw ServiceError.invalidArgument(field: field, reason: "must be a number")
        }
    }
}
