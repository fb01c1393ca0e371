import Analytics
import ArgumentParser
import Auth
import CoachTool
import Conversations
import Foundation
import Logging
import Platform
import ProcessComposition
import Subscription
import Workouts

/// The coach from a terminal, as a user; reads the server's environment (POVVER_DATABASE_URL, …).
@main
struct PovverCoach: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "povver-coach", abstract: "Chat with the coach as a user, and list their conversations.",
        subcommands: [Chat.self, Conversations.self, Memory.self])

    static func modules(_ environment: [String: String]) throws -> [ModuleDefinition] {
        [
            try AuthModule.definition(environment: environment), try SubscriptionModule.definition(environment: environment),
            try ConversationsModule.definition(environment: environment), try WorkoutsModule.definition(environment: environment),
            try AnalyticsModule.definition(environment: environment),
        ]
    }

    struct Options: ParsableArguments {
        @Option(help: "Database URL (default: POVVER_DATABASE_URL or sqlite://./povver.sqlite).")
        var database: String?

        func run(_ body: (CoachTool) async throws -> Void) async throws {
            do {
                try await AdminComposition.with(
                    definitions: PovverCoach.modules, environment: ProcessInfo.processInfo.environment, databaseURL: database,
                    label: "povver-coach"
                ) { try await body(try CoachTool(composition: $0)) }
            } catch {
                // A failed command is not a usage mistake: one line and its own status, no usage text.
                throw ExitCode(CommandLineFailure(error).report(as: "povver-coach"))
            }
        }
    }

    struct Chat: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "A terminal chat streaming the coach's answers (--message: one turn, for scripts; otherwise a line per turn until EOF).")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option(help: "One message, then exit.") var message: String?
        @Option(help: "Continue this conversation (default: a new one).") var conversation: String?
        @Option(help: "Workout mode: the workout in progress.") var workout: String?

        func run() async throws {
            try await options.run { tool in
                let write: @Sendable (String) -> Void = { text in
                    FileHandle.standardOutput.write(Data(text.utf8))
                }
                if let message {
                    try await tool.turn(userId: user, message: message, conversationId: conversation, workoutId: workout, write: write)
                    return
                }
                var conversationId = conversation
                write("Chatting as \(user). Type a message; an empty line or end of input quits.\n> ")
                while let line = readLine(), !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    conversationId = try await tool.turn(
                        userId: user, message: line, conversationId: conversationId, workoutId: workout, write: write)
                    write("> ")
                }
            }
        }
    }

    struct Memory: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "What a user told the coach (equipment, days, goal, injuries …).")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option(help: "Forget this fact first (equipment, days, session_minutes, goal, experience, injuries, dislikes).")
        var forget: [String] = []

        func run() async throws {
            try await options.run { tool in print(try await tool.memory(userId: user, forget: forget), terminator: "") }
        }
    }

    struct Conversations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A user's conversations, most recent first.")
        @OptionGroup var options: Options
        @Option(help: "User id.") var user: String
        @Option var limit: Int = 20

        func run() async throws {
            try await options.run { tool in print(try await tool.conversations(userId: user, limit: limit), terminator: "") }
        }
    }
}
