import Contracts
import Foundation
import SQLKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Database {
    /// Writes a consistent copy of an SQLite database to `path` while it serves (`VACUUM INTO`: one read transaction,
    /// so the copy holds every write committed before it began and none after; writers go on meanwhile). The copy is
    /// a plain database file, compacted, ready to start a server on, readable by its owner only (0600).
    ///
    /// `path` is created first, exclusively and without following a symbolic link (`OwnerOnlyFile`); SQLite writes
    /// the copy into a private directory (0700) beside it, which is then copied in through the open file and removed:
    /// nothing anyone puts at `path` meanwhile is written through. Throws `INVALID_ARGUMENT` (field `path`) when
    /// anything is at `path` (nothing is overwritten), `FAILED_PRECONDITION` on PostgreSQL (use `pg_dump`; see
    /// docs/operations.md) or when `path` cannot be created. A failed backup leaves no file behind.
    public func backup(to path: String) async throws {
        guard engine == .sqlite else {
            throw ServiceError(.failedPrecondition, "A PostgreSQL database is backed up with pg_dump or point-in-time recovery.")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = try OwnerOnlyFile(creating: path)
        do {
            let scratch = try Self.privateDirectory(in: directory.path)
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let copy = scratch + "/backup.sqlite"
            try await sql.raw("VACUUM INTO \(bind: copy)").run()
            try file.append(contentsOf: copy)
            try file.finish()
        } catch {
            file.discard()
            throw error
        }
    }

    /// A new directory only its owner may enter (`mkdtemp`, 0700), in `parent`.
    private static func privateDirectory(in parent: String) throws -> String {
        var template = Array("\(parent)/.povver-backup-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ServiceError(.failedPrecondition, "Cannot create a private directory in \(parent): \(String(cString: strerror(errno))).")
        }
        return String(cString: made)
    }
}
