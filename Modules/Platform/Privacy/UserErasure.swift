import Contracts
import Foundation
import SQLKit

/// Erasing a user's data from every module with tables in this database, each in a process that composes it.
///
/// Account deletion runs a pass (`run`) and ends the account only once the pass is complete. A pass runs
/// Platform's eraser first (the user's events and queued jobs: nothing of the user is delivered afterwards), then
/// records a row in `platform_erasures` for each module the migrations table knows (a module is known there from
/// the first time any process composed it, and stays) and for each module composed here. The modules this
/// process composes are erased right away; each other one gets a job of kind `platform.erase:<module>`, which only
/// a worker of a process composing that module claims (`JobQueue.claim` takes only the kinds a worker has).
/// A module confirms by stamping its row, and the last confirmation of a pass makes the waiting job (the
/// deletion's) due at once. A module that no running process composes leaves the pass waiting, and the deletion
/// failing after its attempts for operators to see, rather than ending an account whose rows stay behind.
///
/// The rows name the user; the jobs name only the ticket and the pass. Every step is idempotent: a pass asked
/// for again records and queues nothing twice, a job whose module has confirmed (or whose pass was forgotten)
/// does nothing, and a module's job that failed for good is queued again by the next attempt of the pass.
public struct UserErasure: Sendable {
    /// The job kinds of modules' erasures start with this.
    public static let jobKindPrefix = "platform.erase"
    static let maxAttempts = 60
    static let retry = RetryPolicy(base: 10, cap: 1800)

    let queue: JobQueue
    var database: Database { queue.database }

    public init(queue: JobQueue) {
        self.queue = queue
    }

    /// The kind of `module`'s erasure jobs.
    public static func jobKind(module: String) -> String { "\(jobKindPrefix):\(module)" }

    /// A pass that some module has not confirmed yet.
    public struct Waiting: Error, CustomStringConvertible, Equatable {
        public var modules: [String]

        public init(modules: [String]) {
            self.modules = modules
        }

        public var description: String {
            "waiting for \(modules.joined(separator: ", ")) to erase the user's data: a process composing each runs "
                + "its jobs (\(modules.map { UserErasure.jobKind(module: $0) }.joined(separator: ", ")))"
        }
    }

    struct Payload: Codable {
        var ticket: String
        var pass: Int
    }

    /// Runs pass `pass` of the erasure `ticket` of `userId` as far as this process can: Platform's eraser, then the
    /// erasers of the modules composed here (`here`), and a job for each other module with tables; modules in
    /// `excluding` (the caller's own, erased last) take no part. `waitingJob` is made due when the last module
    /// confirms. Returns the modules that have not confirmed yet (empty: the pass is complete).
    public func run(
        pass: Int, ticket: String, userId: String, waitingJob: String, here: UserDataErasers, excluding: Set<String>
    ) async throws -> [String] {
        try await PlatformUserDataEraser(database: database).eraseUserData(userId: userId)
        let local = here.modules.filter { !excluding.contains($0.module) }
        let localNames = Set(local.map(\.module))
        let remote = try await modulesWithTables().filter { !excluding.contains($0) && !localNames.contains($0) }
        let now = queue.clock.now().millisecondsSince1970
        let queue = self.queue
        let payload = try JSONCoding.encodeToString(Payload(ticket: ticket, pass: pass))
        try await database.transaction { tx in
            for module in local.map(\.module) + remote {
                try await tx.sql.raw(
                    """
                    INSERT INTO platform_erasures (ticket, pass, module, user_id, waiting_job, requested_at)
                    VALUES (\(bind: ticket), \(bind: pass), \(bind: module), \(bind: userId), \(bind: waitingJob), \(bind: now))
                    ON CONFLICT (ticket, pass, module) DO NOTHING
                    """
                ).run()
            }
            for module in remote {
                let id = "\(Self.jobKindPrefix):\(ticket):\(pass):\(module)"
                try await queue.enqueue(
                    NewJob(id: id, kind: Self.jobKind(module: module), payload: payload, maxAttempts: Self.maxAttempts), in: tx)
                try await queue.requeueIfFailed(id: id, in: tx)
            }
        }
        for module in local {
            try await erase(module, ticket: ticket, pass: pass)
        }
        return try await database.sql.raw(
            """
            SELECT module FROM platform_erasures WHERE ticket = \(bind: ticket) AND pass = \(bind: pass) AND erased_at IS NULL
            ORDER BY module
            """
        ).all(decodingColumn: "module", as: String.self)
    }

