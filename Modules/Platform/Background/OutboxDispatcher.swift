import Contracts
import Foundation
import Logging
import SQLKit
import ServiceLifecycle

/// An event as stored in the outbox.
public struct StoredEvent: Sendable, Codable, Equatable {
    public var id: String
    public var type: String
    public var payload: String
    public var occurredAt: Date

    /// The event as its type. Throws when the payload does not decode as `E`.
    public func decode<E: DomainEvent>(_ type: E.Type) throws -> E {
        try JSONCoding.decode(E.self, from: payload)
    }

    enum CodingKeys: String, CodingKey {
        case id, type, payload
        case occurredAt = "occurred_at"
    }
}

/// A subscriber to one event type. `name` is stable and unique: it keys delivery bookkeeping, so a handler
/// gets each event at least once, and must be idempotent (a redelivery after a crash does nothing new).
public struct EventHandler: Sendable {
    public var name: String
    public var eventType: String
    public var handle: @Sendable (StoredEvent) async throws -> Void

    public init(name: String, eventType: String, handle: @escaping @Sendable (StoredEvent) async throws -> Void) {
        self.name = name
        self.eventType = eventType
        self.handle = handle
    }

    /// A handler for a typed event.
    public static func on<E: DomainEvent>(
        _ type: E.Type, name: String, _ handle: @escaping @Sendable (E, StoredEvent) async throws -> Void
    ) -> EventHandler {
        EventHandler(name: name, eventType: E.eventType) { stored in
            try await handle(try stored.decode(E.self), stored)
        }
    }
}

/// Moves committed outbox events to their subscribers. For each undispatched event it enqueues one delivery
/// job per subscribed handler (job id `event:<event id>:<handler>`, so re-dispatching after a crash enqueues
/// nothing twice) and marks the event dispatched, all in one transaction. Delivery then has the job queue's
/// guarantees: leases, retries with backoff, several workers in several processes.
public final class OutboxDispatcher: Service, Sendable {
    /// The kind of deliveries queued by versions before deliveries had a kind per handler (still run).
    public static let deliveryJobKind = "platform.event"

    /// The job kind of deliveries to `handler`: a worker claims only deliveries to handlers it has, so while
    /// two versions run side by side (a rolling deploy) one without a new handler never takes its deliveries.
    public static func deliveryJobKind(handler: String) -> String { "\(deliveryJobKind):\(handler)" }

    /// How long a handler registered by some replica and not registered again since is still fanned out to.
    public static let registrationLifetime: TimeInterval = 7 * 24 * 3600
    /// How often a running dispatcher registers its handlers again.
    static let registrationInterval: Duration = .seconds(3600)

    private let database: Database
    private let queue: JobQueue
    private let handlersByType: [String: [String]]
    private let handlers: [(name: String, eventType: String)]
    private let pollInterval: Duration
    private let logger: Logger
    /// Times the polls and the hourly registration (`run`); the outbox's dates come from the queue's wall clock.
    private let stopwatch: Stopwatch
    private let doorbell: Doorbell
    private let onDispatched: @Sendable () -> Void
    private let metrics: ServerMetrics?

    public init(
        database: Database, queue: JobQueue, handlers: [EventHandler], pollInterval: Duration = .seconds(1),
        clock: any Clock<Duration> = ContinuousClock(), logger: Logger, metrics: ServerMetrics? = nil,
        onDispatched: @escaping @Sendable () -> Void = {}
    ) {
        self.metrics = metrics
        self.stopwatch = Stopwatch(clock)
        self.doorbell = Doorbell(clock: clock)
        self.database = database
        self.queue = queue
        self.handlersByType = Dictionary(grouping: handlers, by: \.eventType).mapValues { $0.map(\.name) }
        self.handlers = handlers.map { ($0.name, $0.eventType) }
        self.pollInterval = pollInterval
        self.logger = logger
        self.onDispatched = onDispatched
        let doorbell = self.doorbell
        database.onEventsCommitted { doorbell.ring() }
    }

