import AsyncHTTPClient
import Auth
import Contracts
import Foundation
import NIOPosix
import Platform
import PovverApp
import PovverModules
import ProcessComposition
import Recommendations
import RecommendationsTool
import SQLKit
import TestSupport
import Testing

/// `povver-recommendations` on the server's composition, and as separate worker processes on PostgreSQL.
@Suite struct RecommendationsToolTests {
    /// A premium user's history backfilled through the tool (idempotent), run by the tool's worker, listed.
    @Test(arguments: TestDatabases.engines)
    func backfillRunAndListTheAnalystsJobs(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let (token, userId) = try await RecommendationsFlowTests.premiumUser(server, client, "tool@example.com")
            let (_, routine) = try await RecommendationsFlowTests.routine(client, weight: 80, token: token)
            try await RecommendationsFlowTests.train(client, routine: routine, weight: 80, reps: 5, rir: 2, key: "a", token: token)
            try await RecommendationsFlowTests.settle(server)
            let tool = try RecommendationsTool(composition: server.composition)

            // The live job analysed the workout already: a backfill over it queues only the weeks.
            let backfill = try await tool.backfill(userId: userId, months: 3)
            #expect(backfill.contains("1 workouts") && backfill.contains("were queued before"), "\(backfill)")
            #expect(try await tool.backfill(userId: userId, months: 3).contains("0 jobs queued"), "idempotent")
            let ran = try await tool.drain(name: "cli-worker")
            #expect(ran.hasPrefix("cli-worker: ran "), "\(ran)")
            let listed = try await tool.jobs(status: "done", userId: userId, limit: 50)
            #expect(listed.contains("pw:") && listed.contains("POST_WORKOUT"), "\(listed)")
        }
    }

    /// A job that cannot run fails after its attempts; `jobs list --status failed` shows it, `jobs retry` queues it
    /// again once. On a composition with no server around it, so no other worker takes the job meanwhile.
    @Test(arguments: TestDatabases.engines)
    func aFailedJobIsListedAndRetried(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine) { database in
            let platform = TestComposition.platform(database, clock: SystemClock())
            let composition = try await Composition.build(
                try PovverModules.definitions(
                    ["auth", "subscription", "workouts", "recommendations", "analytics"], environment: [:], signingKey: .generate()),
                platform: platform)
            let tool = try RecommendationsTool(composition: composition)
            try await platform.jobs.enqueue(
                NewJob(id: "pw:broken", kind: AnalystJobs.postWorkout, payload: "{}", maxAttempts: 1, userId: "u1"))
            #expect(try await tool.drain(name: "cli-worker") == "cli-worker: ran 1 jobs\n")
            #expect(try await tool.jobs(status: "failed", userId: "u1", limit: 5).contains("pw:broken"))
            #expect(try await tool.retry(id: "pw:broken") == "queued pw:broken again\n")
            #expect(try await platform.jobs.job(id: "pw:broken")?.status == .queued)
            await expectCode(.failedPrecondition, "a job that is not failed") { _ = try await tool.retry(id: "pw:broken") }
            await expectCode(.notFound, "no such job") { _ = try await tool.retry(id: "no-such-job") }
            await expectCode(.invalidArgument, "a bad status") { _ = try await tool.jobs(status: "stuck", userId: nil, limit: 5) }
            #expect(try await tool.sweep() == "expired 0 recommendations, removed 0 analysis notes\n")
        }
    }

    /// Two `povver-recommendations worker --drain` processes over 1,000 queued analyses on one PostgreSQL database:
    /// together they run all of them, and each exactly once (every job done on its first attempt).
    @Test(.enabled(if: TestDatabases.postgresURL != nil))
    func twoWorkerProcessesRunEachOfAThousandJobsExactlyOnce() async throws {
        let adminURL = try #require(TestDatabases.postgresURL)
        let name = "povver_workers_\(UUID().uuidString.prefix(8).lowercased())"
        let admin = try await Database.open(
            .postgres(url: adminURL, schema: nil), maxConnectionsPerEventLoop: 1, logger: TestDatabases.logger)
        try await admin.sql.raw("CREATE DATABASE \(unsafeRaw: name)").run()
        var components = try #require(URLComponents(string: adminURL))
        components.path = "/\(name)"
        let url = try #require(components.string)
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("povver-workers-\(name).pem").path
        defer { try? FileManager.default.removeItem(atPath: keyFile) }
        do {
            try await AdminComposition.with(
                modules: ["auth", "subscription", "workouts", "recommendations", "analytics"],
                environment: ["POVVER_SIGNING_KEY_FILE": keyFile], databaseURL: url,
                label: "test"
            ) { composition in
                for index in 0..<1000 {
                    try await composition.platform.jobs.enqueue(
                        NewJob(
                            id: AnalystJobs.dailyBriefId(userId: "user-\(index)", day: "2026-11-26"), kind: AnalystJobs.dailyBrief,
                            payload: #"{"user_id":"user-\#(index)","day":"2026-11-26"}"#, maxAttempts: 3, userId: "user-\(index)"))
                }
            }
            let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("povver-recommendations").path
            let workers = try (1...2).map { index in
                try ChildProcess(
                    [
                        "/usr/bin/env", "POVVER_SIGNING_KEY_FILE=\(keyFile)", binary, "worker", "--drain", "--name", "w\(index)",
                        "--database", url,
                    ],
                    output: true)
            }
            var ran: [Int] = []
            for worker in workers {
                try await eventually("the worker exited") { !worker.isRunning }
                #expect(worker.waitUntilExit() == 0)
                let text = String(decoding: worker.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
                ran.append(Int(text.split(separator: " ").dropFirst(2).first ?? "") ?? -1)
            }
            #expect(ran.reduce(0, +) == 1000, "\(ran)")
            let check = try await Database.open(
                .postgres(url: url, schema: nil), maxConnectionsPerEventLoop: 1, logger: TestDatabases.logger)
            let rows = try await check.sql.raw(
                "SELECT status, attempts, COUNT(*) AS n FROM platform_jobs WHERE kind = \(bind: AnalystJobs.dailyBrief) GROUP BY status, attempts"
            ).all()
            await check.shutdown()
            let groups = try rows.map {
                "\(try $0.decode(column: "status", as: String.self))/\(try $0.decode(column: "attempts", as: Int.self)): \(try $0.decode(column: "n", as: Int.self))"
            }
            #expect(groups == ["done/1: 1000"], "every job done on its one and only attempt")
        } catch {
            Issue.record("\(error)")
        }
        try await admin.sql.raw("DROP DATABASE IF EXISTS \(unsafeRaw: name) WITH (FORCE)").run()
        await admin.shutdown()
    }
}
