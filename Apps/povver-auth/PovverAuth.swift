import ArgumentParser
import AuthTool
import Contracts
import Foundation
import Logging
import Platform
import PovverModules
import ProcessComposition

/// Admin tool for accounts; reads the server's environment (POVVER_DATABASE_URL, POVVER_SIGNING_KEY_FILE, …).
@main
struct PovverAuth: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "povver-auth", abstract: "Accounts admin: users, the mail outbox, sessions, deletion.",
        subcommands: [Users.self, Outbox.self, Sessions.self, Delete.self])

    struct Options: ParsableArguments {
        @Option(help: "Database URL (default: POVVER_DATABASE_URL or sqlite://./povver.sqlite).")
        var database: String?

        /// `modules`: Auth alone, or every module for a deletion (which erases what each of them keeps).
        func run(modules: [String] = [ModuleName.auth], _ body: (AuthTool) async throws -> String) async throws {
            do {
                let text = try await AdminComposition.with(
                    modules: modules, environment: ProcessInfo.processInfo.environment, databaseURL: database, label: "povver-auth"
                ) { try await body(AuthTool(composition: $0)) }
                print(text, terminator: "")
            } catch {
                // A failed command is not a usage mistake: one line and its own status, no usage text.
                throw ExitCode(CommandLineFailure(error).report(as: "povver-auth"))
            }
        }
    }

    struct Users: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accounts.", subcommands: [List.self, Show.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Accounts, newest first.")
            @OptionGroup var options: Options
            @Option(help: "Only the account with this email.") var email: String?
            @Option var limit: Int = 50

            func run() async throws { try await options.run { try await $0.listUsers(limit: limit, email: email) } }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "One account.")
            @OptionGroup var options: Options
            @Option(help: "User id.") var user: String

            func run() async throws { try await options.run { try await $0.showUser(id: user) } }
        }
    }

    struct Outbox: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Outgoing email (the log transport's messages are read here).", subcommands: [List.self, Show.self])

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Messages, newest first.")
            @OptionGroup var options: Options
            @Option(help: "Only this user's messages.") var user: String?
            @Option var limit: Int = 50

            func run() async throws { try await options.run { try await $0.listOutbox(limit: limit, userId: user) } }
        }

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "One message, with its text (codes and links).")
            @OptionGroup var options: Options
            @Argument(help: "Message id.") var id: String

            func run() async throws { try await options.run { try await $0.showOutbox(id: id) } }
        }
    }

    struct Sessions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sessions.", subcommands: [Revoke.self])

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "End every session of a user.")
            @OptionGroup var options: Options
            @Option(help: "User id.") var user: String

            func run() async throws { try await options.run { try await $0.revokeSessions(userId: user) } }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account and all its data in every module (the durable deletion job).")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String

        func run() async throws { try await options.run(modules: PovverModules.names) { try await $0.deleteUser(userId: user) } }
    }
}
