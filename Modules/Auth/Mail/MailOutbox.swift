import Contracts
import Foundation
import Logging
import Platform
import SQLKit
import ServiceLifecycle

/// A stored outgoing email, as `povver-auth outbox` shows it.
public struct OutboxMail: Sendable, Equatable, Codable {
    public var id: String
    public var userId: String?
    public var kind: String
    public var recipient: String
    public var subject: String
    /// The text. Emptied once a real transport delivered it (it carries one-time codes); kept for `log`.
    public var body: String
    public var status: String
    public var attempts: Int
    public var transport: String?
    public var lastError: String?
    public var createdAt: Date
    public var sentAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, kind, recipient, subject, body, status, attempts, transport
        case userId = "user_id"
        case lastError = "last_error"
        case createdAt = "created_at"
        case sentAt = "sent_at"
    }
}

/// The durable email outbox: a message is written in the same transaction as the change it reports (a code
/// that exists is always mailed; a rolled-back change mails nothing), and `MailSender` delivers it with
/// retries. Safe with several replicas: a message is leased before sending.
public struct MailOutbox: Sendable {
    let database: Database
    let clock: any WallClock
    let ids: any IDGenerator
    let from: String
    let doorbell: Doorbell

    /// Attempts before a message is marked failed.
    static let maxAttempts = 8
    /// How long a sender holds a message before another may try it.
    static let lease: TimeInterval = 120
    static let retry = RetryPolicy(base: 30, cap: 3600)

    init(database: Database, clock: any WallClock, ids: any IDGenerator, from: String, doorbell: Doorbell = Doorbell()) {
        self.database = database
        self.clock = clock
        self.ids = ids
        self.from = from
        self.doorbell = doorbell
    }

    /// Queues a message in `tx`; the sender is woken once `tx` commits.
    func enqueue(userId: String?, kind: String, to recipient: String, subject: String, body: String, in tx: Transaction) async throws {
        let now = clock.now().millisecondsSince1970
        try await tx.sql.raw(
            """
            INSERT INTO auth_mail_outbox (id, user_id, kind, recipient, subject, body, status, attempts, next_attempt_at, created_at)
            VALUES (\(bind: ids.makeID()), \(bind: userId), \(bind: kind), \(bind: recipient), \(bind: subject), \(bind: body), 'pending', 0,
                    \(bind: now), \(bind: now))
            """
        ).run()
        let doorbell = self.doorbell
        tx.afterCommit { doorbell.ring() }
    }

    /// Leases the next message due, or nil.
    func claim() async throws -> (id: String, attempt: Int, message: MailMessage)? {
        let engine = database.engine
        let clock = self.clock
        let from = self.from
        return try await database.transaction { tx in
            let now = clock.now().millisecondsSince1970
            let lockClause = engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
            // A message whose sender stopped during its last allowed attempt (killed, or stuck past its lease) is
            // not tried once more: it fails for all to see, as a refused one does.
            try await tx.sql.raw(
                """
                UPDATE auth_mail_outbox SET status = 'failed', lease_expires_at = NULL, body = '',
                    last_error = 'the sender stopped during every attempt (its lease expired)'
                WHERE status = 'sending' AND lease_expires_at < \(bind: now) AND attempts >= \(bind: Self.maxAttempts)
                """
            ).run()
            guard
                let row = try await tx.sql.raw(
                    """
                    UPDATE auth_mail_outbox
                    SET status = 'sending', attempts = attempts + 1, lease_expires_at = \(bind: now + Int64(saturating: Self.lease * 1000))
                    WHERE id = (
                        SELECT id FROM auth_mail_outbox
                        WHERE (status = 'pending' AND next_attempt_at <= \(bind: now)) OR (status = 'sending' AND lease_expires_at < \(bind: now))
                        ORDER BY next_attempt_at, id LIMIT 1\(unsafeRaw: lockClause)
                    )
                    RETURNING id, attempts, recipient, subject, body
                    """
                ).first()
            else { return nil }
            return (
                try row.decode(column: "id", as: String.self), try row.decode(column: "attempts", as: Int.self),
                MailMessage(
                    from: from, to: try row.decode(column: "recipient", as: String.self),
                    subject: try row.decode(column: "subject", as: String.self),
                    body: try row.decode(column: "body", as: String.self))
            )
        }
    }

    /// Records attempt `attempt` of message `id` as delivered. Returns false, changing nothing, when that
    /// attempt no longer holds the message (its lease expired and another sender took it).
    @discardableResult
    func markSent(id: String, attempt: Int, transport: String) async throws -> Bool {
        let now = clock.now().millisecondsSince1970
        // A real transport has delivered the code; the copy here is no longer needed by anyone.
        let keepBody = transport == "log"
        return try await database.transaction { tx in
            try await tx.sql.raw(
                """
                UPDATE auth_mail_outbox SET status = 'sent', sent_at = \(bind: now), transport = \(bind: transport), last_error = NULL,
                    lease_expires_at = NULL\(unsafeRaw: keepBody ? "" : ", body = ''")
                WHERE id = \(bind: id) AND status = 'sending' AND attempts = \(bind: attempt)
                RETURNING id
                """
            ).first() != nil
        }
    }

