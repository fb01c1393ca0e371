import Analytics
import ArgumentParser
import Auth
import Foundation
import Logging
import Platform
import ProcessComposition
import Recommendations
import RecommendationsTool
import ServiceLifecycle
import Subscription
import UnixSignals
import Workouts

/// Admin tool for the training analyst; reads the server's environment (POVVER_DATABASE_URL, …).
@main
struct PovverRecommendations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "povver-recommendations",
        abstract: "The training analyst: job workers, the scheduler, backfills, the job list, the expiry sweep.",
        subcommands: [Worker.self, Scheduler.self, Backfill.self, Jobs.self, Sweep.self])

    /// Recommendations with what it consumes.
    static func modules(_ environment: [String: String]) throws -> [ModuleDefinition] {
        [
            try AuthModule.definition(environment: environment), try SubscriptionModule.definition(environment: environment),
            try WorkoutsModule.definition(environment: environment), try RecommendationsModule.definition(environment: environment),
            try AnalyticsModule.definition(environment: environment),
        ]
    }

    struct Options: ParsableArguments {
        @Option(help: "Database URL (default: POVVER_DATABASE_URL or sqlite://./povver.sqlite).")
        var database: String?

        func run(_ body: (RecommendationsTool) async throws -> String) async throws {
            do {
                let text = try await AdminComposition.with(
                    definitions: PovverRecommendations.modules, environment: ProcessInfo.processInfo.environment, databaseURL: database,
                    label: "povver-recommendations"
                ) { try await body(RecommendationsTool(composition: $0)) }
                print(text, terminator: "")
            } catch {
                throw ExitCode(CommandLineFailure(error).report(as: "povver-recommendations"))
            }
        }
    }

    struct Worker: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Run the analyst's jobs (post-workout, daily brief, weekly review, scheduler passes) until SIGTERM/SIGINT; several may run at once on PostgreSQL.",
            discussion: "With --drain: run the jobs due now, then exit.")
        @OptionGroup var options: Options
        @Flag(help: "Run what is due, then exit.") var drain = false
        @Option(help: "The worker's name in logs and leases (default: recommendations-<pid>).") var name: String?

        func run() async throws {
            let name = self.name ?? "recommendations-\(ProcessInfo.processInfo.processIdentifier)"
            try await options.run { tool in
                if drain { return try await tool.drain(name: name) }
                var logger = Logger(label: "povver-recommendations")
                logger.logLevel = .info
                let group = ServiceGroup(
                    services: [tool.worker(name: name)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
                try await group.run()
                return "\(name): stopped\n"
            }
        }
    }

    struct Scheduler: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One scheduler pass now: queue the daily briefs and weekly reviews due in each user's time zone (idempotent).")
        @OptionGroup var options: Options

        func run() async throws {
            try await options.run { try await $0.schedule(progress: ProgressReport(label: "scheduler", unit: "users")) }
        }
    }

    struct Backfill: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Queue the analysis of a user's last months: every workout, and the weeks still within the reviews' 30 days (idempotent).")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option(help: "Months back, 1–120.") var months: Int = 3

        func run() async throws {
            try await options.run {
                try await $0.backfill(userId: user, months: months, progress: ProgressReport(label: "backfill", unit: "workouts"))
            }
        }
    }

    struct Jobs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The analyst's jobs.", subcommands: [List.self, Retry.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "The analyst's jobs, most recently changed first.")
            @OptionGroup var options: Options
            @Option(help: "queued, leased, done or failed.") var status: String?
            @Option(help: "User id.") var user: String?
            @Option var limit: Int = 50

            func run() async throws { try await options.run { try await $0.jobs(status: status, userId: user, limit: limit) } }
        }

        struct Retry: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Queue a failed job again from its first attempt.")
            @OptionGroup var options: Options
            @Argument(help: "Job id.") var id: String

            func run() async throws { try await options.run { try await $0.retry(id: id) } }
        }
    }

    struct Sweep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Expire recommendations pending for 7 days and delete analysis notes past their TTL (the servers do it hourly).")
        @OptionGroup var options: Options

        func run() async throws { try await options.run { try await $0.sweep() } }
    }
}
