import Contracts
import Foundation
import SQLKit
import Synchronization

/// One open transaction. Everything done through `sql` commits or rolls back together, including the domain
/// events published with `publish`.
public final class Transaction: Sendable {
    public let sql: any SQLDatabase
    public let engine: SQLEngine
    private let published = Mutex(false)
    private let commitHooks = Mutex<[@Sendable () -> Void]>([])
    private let rollbackHooks = Mutex<[@Sendable () -> Void]>([])

    init(sql: any SQLDatabase, engine: SQLEngine) {
        self.sql = sql
        self.engine = engine
    }

    var publishedEvents: Bool { published.withLock { $0 } }

    /// Runs `hook` once this transaction has committed (never if it rolls back): for caches of what it wrote, or
    /// to wake a worker for it. On SQLite the hook runs once the commit is on disk (`synchronous = FULL`), and it
    /// never runs if that fails; it still runs before the write is answered.
    public func afterCommit(_ hook: @escaping @Sendable () -> Void) {
        commitHooks.withLock { $0.append(hook) }
    }

    func runCommitHooks() {
        for hook in commitHooks.withLock({ $0 }) { hook() }
    }

    /// Runs `hook` if what was written through this transaction is discarded instead of committed (the body
    /// threw, or the commit failed): for a cache updated as the write happened.
    public func onRollback(_ hook: @escaping @Sendable () -> Void) {
        rollbackHooks.withLock { $0.append(hook) }
    }

    func runRollbackHooks() {
        for hook in rollbackHooks.withLock({ hooks in
            defer { hooks.removeAll() }
            return hooks
        }) { hook() }
    }

    /// Appends a domain event to the outbox in this transaction (transactional outbox): it is delivered to
    /// its subscribers at least once after the transaction commits, and never if it rolls back.
    public func publish<Event: DomainEvent>(_ event: Event, id: String, occurredAt: Date) async throws {
        let payload = try JSONCoding.encodeToString(event)
        try await sql.raw(
            """
            INSERT INTO platform_outbox (id, type, payload, occurred_at, user_id)
            VALUES (\(bind: id), \(bind: Event.eventType), \(bind: payload), \(bind: occurredAt.millisecondsSince1970), \(bind: event.userId))
            """
        ).run()
        published.withLock { $0 = true }
    }
}

/// Callbacks run after a commit that published events.
final class AfterCommitHooks: Sendable {
    private let hooks = Mutex<[@Sendable () -> Void]>([])

    func add(_ hook: @escaping @Sendable () -> Void) { hooks.withLock { $0.append(hook) } }

    func runEventHooks() {
        for hook in hooks.withLock({ $0 }) { hook() }
    }
}
