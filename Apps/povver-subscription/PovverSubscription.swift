import ArgumentParser
import Auth
import Foundation
import Logging
import Platform
import ProcessComposition
import Subscription
import SubscriptionTool

/// Admin tool for subscriptions; reads the server's environment (POVVER_DATABASE_URL, POVVER_APPSTORE_*, …).
@main
struct PovverSubscription: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "povver-subscription",
        abstract: "Subscriptions admin: overrides, status, the audit trail, verifying signed App Store data.",
        subcommands: [Override.self, Status.self, Events.self, Verify.self])

    struct Options: ParsableArguments {
        @Option(help: "Database URL (default: POVVER_DATABASE_URL or sqlite://./povver.sqlite).")
        var database: String?

        func run(_ body: (SubscriptionTool) async throws -> String) async throws {
            do {
                // Subscription, and Auth for its account directory (no command runs on an id that names no account).
                let text = try await AdminComposition.with(
                    definitions: { [try AuthModule.definition(environment: $0), try SubscriptionModule.definition(environment: $0)] },
                    environment: ProcessInfo.processInfo.environment,
                    databaseURL: database,
                    label: "povver-subscription"
                ) { try await body(SubscriptionTool(composition: $0)) }
                print(text, terminator: "")
            } catch {
                // A failed command is not a usage mistake: one line and its own status, no usage text.
                throw ExitCode(CommandLineFailure(error).report(as: "povver-subscription"))
            }
        }
    }

    struct Override: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The operator's premium override.", subcommands: [Set.self, Clear.self])

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Grant premium whatever the App Store says.")
            @OptionGroup var options: Options
            @Option(help: "User id.") var user: String

            func run() async throws { try await options.run { try await $0.setOverride(userId: user, premium: true) } }
        }

        struct Clear: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Respect the App Store state again.")
            @OptionGroup var options: Options
            @Option(help: "User id.") var user: String

            func run() async throws { try await options.run { try await $0.setOverride(userId: user, premium: false) } }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A user's subscription state.")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String

        func run() async throws { try await options.run { try await $0.status(userId: user) } }
    }

    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A user's notifications, syncs and overrides, newest first.")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option var limit: Int = 100

        func run() async throws { try await options.run { try await $0.events(userId: user, limit: limit) } }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Verify a signed payload (a JWS, or a webhook body) against the configured roots and app identity, and print it decoded.")
        @OptionGroup var options: Options
        @Argument(help: "A file holding the signed payload, or - for standard input.") var file: String

        func run() async throws {
            let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
            let input = String(decoding: data, as: UTF8.self)
            try await options.run { try await $0.verify(input) }
        }
    }
}
