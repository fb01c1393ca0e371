import CoachTool
import Contracts
import Conversations
import Foundation
import Platform
import PovverModules
import ProcessComposition
import SQLKit
import Subscription
import Synchronization
import TestSupport
import Testing

/// `povver-coach` prints a user's text through `TerminalText`: a conversation titled with escape sequences cannot act
/// on the operator's terminal.
@Suite struct CoachToolOutputTests {
    @Test func conversationsPrintAHostileTitleEscaped() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-coach-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        FileManager.default.createFile(atPath: "\(directory.path)/db.sqlite", contents: nil)
        try await AdminComposition.with(
            modules: ["auth", "subscription", "conversations", "workouts", "analytics"],
            environment: ["POVVER_SIGNING_KEY_FILE": "\(directory.path)/key.pem"], databaseURL: "sqlite://\(directory.path)/db.sqlite",
            label: "test"
        ) { composition in
            let tool = try CoachTool(composition: composition)
            _ = try await composition.module(SubscriptionModule.self).service.setOverride(userId: "coach-user", override: "premium")
            let conversation = try #require(
                try await tool.turn(userId: "coach-user", message: "hello", conversationId: nil, workoutId: nil, write: { _ in }))
            try await composition.platform.database.sql.raw(
                "UPDATE conversations_threads SET title = \(bind: "Plan\u{1B}]0;owned\u{07}\u{9B}2J") WHERE id = \(bind: conversation)"
            ).run()
            let listed = try await tool.conversations(userId: "coach-user", limit: 10)
            #expect(!listed.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }, "\(listed)")
            #expect(listed.contains(#"Plan\u{1B}]0;owned\u{07}\u{9B}2J"#))
        }
    }
}
