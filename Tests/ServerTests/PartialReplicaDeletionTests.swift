import Auth
import Contracts
import Fakes
import Foundation
import Hummingbird
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import PovverModules
import SQLKit
import Subscription
import TestSupport
import Testing

/// Account deletion on a database shared by a partial replica and a full one: whichever takes the deletion job,
/// each module erases its rows in a process that composes it, and the account ends only once all have.
@Suite struct PartialReplicaDeletionTests {
    /// Runs the replica's dispatcher and worker until nothing it can run is due.
    static func drain(_ replica: PovverServer) async throws {
        try await replica.dispatcher.dispatchPending()
        try await replica.worker.drain()
    }

    static func count(_ sql: SQLQueryString, in database: Database) async throws -> Int {
        try await database.sql.raw(sql).first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Two replicas in this test process, each a composition of its own with its own database connections, worker
    /// and dispatcher, on one database (one PostgreSQL schema, or one SQLite file): the full server, and an App
    /// Store webhook replica (`POVVER_MODULES=auth,subscription`). The webhook replica takes the deletion; the
    /// modules it lacks are erased by the full one, and the account lasts until they are.
    @Test(arguments: TestDatabases.engines)
    func aWebhookReplicaEndsTheAccountOnlyOnceEveryModuleErased(engine: SQLEngine) async throws {
        let clock = FakeWallClock()
        let location = try await TestDatabases.makeLocation(engine)
        var config = try AppConfig.fromEnvironment(["POVVER_BCRYPT_COST": "4"])
        config.database = location
        let key = SigningKey.generate()
        let full = try await PovverServer.build(
            config: config, modules: try PovverModules.definitions(environment: config.environment, signingKey: key),
            logger: TestDatabases.logger, clock: clock)
        let webhook: PovverServer
        do {
            webhook = try await PovverServer.build(
                config: config,
                modules: try PovverModules.definitions(["auth", "subscription"], environment: config.environment, signingKey: key),
                logger: TestDatabases.logger, clock: clock)
        } catch {
            await full.database.shutdown()
            try? await TestDatabases.dispose(location)
            throw error
        }
        #expect(webhook.plugins.map(\.name) == ["auth", "subscription"])
        do {
            // The full server's routes, without its background services: each replica's work runs when the test says.
            try await Application(router: full.router).test(.router) { client in
                let signUp = try await client.api().signUp(body: .json(.init(email: "partial@example.com", password: "password-1"))).ok.body
                    .json.data
                let (token, userId) = (signUp.tokens.accessToken, signUp.user.id)
                try await Self.seed(client, token: token, userId: userId, full: full, clock: clock)
                let seeded = Set(try await AccountFlowTests.rowsMentioning([userId], in: full.database).keys)
                for table in [
                    "auth_users", "subscription_state", "workouts_templates", "conversations_threads", "analytics_product_events",
                    "recommendations_settings",
                ] {
                    #expect(seeded.contains(table), "the user has rows in \(table) before the deletion: \(seeded.sorted())")
                }

                // The webhook replica takes the deletion: it erases Platform's and Subscription's rows, queues a job
                // for each module it does not compose, and waits, the account still there (status `deleting`).
                let jobId = try await webhook.auth.service.requestDeletion(userId: userId)
                try await Self.drain(webhook)
                let midway = try await AccountFlowTests.rowsMentioning([userId], in: full.database)
                #expect(midway["auth_users"] == 1, "the account lasts while modules have not erased: \(midway)")
                #expect(midway["subscription_state"] == nil && midway["platform_outbox"] == nil, "\(midway)")
                for table in ["workouts_templates", "conversations_threads", "analytics_product_events", "recommendations_settings"] {
                    #expect(midway[table] != nil, "\(table) is left to a replica that composes its module")
                }
                let waiting = try #require(try await webhook.jobs.job(id: jobId))
                #expect(waiting.status == .queued)
                #expect(
                    waiting.lastError?.contains("waiting for analytics, conversations, recommendations, workouts") == true,
                    "\(String(describing: waiting.lastError))")
                let erasures = try await full.database.sql.raw(
                    "SELECT kind, payload FROM platform_jobs WHERE kind LIKE 'platform.erase:%' AND status = 'queued' ORDER BY kind"
                ).all()
                #expect(
                    try erasures.map { try $0.decode(column: "kind", as: String.self) }
                        == ["analytics", "conversations", "recommendations", "workouts"].map { UserErasure.jobKind(module: $0) })
                #expect(try erasures.allSatisfy { try !$0.decode(column: "payload", as: String.self).contains(userId) })
                try await Self.drain(webhook)
                #expect(try await AccountFlowTests.rowsMentioning([userId], in: full.database) == midway, "nothing it can do meanwhile")

                // The full replica runs the modules' erasures; the last one makes the deletion due, and it finishes.
                try await Self.drain(full)
                #expect(try await AccountFlowTests.rowsMentioning([userId], in: full.database) == ["auth_deletions": 1])

                // A row written by a request under way when the deletion began; the second pass, again taken by the
                // webhook replica, erases everywhere once more and waits for the full one before removing the ticket.
                try await full.database.sql.raw(
                    "INSERT INTO workouts_user_settings (user_id, active_routine_id, updated_at) VALUES (\(bind: userId), NULL, 0)"
                ).run()
                clock.advance(by: AuthService.deletionSecondPassDelay)
                try await Self.drain(webhook)
                #expect(
                    try await AccountFlowTests.rowsMentioning([userId], in: full.database).keys.sorted() == [
                        "auth_deletions", "platform_erasures", "workouts_user_settings",
                    ])
                try await Self.drain(full)
                let left = try await AccountFlowTests.rowsMentioning([userId], in: full.database)
                #expect(left.isEmpty, "rows still mention the deleted user: \(left)")
                let failed = try await Self.count(
                    "SELECT COUNT(*) AS n FROM platform_jobs WHERE status <> 'done' AND (kind LIKE 'auth.%' OR kind LIKE 'platform.erase:%')",
                    in: full.database)
                #expect(failed == 0)
            }
        } catch {
            await webhook.database.shutdown()
            await full.database.shutdown()
            try? await TestDatabases.dispose(location)
            throw error
        }
        await webhook.database.shutdown()
        await full.database.shutdown()
        try await TestDatabases.dispose(location)
    }

    /// Rows of the user in every module: a template, a conversation, recommendation settings, a product event, a
    /// subscription override (and Auth's and Analytics' own from sign-up, once delivered).
    static func seed(_ client: some TestClientProtocol, token: String, userId: String, full: PovverServer, clock: FakeWallClock)
        async throws
    {
        _ = try await full.subscription.service.setOverride(userId: userId, override: "premium")
        let api = client.api(token)
        _ = try await api.createTemplate(
            body: .json(.init(exercises: [.init(exerciseId: WorkoutsFlowTests.squat, sets: [.init(targetReps: 5)])], name: "Mine"))
        ).ok
        _ = try await api.initializeSession(body: .json(.init())).ok
        _ = try await api.updateRecommendationSettings(body: .json(.init(autoPilotEnabled: true))).ok
        let opened = Operations.TrackEvents.Input.Body.JsonPayload.EventsPayloadPayload(
            value1: .init(name: .appOpened, occurredAt: clock.now()))
        #expect(try await api.trackEvents(body: .json(.init(events: [opened]))).ok.body.json.data.accepted == 1)
        try await drain(full)
    }
}