    /// Records attempt `attempt` of message `id` as failed (retried after a backoff unless `error` is permanent or
    /// the attempts are spent). Returns false, changing nothing, when that attempt no longer holds the message.
    @discardableResult
    func markFailed(id: String, attempt: Int, error: MailDeliveryError, transport: String) async throws -> Bool {
        let now = clock.now()
        let final = error.permanent || attempt >= Self.maxAttempts
        let next = now.addingTimeInterval(Self.retry.delay(afterAttempt: attempt)).millisecondsSince1970
        let message = String(error.description.prefix(1000))
        // A message that will never go out no longer needs its text, which carries a one-time code (the log
        // transport's stay readable for developers, as when sent).
        let dropBody = final && transport != "log"
        return try await database.transaction { tx in
            try await tx.sql.raw(
                """
                UPDATE auth_mail_outbox SET status = \(bind: final ? "failed" : "pending"), next_attempt_at = \(bind: next),
                    last_error = \(bind: message), transport = \(bind: transport), lease_expires_at = NULL\(unsafeRaw: dropBody ? ", body = ''" : "")
                WHERE id = \(bind: id) AND status = 'sending' AND attempts = \(bind: attempt)
                RETURNING id
                """
            ).first() != nil
        }
    }

    /// Deletes delivered and failed messages older than `age`.
    @discardableResult
    func purge(olderThan age: TimeInterval) async throws -> Int {
        let cutoff = clock.now().addingTimeInterval(-age).millisecondsSince1970
        return try await database.transaction { tx in
            try await tx.sql.raw(
                "DELETE FROM auth_mail_outbox WHERE status IN ('sent', 'failed') AND created_at < \(bind: cutoff) RETURNING id"
            ).all().count
        }
    }

    /// Newest first.
    public func list(limit: Int = 50, userId: String? = nil) async throws -> [OutboxMail] {
        let filter: SQLQueryString = userId.map { "WHERE user_id = \(bind: $0)" } ?? ""
        return try await database.sql.raw(
            """
            SELECT id, user_id, kind, recipient, subject, body, status, attempts, transport, last_error, created_at, sent_at
            FROM auth_mail_outbox \(filter) ORDER BY created_at DESC, id DESC LIMIT \(literal: max(1, min(limit, 1000)))
            """
        ).all().map(Self.mail)
    }

    public func mail(id: String) async throws -> OutboxMail? {
        try await database.sql.raw(
            """
            SELECT id, user_id, kind, recipient, subject, body, status, attempts, transport, last_error, created_at, sent_at
            FROM auth_mail_outbox WHERE id = \(bind: id)
            """
        ).first().map(Self.mail)
    }

    static func mail(_ row: any SQLRow) throws -> OutboxMail {
        OutboxMail(
            id: try row.decode(column: "id", as: String.self), userId: try row.decode(column: "user_id", as: String?.self),
            kind: try row.decode(column: "kind", as: String.self), recipient: try row.decode(column: "recipient", as: String.self),
            subject: try row.decode(column: "subject", as: String.self), body: try row.decode(column: "body", as: String.self),
            status: try row.decode(column: "status", as: String.self), attempts: try row.decode(column: "attempts", as: Int.self),
            transport: try row.decode(column: "transport", as: String?.self),
            lastError: try row.decode(column: "last_error", as: String?.self),
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
            sentAt: try row.decode(column: "sent_at", as: Int64?.self).map { Date(millisecondsSince1970: $0) })
    }
}

/// Delivers the outbox: wakes when a message is queued (or every `interval`), sends what is due through the
/// transport, retries temporary failures with backoff, and once an hour forgets messages older than 30 days.
public struct MailSender: Service {
    let outbox: MailOutbox
    let transport: any MailTransport
    var interval: Duration = .seconds(5)
    /// Times the hourly purge and a failed record's retries; the polls wait on the outbox's doorbell.
    let clock: any Clock<Duration>
    let logger: Logger

    public init(
        outbox: MailOutbox, transport: any MailTransport, interval: Duration = .seconds(5), clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger
    ) {
        self.outbox = outbox
        self.transport = transport
        self.interval = interval
        self.clock = clock
        self.logger = logger
    }

    /// Sends every message due now, until the server starts shutting down. Returns how many were attempted
    /// (tests and the CLI).
    @discardableResult
    public func deliverDue(limit: Int = 1000) async throws -> Int {
        var count = 0
        while count < limit, !Task.isShuttingDownGracefully, let (id, attempt, message) = try await outbox.claim() {
            count += 1
            do {
                try await transport.send(message)
            } catch {
                let failure = error as? MailDeliveryError ?? MailDeliveryError(permanent: false, String(describing: error))
                let held = try await outbox.markFailed(id: id, attempt: attempt, error: failure, transport: transport.name)
                logger.warning(
                    "mail delivery failed",
                    metadata: [
                        "event": "mail_failed", "mail_id": "\(id)", "attempt": "\(attempt)", "permanent": "\(failure.permanent)",
                        "error": "\(failure.description)", "lease_kept": "\(held)",
                    ])
                continue
            }
            // Sent (`Bookkeeping`): should recording it fail, the lease expires and the message goes out once more.
            let recorded = await Bookkeeping.retriedBriefly(
                clock: clock, { try await outbox.markSent(id: id, attempt: attempt, transport: transport.name) }
            ) {
                error in
                logger.error(
                    "mail sent but not recorded", metadata: ["event": "mail_record_failed", "mail_id": "\(id)", "error": "\(error)"])
            }
            logger.info(
                "mail sent",
                metadata: [
                    "event": "mail_sent", "mail_id": "\(id)", "transport": "\(transport.name)",
                    "recorded": "\(recorded.map(String.init) ?? "no")",
                ])
        }
        return count
    }

    public func run() async throws {
        let stopwatch = Stopwatch(clock)
        var lastPurge: Duration?
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await deliverDue()
                if lastPurge.map({ stopwatch.elapsed - $0 >= .seconds(3600) }) ?? true {
                    lastPurge = stopwatch.elapsed
                    try await outbox.purge(olderThan: 30 * 24 * 3600)
                }
            } catch {
                logger.error("mail sender error", metadata: ["event": "mail_sender_error", "error": "\(error)"])
            }
            await outbox.doorbell.wait(upTo: interval)
        }
    }
}
