import Analytics
import AsyncHTTPClient
import Auth
import Contracts
import Fakes
import Foundation
import NIOPosix
import Platform
import Recommendations
import SQLKit
import Subscription
import TestSupport
import Testing

@testable import Conversations
@testable import Workouts

struct EraserFixture: Sendable {
    /// Stores some data of the user in the module (nothing for a module without tables).
    var seed: @Sendable (_ userId: String) async throws -> Void
    /// How many rows/records the module holds for the user.
    var count: @Sendable (_ userId: String) async throws -> Int
    /// Makes a user id the module accepts.
    var makeUser: @Sendable (_ label: String) async throws -> String
}

/// The `UserDataEraser` contract: after erasing, nothing of the user is left; others keep theirs; erasing is
/// idempotent and fine for users the module never saw.
func userDataEraserConformance(_ eraser: some UserDataEraser, fixture: EraserFixture) async throws {
    #expect(!eraser.module.isEmpty)
    let target = try await fixture.makeUser("target")
    let bystander = try await fixture.makeUser("bystander")
    try await fixture.seed(target)
    try await fixture.seed(bystander)
    let bystanderBefore = try await fixture.count(bystander)

    try await eraser.eraseUserData(userId: target)
    #expect(try await fixture.count(target) == 0)
    #expect(try await fixture.count(bystander) == bystanderBefore)

    try await eraser.eraseUserData(userId: target)
    try await eraser.eraseUserData(userId: "never-seen")
    #expect(try await fixture.count(target) == 0)
}

@Suite struct UserDataEraserConformanceTests {
    @Test func fake() async throws {
        let eraser = FakeUserDataEraser(module: "fake")
        try await userDataEraserConformance(
            eraser,
            fixture: EraserFixture(
                seed: { id in
                    await eraser.store(userId: id, record: "a")
                    await eraser.store(userId: id, record: "b")
                },
                count: { id in await eraser.recordCount(userId: id) },
                makeUser: { label in "u-\(label)" }))
    }

