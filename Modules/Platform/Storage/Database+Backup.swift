import Contracts
import Foundation
import SQLKit

extension Database {
    /// Writes a consistent copy of an SQLite database to `path` while it serves (`VACUUM INTO`: one read transaction,
    /// so the copy holds every write committed before it began and none after; writers go on meanwhile). The copy is
    /// a plain database file, compacted, ready to start a server on. Throws `INVALID_ARGUMENT` (field `path`) when the
    /// file exists (nothing is overwritten), `FAILED_PRECONDITION` on PostgreSQL (use `pg_dump`; see
    /// docs/operations.md).
    public func backup(to path: String) async throws {
        guard engine == .sqlite else {
            throw ServiceError(.failedPrecondition, "A PostgreSQL database is backed up with pg_dump or point-in-time recovery.")
        }
        guard !FileManager.default.fileExists(atPath: path) else {
            throw ServiceError.invalidArgument(field: "path", reason: "exists already", message: "The backup file \(path) exists already.")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await sql.raw("VACUUM INTO \(bind: path)").run()
    }
}
