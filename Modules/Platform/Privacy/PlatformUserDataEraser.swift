import Contracts
import Foundation
import SQLKit

/// Erases what Platform holds about a user: the domain events about them and those events' delivery jobs.
///
/// Account deletion runs it before the modules' erasers, so no event of the user can be delivered after a
/// module has erased its rows (a delivery re-creating data). A delivery that is running right now cannot be
/// stopped: then this eraser throws `RetryLater`, and the deletion job tries again after its backoff.
public struct PlatformUserDataEraser: UserDataEraser {
    public let module = "platform"
    let database: Database

    /// A job of the user is running; erase again once it has finished.
    public struct RetryLater: Error, CustomStringConvertible {
        public var runningJobs: Int
        public var description: String { "\(runningJobs) background job(s) of the user are running; retry later" }
    }

    public init(database: Database) {
        self.database = database
    }

    public func eraseUserData(userId: String) async throws {
        let running = try await database.transaction { tx -> Int in
            try await tx.sql.raw("DELETE FROM platform_outbox WHERE user_id = \(bind: userId)").run()
            try await tx.sql.raw("DELETE FROM platform_jobs WHERE user_id = \(bind: userId) AND status <> 'leased'").run()
            return try await tx.sql.raw(
                "SELECT COUNT(*) AS n FROM platform_jobs WHERE user_id = \(bind: userId) AND status = 'leased'"
            ).first(decodingColumn: "n", as: Int.self) ?? 0
        }
        if running > 0 { throw RetryLater(runningJobs: running) }
    }
}