    /// Forgets every pass of `ticket` (in the caller's transaction, which ends the pass): its rows name the user.
    public func forget(ticket: String, in tx: Transaction) async throws {
        try await tx.sql.raw("DELETE FROM platform_erasures WHERE ticket = \(bind: ticket)").run()
    }

    /// The modules with tables in this database (their migrations are recorded), Platform aside.
    public func modulesWithTables() async throws -> [String] {
        try await database.sql.raw("SELECT DISTINCT module FROM platform_migrations WHERE module <> 'platform' ORDER BY module")
            .all(decodingColumn: "module", as: String.self)
    }

    /// Erases `module`'s part of the pass if it has not confirmed it, and confirms it.
    func erase(_ module: ModuleEraser, ticket: String, pass: Int) async throws {
        guard
            let userId = try await database.sql.raw(
                """
                SELECT user_id FROM platform_erasures
                WHERE ticket = \(bind: ticket) AND pass = \(bind: pass) AND module = \(bind: module.module) AND erased_at IS NULL
                """
            ).first(decodingColumn: "user_id", as: String.self)
        else { return }  // confirmed already, or the pass is over
        try await module.eraser?.eraseUserData(userId: userId)
        try await confirm(module.module, ticket: ticket, pass: pass)
    }

    /// Stamps `module`'s row of the pass; the last one stamped makes the waiting job due now. The pass's rows are
    /// locked first (on PostgreSQL; SQLite has one writer), so of two modules confirming at once the later one sees
    /// the other's stamp and wakes the job.
    func confirm(_ module: String, ticket: String, pass: Int) async throws {
        let now = queue.clock.now().millisecondsSince1970
        let lock = database.engine == .postgres ? " FOR UPDATE" : ""
        try await database.transaction { tx in
            let rows = try await tx.sql.raw(
                """
                SELECT module, waiting_job, erased_at FROM platform_erasures WHERE ticket = \(bind: ticket) AND pass = \(bind: pass)
                ORDER BY module\(unsafeRaw: lock)
                """
            ).all()
            try await tx.sql.raw(
                """
                UPDATE platform_erasures SET erased_at = \(bind: now)
                WHERE ticket = \(bind: ticket) AND pass = \(bind: pass) AND module = \(bind: module) AND erased_at IS NULL
                """
            ).run()
            var waitingJob: String?
            for row in rows {
                let other = try row.decode(column: "module", as: String.self)
                if other != module, try row.decode(column: "erased_at", as: Int64?.self) == nil { return }
                waitingJob = try row.decode(column: "waiting_job", as: String.self)
            }
            guard let waitingJob else { return }
            try await tx.sql.raw(
                """
                UPDATE platform_jobs SET run_at = \(bind: now), updated_at = \(bind: now)
                WHERE id = \(bind: waitingJob) AND status = 'queued' AND run_at > \(bind: now)
                """
            ).run()
        }
    }

    /// The jobs a worker runs for the modules of its composition: one kind per module, claimed only where it is
    /// composed.
    public static func jobs(modules: [ModuleEraser], queue: JobQueue) -> [JobDefinition] {
        let erasure = UserErasure(queue: queue)
        return modules.map { module in
            // An erasure may take a while for a user with years of history; its lease is renewed meanwhile.
            JobDefinition(kind: jobKind(module: module.module), lease: 60, timeout: 3600, retry: retry) { job in
                let payload = try JSONCoding.decode(Payload.self, from: job.payload)
                try await erasure.erase(module, ticket: payload.ticket, pass: payload.pass)
            }
        }
    }
}
