import Analytics
import Contracts
import Foundation
import Platform
import PovverModules
import TestSupport
import Testing

@testable import AnalyticsTool

/// `povver-analytics` on the admin composition (the CLI's path): what `funnel` and `events` print.
@Suite struct AnalyticsToolTests {
    /// Runs `body` with the tool on a new SQLite file, composed as the CLI composes it.
    func withTool(_ body: (AnalyticsTool, AnalyticsModule, Database) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-analytics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        FileManager.default.createFile(atPath: "\(directory.path)/db.sqlite", contents: nil)
        try await AdminComposition.with(
            modules: ["analytics"], environment: [:], databaseURL: "sqlite://\(directory.path)/db.sqlite", label: "test"
        ) { composition in
            try await body(
                try AnalyticsTool(composition: composition), try composition.require(AnalyticsModule.handle), composition.platform.database)
        }
    }

    @Test func funnelPrintsEachStepWithItsConversion() async throws {
        try await withTool { tool, module, database in
            try await ProductFunnelTests.seed(module.product, in: database)
            let output = try await tool.funnel(from: "2026-01-01", to: "2026-01-08")
            #expect(
                output == """
                    funnel 2026-01-01 → 2026-01-08 (to excluded)
                    step                 users  from previous  from first
                    app_opened           6      -              100.0%
                    signup_completed     3      50.0%          50.0%
                    first_conversation   3      100.0%         50.0%
                    first_artifact       2      66.7%          33.3%
                    first_accepted_plan  1      50.0%          16.7%

                    """)
            for (from, to, field) in [
                ("2026-1-01", "2026-01-08", "from"), ("2026-01-01", "2026-02-30", "to"), ("2026-01-08", "2026-01-01", "to"),
            ] {
                let error = await #expect(throws: ServiceError.self) { _ = try await tool.funnel(from: from, to: to) }
                #expect(error?.code == .invalidArgument && error?.details["field"] == field, "\(from) \(to)")
            }
        }
    }

    @Test func eventsPrintsAUsersLatestEventsFirst() async throws {
        try await withTool { tool, module, database in
            try await ProductFunnelTests.seed(module.product, in: database)
            let output = try await tool.events(userId: "u2", limit: 2)
            #expect(
                output == """
                    occurred                  name                source  params             install
                    2026-01-01T16:48:00.000Z  message_sent        client  message_length=20  install-u2
                    2026-01-01T16:48:00.000Z  first_message_sent  server                     install-u2

                    """)
            #expect(try await tool.events(userId: "nobody", limit: 10) == "(none)\n")
            await #expect(throws: ServiceError.self) { _ = try await tool.events(userId: "u2", limit: 0) }
        }
    }
}