    @Test(arguments: TestDatabases.engines)
    func auth(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("auth", AuthModule.migrations)]) { db in
            let auth = try await AuthModule(
                database: db, signingKey: .generate(), accessTokenLifetime: 900, bcryptCost: 4, clock: SystemClock(),
                ids: RandomIDGenerator(), http: .shared, threadPool: .singleton)
            try await userDataEraserConformance(
                auth.eraser,
                fixture: EraserFixture(
                    seed: { id in
                        // A device needs a verified email (the code mailed at sign-up proves it).
                        try await db.sql.raw("UPDATE auth_users SET email_verified = 1 WHERE id = \(bind: id)").run()
                        try await auth.service.registerDevice(userId: id, deviceId: "d1", platform: "ios", pushToken: "p", appVersion: "1")
                        let email = try await auth.service.account(userId: id).email
                        _ = try await auth.service.signIn(email: email, password: "secret1", timeZone: "Europe/Paris")
                    },
                    count: { id in
                        var total = 0
                        for table in ["auth_devices", "auth_refresh_tokens", "auth_sessions", "auth_providers", "auth_profiles"] {
                            total +=
                                try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: id)")
                                .first(decodingColumn: "n", as: Int.self) ?? 0
                        }
                        total +=
                            try await db.sql.raw("SELECT COUNT(*) AS n FROM auth_users WHERE id = \(bind: id)")
                            .first(decodingColumn: "n", as: Int.self) ?? 0
                        return total
                    },
                    makeUser: { label in
                        try await auth.service.signUp(email: "\(label)@example.com", password: "secret1", name: label, timeZone: nil).user
                            .id
                    }))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func workouts(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let module = WorkoutsModule(database: db, clock: SystemClock(), ids: RandomIDGenerator())
            // Every Workouts table with a `user_id` column, from the database's catalog, not from the eraser's list.
            let userTables = try await TestDatabases.tables(in: db, prefix: "workouts_", withColumn: "user_id")
            #expect(userTables.count >= 8)
            let rows: @Sendable (String, String) async throws -> Int = { table, userId in
                try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: userId)")
                    .first(decodingColumn: "n", as: Int.self) ?? 0
            }
            try await userDataEraserConformance(
                module.eraser,
                fixture: EraserFixture(
                    seed: { userId in
                        let template = try await module.templates.create(
                            userId: userId,
                            draft: TemplateDraft(
                                name: "Push",
                                exercises: [.init(exerciseId: "Barbell_Bench_Press_-_Medium_Grip", sets: [TemplateSet(targetReps: 8)])]))
                        let routine = try await module.routines.create(
                            userId: userId, draft: RoutineDraft(name: "R", templateIds: [template.id]))
                        _ = try await module.routines.setActive(userId: userId, routineId: routine.id)
                        let workout = try await module.active.start(
                            userId: userId, request: .init(templateId: template.id, routineId: routine.id), idempotencyKey: "k1"
                        ).value()
                        let exercise = workout.exercises[0]
                        _ = try await module.active.logSet(
                            userId: userId,
                            request: .init(
                                workoutId: workout.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 60,
                                reps: 8),
                            key: "k2")
                        _ = try await module.active.complete(userId: userId, workoutId: workout.id, key: "k3")
                        _ = try await module.active.start(userId: userId, request: .init(), idempotencyKey: "k4")
                    },
                    count: { userId in
                        var total = 0
                        for table in userTables { total += try await rows(table, userId) }
                        return total
                    },
                    makeUser: { "u-\($0)" }))
            // The seed reaches every table that holds a user's rows, so a table the eraser forgot would have
            // failed the count above; and the eraser's list is exactly those tables.
            for table in userTables {
                #expect(try await rows(table, "u-bystander") > 0, "the seed leaves no row in \(table)")
            }
            #expect(Set(userTables) == Set(WorkoutsUserDataEraser.tables))
        }
    }

    @Test(arguments: TestDatabases.engines)
    func subscription(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("subscription", SubscriptionModule.migrations)]) { db in
            let pki = try AppStoreTestPKI()
            let module = SubscriptionModule.forTests(database: db, pki: pki)
            try await userDataEraserConformance(
                module.eraser,
                fixture: EraserFixture(
                    seed: { userId in
                        let token = AppAccountToken.forUser(userId)
                        // Before the user's row exists: kept as an orphan carrying the token, then claimed.
                        let early = AppStoreTestPKI.transaction(
                            originalTransactionId: "otid-\(userId)", appAccountToken: token, expires: Date().addingTimeInterval(86_400))
                        #expect(
                            try await module.service.receiveNotification(
                                signedPayload: pki.notification(type: "SUBSCRIBED", transaction: early)) == .orphaned)
                        _ = try await module.service.status(userId: userId)
                        _ = try await module.service.sync(
                            userId: userId,
                            signedTransaction: pki.sign(
                                payload: AppStoreTestPKI.transaction(
                                    originalTransactionId: "otid-\(userId)", appAccountToken: token,
                                    expires: Date().addingTimeInterval(2 * 86_400),
                                    signedDate: Date().addingTimeInterval(1))))
                        _ = try await module.service.setOverride(userId: userId, override: "premium")
                        // A notification for another purchase of the user's that nobody claimed yet.
                        let stray = AppStoreTestPKI.transaction(
                            originalTransactionId: "stray-\(userId)", appAccountToken: nil, expires: Date())
                        _ = try await module.service.receiveNotification(
                            signedPayload: pki.notification(type: "EXPIRED", transaction: stray))
                        try await db.sql.raw(
                            "UPDATE subscription_events SET app_account_token = \(bind: token) WHERE original_transaction_id = \(bind: "stray-\(userId)")"
                        ).run()
                    },
                    count: { userId in
                        var total = 0
                        for table in ["subscription_state", "subscription_transactions", "subscription_events"] {
                            total +=
                                try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: userId)")
                                .first(decodingColumn: "n", as: Int.self) ?? 0
                        }
                        total +=
                            try await db.sql.raw(
                                "SELECT COUNT(*) AS n FROM subscription_events WHERE app_account_token = \(bind: AppAccountToken.forUser(userId))"
                            ).first(decodingColumn: "n", as: Int.self) ?? 0
                        return total
                    },
                    makeUser: { "u-\($0)" }))
        }
    }

    /// Analytics: the rows counted are those of every `analytics_` table with a `user_id` the database lists, so a
    /// table added later and forgotten by the eraser fails here; the seed leaves a row in each.
    @Test(arguments: TestDatabases.engines)
    func analytics(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("analytics", AnalyticsModule.migrations)]) { db in
            let accounts = FakeAccountDirectory()
            let log = FakeTrainingLog()
            let module = AnalyticsModule(
                database: db, accounts: accounts, log: log, catalog: FakeExerciseCatalog(WorkoutsFixtures.catalog), clock: FakeWallClock())
            // Every Analytics table with a `user_id` column, from the database's catalog, not from the eraser's list.
            let userTables = try await TestDatabases.tables(in: db, prefix: "analytics_", withColumn: "user_id")
            #expect(userTables.count >= 7, "\(userTables)")
            let rows: @Sendable (String, String) async throws -> Int = { table, userId in
                try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: userId)")
                    .first(decodingColumn: "n", as: Int.self) ?? 0
            }
            try await userDataEraserConformance(
                module.eraser,
                fixture: EraserFixture(
                    seed: { userId in
                        await accounts.add(
                            AccountSummary(
                                userId: userId, email: "\(userId)@example.com", emailVerified: true, providers: [.password],
                                originalProvider: "email", createdAt: Date()))
                        let set = WorkoutSet(id: "s", setIndex: 0, weightKg: 60, reps: 5, completedAt: Date())
                        let workout = CompletedWorkout(
                            id: "w-\(userId)", userId: userId, name: nil, sourceTemplateId: nil, sourceRoutineId: nil, startTime: Date(),
                            endTime: Date(),
                            exercises: [
                                WorkoutExercise(instanceId: "i", exerciseId: WorkoutsFixtures.squat.id, name: "Squat", sets: [set])
                            ],
                            analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: 1, reps: 5, volume: 300), exercises: [], muscles: []),
                            createdAt: Date(), updatedAt: Date())
                        await log.record(workout)
                        try await module.refresh(userId: userId, workoutId: workout.id)
                        // A product event that reaches a milestone: a row in each product table.
                        try await module.product.sink.record(
                            userId: userId, name: "message_sent", params: ["message_length": .int(5)], occurredAt: Date(), eventId: "e1")
                    },
                    count: { userId in
                        var total = 0
                        for table in userTables { total += try await rows(table, userId) }
                        return total
                    },
                    makeUser: { "u-\($0)" }))
            for table in userTables {
                #expect(try await rows(table, "u-bystander") > 0, "the seed leaves no row in \(table)")
            }
            #expect(Set(ProductAnalytics.tables).isSubset(of: Set(userTables)))
        }
    }

    /// Conversations: every `conversation` table with a `user_id` (from the database's catalog), seeded with a
    /// conversation, its messages, an artifact, a keyed action's answer and what the user told the coach.
    @Test(arguments: TestDatabases.engines)
    func conversations(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("conversations", ConversationsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = ConversationsModule(
                settings: try ConversationsSettings(environment: [:]), database: db, premium: FakePremiumGate(),
                catalog: FakeExerciseCatalog(WorkoutsFixtures.catalog), analytics: FakeTrainingAnalytics(),
                plans: FakePlanLibrary(catalog: WorkoutsFixtures.catalog, clock: clock, ids: RandomIDGenerator()),
                workouts: FakeActiveWorkoutControl(catalog: WorkoutsFixtures.catalog, clock: clock, ids: RandomIDGenerator()),
                events: FakeProductEventSink(), accounts: FakeAccountDirectory(), clock: clock,
                ids: RandomIDGenerator(), metrics: ServerMetrics())
            let userTables =
                try await TestDatabases.tables(in: db, prefix: "conversations_", withColumn: "user_id")
            #expect(userTables.count >= 4, "\(userTables)")
            let rows: @Sendable (String, String) async throws -> Int = { table, userId in
                try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: userId)")
                    .first(decodingColumn: "n", as: Int.self) ?? 0
            }
            let store = module.services.store
            try await userDataEraserConformance(
                module.eraser,
                fixture: EraserFixture(
                    seed: { userId in
                        let conversation = try await store.create(userId: userId, workoutId: nil)
                        let artifact = Artifact(
                            id: "a-\(userId)", type: .visualization, status: .pending, title: "Chart", data: ["points": []],
                            messageId: "m-\(userId)", createdAt: clock.now(), updatedAt: clock.now())
                        try await store.recordTurn(
                            userId: userId, conversationId: conversation.id,
                            messages: [(.user, "hi", nil, "u-m-\(userId)"), (.assistant, "hello", .slow, "m-\(userId)")],
                            artifacts: [artifact], title: "Hi")
                        _ = try await module.actions.perform(
                            userId: userId,
                            request: .init(action: .reject, artifactId: artifact.id, conversationId: conversation.id), idempotencyKey: "k1"
                        )
                        var told = CoachMemory()
                        told.days = 3
                        _ = try await module.services.memory.update(userId: userId, changes: told)
                    },
                    count: { userId in
                        var total = 0
                        for table in userTables { total += try await rows(table, userId) }
                        return total
                    },
                    makeUser: { "u-\($0)" }))
            for table in userTables {
                #expect(try await rows(table, "u-bystander") > 0, "the seed leaves no row in \(table)")
            }
        }
    }

    @Test(arguments: TestDatabases.engines)
    func recommendations(engine: SQLEngine) async throws {
        try await LiveRecommendations.with(engine) { module, database in
            let tables = ["recommendations_notes", "recommendations_sessions", "recommendations_items", "recommendations_settings"]
            #expect(
                try await TestDatabases.tables(in: database, prefix: "recommendations_", withColumn: "user_id").sorted() == tables.sorted())
            @Sendable func rows(_ table: String, _ userId: String) async throws -> Int {
                try await database.sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE user_id = \(bind: userId)")
                    .first(decodingColumn: "n", as: Int.self) ?? 0
            }
            try await userDataEraserConformance(
                module.eraser,
                fixture: EraserFixture(
                    seed: { userId in try await LiveRecommendations.seed(module, database, userId: userId, now: Date()) },
                    count: { userId in
                        var total = 0
                        for table in tables { total += try await rows(table, userId) }
                        return total
                    },
                    makeUser: { "u-\($0)" }))
            for table in tables {
                #expect(try await rows(table, "u-bystander") > 0, "the seed leaves no row in \(table)")
            }
        }
    }
}
