import Analytics
import AnalyticsTool
import ArgumentParser
import Auth
import Foundation
import Logging
import Platform
import ProcessComposition
import Workouts

/// Admin tool for analytics; reads the server's environment (POVVER_DATABASE_URL, …).
@main
struct PovverAnalytics: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "povver-analytics",
        abstract: "Analytics: rebuild training analytics, the activation funnel, a user's product events.",
        subcommands: [Rebuild.self, Funnel.self, Events.self])

    struct Options: ParsableArguments {
        @Option(help: "Database URL (default: POVVER_DATABASE_URL or sqlite://./povver.sqlite).")
        var database: String?

        func run(_ body: (AnalyticsTool) async throws -> String) async throws {
            do {
                let text = try await AdminComposition.with(
                    definitions: {
                        [
                            try AuthModule.definition(environment: $0), try WorkoutsModule.definition(environment: $0),
                            try AnalyticsModule.definition(environment: $0),
                        ]
                    }, environment: ProcessInfo.processInfo.environment,
                    databaseURL: database,
                    label: "povver-analytics"
                ) { try await body(AnalyticsTool(composition: $0)) }
                print(text, terminator: "")
            } catch {
                // A failed command is not a usage mistake: one line and its own status, no usage text.
                throw ExitCode(CommandLineFailure(error).report(as: "povver-analytics"))
            }
        }
    }

    struct Rebuild: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute training analytics from the history: one user (--user) or every user with a history (--all).")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String?
        @Flag(help: "Every user with a history.") var all = false
        @Option(help: "With --all: resume after this user id.") var after: String?

        func validate() throws {
            guard (user == nil) != !all else { throw ValidationError("Give either --user ID or --all.") }
        }

        func run() async throws {
            try await options.run { tool in
                if let user {
                    return try await tool.rebuild(userId: user, progress: ProgressReport(label: "rebuild", unit: "workouts read"))
                }
                return try await tool.rebuildAll(after: after, progress: ProgressReport(label: "rebuild", unit: "users"))
            }
        }
    }

    struct Funnel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "App open → signup → first conversation → first artifact → first accepted plan, over [from, to).")
        @OptionGroup var options: Options
        @Option(help: "First day, YYYY-MM-DD (UTC).") var from: String
        @Option(help: "Day after the last, YYYY-MM-DD (UTC).") var to: String

        func run() async throws { try await options.run { try await $0.funnel(from: from, to: to) } }
    }

    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A user's latest product events, newest first.")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option var limit: Int = 50

        func run() async throws { try await options.run { try await $0.events(userId: user, limit: limit) } }
    }
}
