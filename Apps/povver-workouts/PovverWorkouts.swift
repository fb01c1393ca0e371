import ArgumentParser
import Foundation
import Logging
import Platform
import WorkoutsTool

/// Admin tool for the Workouts module; reads POVVER_DATABASE_URL like the server.
@main
struct PovverWorkouts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "povver-workouts", abstract: "Workouts admin: catalog, templates, history.",
        subcommands: [Catalog.self, Templates.self, History.self, ImportCatalog.self, Import.self])

    struct Options: ParsableArguments {
        @Option(help: "Database URL (default: POVVER_DATABASE_URL or sqlite://./povver.sqlite).")
        var database: String = ProcessInfo.processInfo.environment["POVVER_DATABASE_URL"] ?? "sqlite://./povver.sqlite"

        func run(_ body: (WorkoutsTool) async throws -> String) async throws {
            var logger = Logger(label: "povver-workouts")
            logger.logLevel = .warning
            let text: String
            do {
                let tool = try await WorkoutsTool.open(url: database, logger: logger)
                do {
                    text = try await body(tool)
                } catch {
                    await tool.close()
                    throw error
                }
                await tool.close()
            } catch {
                // A failed command is not a usage mistake: one line and its own status, no usage text.
                throw ExitCode(CommandLineFailure(error).report(as: "povver-workouts"))
            }
            print(text, terminator: "")
        }
    }

    struct Catalog: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Search the exercise catalog.", subcommands: [Search.self])

        struct Search: AsyncParsableCommand {
            @OptionGroup var options: Options
            @Argument(help: "Name to search for (prefix- and typo-tolerant).") var query: String?
            @Option var muscle: String?
            @Option var equipment: String?
            @Option var category: String?
            @Option(help: "Results per page (1 to 100).") var limit: Int = 20
            @Option(help: "The next page: the cursor the previous page printed (same query and filters).") var cursor: String?

            func run() async throws {
                try await options.run {
                    try await $0.searchCatalog(
                        query: query, muscle: muscle, equipment: equipment, category: category, limit: limit, cursor: cursor)
                }
            }
        }
    }

    struct Templates: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A user's templates.", subcommands: [List.self])

        struct List: AsyncParsableCommand {
            @OptionGroup var options: Options
            @Option(help: "User id.") var user: String

            func run() async throws { try await options.run { try await $0.listTemplates(userId: user) } }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A user's completed workouts, newest first.")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option(help: "Workouts per page (1 to 100).") var limit: Int = 20
        @Option(help: "The next page: the cursor the previous page printed.") var cursor: String?

        func run() async throws { try await options.run { try await $0.history(userId: user, limit: limit, cursor: cursor) } }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a user's history exported from Strong or Hevy (CSV); shows progress, lists what was skipped.")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option(help: "strong or hevy.") var format: String
        @Option(name: .customLong("weight-unit"), help: "kg or lb: the unit of a Strong file's weights (kg when not given).")
        var weightUnit: String?
        @Option(name: .customLong("time-zone"), help: "The time zone the file's times are in (IANA name; UTC when not given).")
        var timeZone: String?
        @Argument(help: "Path to the CSV file.") var file: String

        func run() async throws {
            try await options.run {
                try await $0.importHistory(
                    userId: user, format: format, path: file, weightUnit: weightUnit, timeZone: timeZone,
                    progress: ProgressReport(label: "import", unit: "workouts"))
            }
        }
    }

    struct ImportCatalog: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-catalog", abstract: "Validate a catalog file (free-exercise-db JSON) and upsert it.")
        @OptionGroup var options: Options
        @Argument(help: "Path to the JSON file.") var file: String

        func run() async throws { try await options.run { try await $0.importCatalog(path: file) } }
    }
}