    /// The jobs that deliver an event to each of `handlers` (one kind per handler), and the one that runs
    /// deliveries queued under the former shared kind.
    public static func deliveryJobs(handlers: [EventHandler], logger: Logger) -> [JobDefinition] {
        let byName = Dictionary(handlers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let retry = RetryPolicy(base: 2, cap: 600)
        let perHandler = byName.values.sorted { $0.name < $1.name }.map { handler in
            JobDefinition(kind: deliveryJobKind(handler: handler.name), lease: 60, retry: retry) { job in
                try await handler.handle(try JSONCoding.decode(Delivery.self, from: job.payload).event)
            }
        }
        let former = JobDefinition(kind: deliveryJobKind, lease: 60, retry: retry) { job in
            let delivery = try JSONCoding.decode(Delivery.self, from: job.payload)
            guard let handler = byName[delivery.handler] else {
                // Not completed as if delivered: retried (another replica may have the handler), and failed for all
                // to see once its attempts are spent.
                logger.warning(
                    "event handler not registered here",
                    metadata: ["event": "event_handler_missing", "handler": "\(delivery.handler)", "event_id": "\(delivery.event.id)"])
                throw ServiceError(.internalError, "no event handler named \(delivery.handler) in this process")
            }
            try await handler.handle(delivery.event)
        }
        return perHandler + [former]
    }

    struct Delivery: Codable {
        var handler: String
        var event: StoredEvent
    }

    /// Records this process's handlers as running now (at start, then every hour), so every replica's dispatcher
    /// fans events out to them too: during a rolling deploy one of the older version, which lacks a new handler,
    /// still queues its deliveries (which only a replica that has it claims, by their kind).
    ///
    /// Deliveries still queued for a handler no replica has registered for `registrationLifetime` (removed or
    /// renamed in the code) are then marked failed, for operators to see, instead of waiting forever for a worker
    /// that claims their kind; one re-queued by hand (`status = 'queued'`) runs if the handler comes back.
    public func registerHandlers() async throws {
        let now = queue.clock.now().millisecondsSince1970
        let cutoff = now - Int64(saturating: Self.registrationLifetime * 1000)
        let handlers = self.handlers
        let retired = try await database.transaction { tx in
            for handler in handlers {
                try await tx.sql.raw(
                    """
                    INSERT INTO platform_event_handlers (name, event_type, seen_at) VALUES (\(bind: handler.name), \(bind: handler.eventType), \(bind: now))
                    ON CONFLICT (name) DO UPDATE SET event_type = excluded.event_type, seen_at = excluded.seen_at
                    """
                ).run()
            }
            return try await tx.sql.raw(
                """
                UPDATE platform_jobs
                SET status = 'failed', last_error = 'no running version has this event handler', finished_at = \(bind: now), updated_at = \(bind: now)
                WHERE status = 'queued' AND kind LIKE \(bind: Self.deliveryJobKind + ":%")
                    AND kind NOT IN (SELECT \(bind: Self.deliveryJobKind + ":") || name FROM platform_event_handlers WHERE seen_at > \(bind: cutoff))
                RETURNING kind
                """
            ).all(decodingColumn: "kind", as: String.self)
        }
        for (kind, count) in Dictionary(retired.map { ($0, 1) }, uniquingKeysWith: +).sorted(by: { $0.key < $1.key }) {
            logger.warning(
                "deliveries to a retired event handler failed",
                metadata: ["event": "outbox_handler_retired", "kind": "\(kind)", "count": "\(count)"])
        }
    }

    /// Dispatches every pending event. Returns how many events were dispatched.
    @discardableResult
    public func dispatchPending(batchSize: Int = 100) async throws -> Int {
        var total = 0
        while true {
            let count = try await dispatchBatch(batchSize)
            total += count
            if count < batchSize { break }
        }
        if total > 0 { onDispatched() }
        return total
    }

    private func dispatchBatch(_ batchSize: Int) async throws -> Int {
        let engine = database.engine
        let queue = self.queue
        let handlersByType = self.handlersByType
        let metrics = self.metrics
        return try await database.transaction { tx in
            let lockClause = engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
            let rows = try await tx.sql.raw(
                """
                SELECT seq, id, type, payload, occurred_at, user_id FROM platform_outbox
                WHERE dispatched_at IS NULL ORDER BY seq LIMIT \(literal: batchSize)\(unsafeRaw: lockClause)
                """
            ).all()
            let now = queue.clock.now().millisecondsSince1970
            // This process's handlers, and those other replicas registered lately.
            var subscribers = handlersByType
            if !rows.isEmpty {
                let cutoff = now - Int64(saturating: Self.registrationLifetime * 1000)
                for registered in try await tx.sql.raw(
                    "SELECT name, event_type FROM platform_event_handlers WHERE seen_at > \(bind: cutoff)"
                ).all() {
                    let name = try registered.decode(column: "name", as: String.self)
                    let type = try registered.decode(column: "event_type", as: String.self)
                    if !(subscribers[type]?.contains(name) ?? false) { subscribers[type, default: []].append(name) }
                }
            }
            for row in rows {
                let event = StoredEvent(
                    id: try row.decode(column: "id", as: String.self),
                    type: try row.decode(column: "type", as: String.self),
                    payload: try row.decode(column: "payload", as: String.self),
                    occurredAt: Date(millisecondsSince1970: try row.decode(column: "occurred_at", as: Int64.self)))
                let userId = try row.decode(column: "user_id", as: String?.self)
                for handler in subscribers[event.type] ?? [] {
                    let payload = try JSONCoding.encodeToString(Delivery(handler: handler, event: event))
                    try await queue.enqueue(
                        NewJob(
                            id: "event:\(event.id):\(handler)", kind: Self.deliveryJobKind(handler: handler), payload: payload,
                            maxAttempts: 10,
                            userId: userId),
                        in: tx)
                }
                try await tx.sql.raw(
                    "UPDATE platform_outbox SET dispatched_at = \(bind: now) WHERE seq = \(bind: try row.decode(column: "seq", as: Int64.self))"
                ).run()
                let lag = Duration.milliseconds(now - event.occurredAt.millisecondsSince1970)
                tx.afterCommit { metrics?.recordOutboxDispatch(type: event.type, lag: lag) }
            }
            return rows.count
        }
    }

    public func run() async throws {
        var registeredAt: Duration?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            if registeredAt.map({ stopwatch.elapsed - $0 >= Self.registrationInterval }) ?? true {
                do {
                    try await registerHandlers()
                    registeredAt = stopwatch.elapsed
                } catch {
                    logger.error("event handlers not registered", metadata: ["event": "outbox_register_error", "error": "\(error)"])
                }
            }
            do {
                try await dispatchPending()
            } catch {
                logger.error("outbox dispatch failed", metadata: ["event": "outbox_dispatch_error", "error": "\(error)"])
            }
            await doorbell.wait(upTo: pollInterval)
        }
    }
}
