import Analytics
import Auth
import Contracts
import Foundation
import Platform
import PovverModules
import ProcessComposition
import SQLKit
import Synchronization
import TestSupport
import Testing
import Workouts

@testable import AnalyticsTool

/// `povver-analytics` on the admin composition (the CLI's path): what `funnel` and `events` print.
@Suite struct AnalyticsToolTests {
    /// Runs `body` with the tool on a new SQLite file, composed as the CLI composes it.
    func withTool(_ body: (AnalyticsTool, AnalyticsModule, Database, Composition) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-analytics-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        FileManager.default.createFile(atPath: "\(directory.path)/db.sqlite", contents: nil)
        try await AdminComposition.with(
            modules: ["auth", "workouts", "analytics"], environment: ["POVVER_SIGNING_KEY_FILE": "\(directory.path)/key.pem"],
            databaseURL: "sqlite://\(directory.path)/db.sqlite", label: "test"
        ) { composition in
            try await body(
                try AnalyticsTool(composition: composition), try composition.module(AnalyticsModule.self), composition.platform.database,
                composition)
        }
    }

    /// `rebuild --user` and `rebuild --all` on a history imported from a Strong file.
    @Test func rebuildRecomputesOneUserOrEveryUserWithAHistory() async throws {
        let strong = """
            Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
            2026-01-05 18:00:00,A,1h,Squat (Barbell),1,100,5,0,0,,,
            2026-01-07 18:00:00,B,1h,Bench Press (Barbell),1,80,5,0,0,,,8
            """
        try await withTool { tool, module, database, composition in
            let workouts = try composition.module(WorkoutsModule.self)
            let auth = try composition.module(AuthModule.self)
            var users: [String] = []
            for email in ["a@example.com", "b@example.com"] {
                let user = try await auth.service.signUp(email: email, password: "secret-password", name: nil, timeZone: nil).user.id
                _ = try await workouts.importer.importFile(
                    userId: user, format: "strong_csv", content: strong, weightUnit: nil, timeZone: nil)
                users.append(user)
            }
            let lines = Mutex<[String]>([])
            let progress = ProgressReport(label: "rebuild", unit: "users", terminal: false) { line in lines.withLock { $0.append(line) } }
            #expect(try await tool.rebuildAll(progress: progress) == "rebuilt 2 users\n")
            #expect(lines.withLock { $0 }.last?.hasPrefix("rebuild 100% 2/2 users") == true, "\(lines.withLock { $0 })")
            for user in users {
                let facts = try await database.sql.raw("SELECT COUNT(*) AS n FROM analytics_set_facts WHERE user_id = \(bind: user)")
                    .first(decodingColumn: "n", as: Int.self)
                #expect(facts == 2)
            }
            #expect(try await tool.rebuild(userId: users[0]) == "rebuilt \(users[0]): 2 workouts\n")
        }
    }

    @Test func funnelPrintsEachStepWithItsConversion() async throws {
        try await withTool { tool, module, database, _ in
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
        try await withTool { tool, module, database, _ in
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
