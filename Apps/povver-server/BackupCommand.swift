import Foundation
import Logging
import Platform

/// `povver-server backup FILE`: a consistent copy of the configured SQLite database, taken while servers write to
/// it. Exit status: 0 written; 65 refused (the file exists, the database is PostgreSQL); 70 anything else.
enum BackupCommand {
    static func run(to path: String, environment: [String: String]) async -> Int32 {
        var logger = Logger(label: "povver-server")
        logger.logLevel = .warning
        do {
            let config = try AppConfig.fromEnvironment(environment)
            try config.database.requireExistingFile()
            let database = try await Database.open(config.database, maxConnectionsPerEventLoop: 1, logger: logger)
            do {
                try await database.backup(to: path)
                await database.shutdown()
            } catch {
                await database.shutdown()
                throw error
            }
            print("backed up to \(path)")
            return 0
        } catch {
            return CommandLineFailure(error).report(as: "povver-server")
        }
    }
}
