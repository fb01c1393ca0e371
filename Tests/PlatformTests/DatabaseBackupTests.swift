import Contracts
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

/// `Database.backup(to:)` creates its file itself, for its owner only, and never writes through what someone put at
/// its path. (The copy's content and its restore: `BackupTests` in ServerTests.)
@Suite struct DatabaseBackupTests {
    /// A directory of its own for each test, removed afterwards.
    static func inDirectory(_ body: (String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-backup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await body(directory)
    }

    @Test(arguments: TestDatabases.engines)
    func aBackupIsReadableByItsOwnerOnlyAndLeavesNothingElse(engine: SQLEngine) async throws {
        try await Self.inDirectory { directory in
            let path = directory + "/povver.sqlite"
            try await TestDatabases.with(engine) { database in
                try await database.sql.raw("CREATE TABLE platform_backup_probe (id TEXT)").run()
                guard engine == .sqlite else {
                    await expectCode(.failedPrecondition, "a PostgreSQL backup") { try await database.backup(to: path) }
                    return
                }
                try await database.backup(to: path)
            }
            guard engine == .sqlite else {
                #expect(!FileManager.default.fileExists(atPath: path), "PostgreSQL is refused before any file is made")
                return
            }
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = try #require(attributes[.posixPermissions] as? Int)
            #expect(mode == 0o600, "mode \(String(mode, radix: 8))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["povver.sqlite"], "no scratch left behind")
            let copy = try await Database.open(.sqliteFile(path: path), logger: TestDatabases.logger)
            let tables = try await copy.sql.raw("SELECT name FROM sqlite_master WHERE name = 'platform_backup_probe'").all()
            await copy.shutdown()
            #expect(tables.count == 1, "the copy holds the database")
        }
    }

    /// A symbolic link at the backup's path (dangling, so a check for an existing file would pass it) is refused, and
    /// nothing is written where it points.
    @Test func aSymbolicLinkAtThePathIsNeverWrittenThrough() async throws {
        try await Self.inDirectory { directory in
            let path = directory + "/povver.sqlite"
            let elsewhere = directory + "/elsewhere.sqlite"
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: elsewhere)
            try await TestDatabases.with(.sqlite) { database in
                await expectCode(.invalidArgument, "a backup onto a symbolic link", details: ["field": "path"]) {
                    try await database.backup(to: path)
                }
            }
            #expect(!FileManager.default.fileExists(atPath: elsewhere), "nothing written through the link")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path) == elsewhere, "the link is left as it was")
        }
    }
}
