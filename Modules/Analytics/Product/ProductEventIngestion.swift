import Contracts
import Foundation
import Platform

/// `trackEvents`: the app's batch of product events, checked one by one. A bad event is rejected with its index
/// and the field at fault while the rest are stored, all in one transaction; a batch over `maxBatch` events is
/// refused whole, and so is one that takes the user past `rate` events in its hour (`RATE_LIMITED`). An event
/// repeated under its `event_id` (a batch sent again after a lost answer) is accepted and stored once.
struct ProductEventIngestion: Sendable {
    let database: Database
    let clock: any WallClock
    let ids: any IDGenerator
    /// When the account was created: no event of the user is older than a day before.
    let accounts: any AccountDirectory
    let limiter: RateLimiter
    /// Events per user per hour, counted whether they are stored or not.
    let rate: RateLimit

    init(database: Database, clock: any WallClock, ids: any IDGenerator, accounts: any AccountDirectory, eventsPerHour: Int) {
        self.database = database
        self.clock = clock
        self.ids = ids
        self.accounts = accounts
        self.limiter = RateLimiter(database: database, clock: clock)
        self.rate = RateLimit(name: "analytics.track_events.user", limit: eventsPerHour, window: 3600)
    }

    /// The most events one request may carry.
    static let maxBatch = 100
    /// How far ahead of the server's clock `occurred_at` may be (a phone's clock is often a little off; more is a
    /// wrong clock or a made-up time).
    static let maxFutureSkew: TimeInterval = 10 * 60
    /// How old an event may be when it arrives: an app offline for weeks still delivers what it kept; an older
    /// time is made up, and would rewrite a past funnel.
    static let maxAge: TimeInterval = 30 * 86_400
    /// How long before the account was created its events may be: the app keeps its opens from before sign-up and
    /// sends them once signed in.
    static let beforeSignUp: TimeInterval = 86_400

    struct Rejection: Codable, Sendable, Equatable {
        var index: Int
        var code: String
        var message: String
        /// The field at fault, e.g. `events[3].params.message_length`.
        var field: String?
    }

    struct Outcome: Codable, Sendable, Equatable {
        var accepted: Int
        var rejected: [Rejection]
    }

    func track(userId: String, events: [JSONValue]) async throws -> Outcome {
        guard events.count <= Self.maxBatch else {
            throw ServiceError.invalidArgument(
                field: "events", reason: "more than \(Self.maxBatch) events",
                message: "Send at most \(Self.maxBatch) events per request (this one has \(events.count)).")
        }
        do {
            try await limiter.hit(rate, key: userId, weight: events.count)
        } catch var refusal as ServiceError where refusal.code == .rateLimited {
            let wait = refusal.details["retry_after_seconds"] ?? "60"
            refusal.message = "Too many product events: at most \(rate.limit) per hour. Send the rest in \(wait) seconds."
            refusal.details["limit"] = "\(rate.limit)"
            throw refusal
        }
        let now = clock.now()
        let earliest = try await earliestTime(userId: userId, now: now)
        var valid: [ProductEvent] = []
        var rejected: [Rejection] = []
        for (index, json) in events.enumerated() {
            do {
                valid.append(try event(json, userId: userId, now: now, earliest: earliest))
            } catch let error as ServiceError {
                let nested = error.nested(under: "events[\(index)].")
                rejected.append(
                    Rejection(
                        index: index, code: nested.code.rawValue, message: nested.message,
                        field: nested.details["field"] ?? "events[\(index)]"))
            }
        }
        let accepted = valid
        if !accepted.isEmpty {
            try await database.transaction { tx in
                for event in accepted { try await ProductEventStore.insert(event, in: tx) }
            }
        }
        return Outcome(accepted: accepted.count, rejected: rejected)
    }

    /// The oldest `occurred_at` accepted from the user now: `maxAge` ago, or `beforeSignUp` before the account was
    /// created if that is later.
    func earliestTime(userId: String, now: Date) async throws -> (time: Date, reason: String) {
        let oldest = now.addingTimeInterval(-Self.maxAge)
        if let created = try await accounts.account(userId: userId)?.createdAt.addingTimeInterval(-Self.beforeSignUp), created > oldest {
            return (created, "more than a day before the account was created")
        }
        return (oldest, "more than 30 days ago")
    }

    /// One event of the batch as stored, or the `INVALID_ARGUMENT` that says which of its fields is wrong.
    func event(_ json: JSONValue, userId: String, now: Date, earliest: (time: Date, reason: String)) throws -> ProductEvent {
        guard case .object(let fields) = json else {
            throw ServiceError(.invalidArgument, "Each event must be a JSON object.", details: ["reason": "must be an object"])
        }
        guard case .string(let name)? = fields["name"] else { throw Self.field("name", json: fields["name"], expected: "a string") }
        guard case .string(let time)? = fields["occurred_at"] else {
            throw Self.field("occurred_at", json: fields["occurred_at"], expected: "an RFC 3339 timestamp")
        }
        guard let occurredAt = Date(rfc3339: time) else {
            throw ServiceError.invalidArgument(field: "occurred_at", reason: "must be an RFC 3339 timestamp")
        }
        guard occurredAt.timeIntervalSince(now) <= Self.maxFutureSkew else {
            throw ServiceError.invalidArgument(field: "occurred_at", reason: "more than 10 minutes ahead of the server's clock")
        }
        guard occurredAt >= earliest.time else { throw ServiceError.invalidArgument(field: "occurred_at", reason: earliest.reason) }
        let eventId = try Self.id(fields["event_id"], field: "event_id")
        let installId = try Self.id(fields["install_id"], field: "install_id")
        let params = try ProductEventTaxonomy.validate(name: name, params: try Self.params(fields["params"]), from: .client)
        return ProductEvent(
            id: eventId.map { ProductEvent.clientId(userId: userId, eventId: $0) } ?? "client:\(ids.makeID())", userId: userId, name: name,
            params: params, occurredAt: occurredAt, receivedAt: now, installId: installId, source: .client)
    }

    private static func params(_ json: JSONValue?) throws -> [String: ProductEventValue] {
        switch json {
        case nil, .null?: return [:]
        case .object(let object)?:
            var params: [String: ProductEventValue] = [:]
            for (key, value) in object {
                switch value {
                case .string(let text): params[key] = .string(text)
                case .int(let number): params[key] = .int(number)
                case .double(let number): params[key] = .number(number)
                case .bool(let flag): params[key] = .bool(flag)
                case .null, .array, .object:
                    throw ServiceError.invalidArgument(
                        field: "params.\(key.prefix(ProductEventTaxonomy.maxStringLength))", reason: "must be a string or a number")
                }
            }
            return params
        default: throw ServiceError.invalidArgument(field: "params", reason: "must be an object")
        }
    }

    private static func id(_ json: JSONValue?, field: String) throws -> String? {
        switch json {
        case nil, .null?: return nil
        case .string(let id)? where ProductEventTaxonomy.isValidId(id): return id
        default:
            throw ServiceError.invalidArgument(
                field: field, reason: "must be 1 to \(ProductEventTaxonomy.maxIdLength) letters, digits, '-', '_', '.' or ':'")
        }
    }

    private static func field(_ name: String, json: JSONValue?, expected: String) -> ServiceError {
        ServiceError.invalidArgument(field: name, reason: json == nil ? "required" : "must be \(expected)")
    }
}
