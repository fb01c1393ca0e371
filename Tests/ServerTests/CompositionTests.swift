import Auth
import Contracts
import Fakes
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import PovverModules
import Subscription
import TestSupport
import Testing
import Workouts

/// The server composes any subset of the modules, with fakes in place of the live ones, through one API; a
/// composition missing what a module consumes does not start.
@Suite struct CompositionTests {
    /// The tables of `server`'s database with `prefix`.
    static func tables(_ server: PovverServer, prefix: String) async throws -> [String] {
        try await TestDatabases.tables(in: server.database, prefix: prefix, withColumn: "user_id")
    }

    /// A replica that only receives App Store webhooks: Auth and Subscription, nothing of Workouts.
    @Test(arguments: TestDatabases.engines)
    func aReplicaServesOnlyTheModulesItIsGiven(engine: SQLEngine) async throws {
        let pki = try AppStoreTestPKI()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("appstore-root-\(UUID().uuidString).pem")
        try Data(pki.rootPEM.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let environment = [
            "POVVER_MODULES": "auth,subscription", "POVVER_APPSTORE_ROOT_CERTS": file.path,
            "POVVER_APPSTORE_BUNDLE_ID": AppStoreTestPKI.bundleID,
            "POVVER_APPSTORE_ENVIRONMENT": "Sandbox",
        ]
        try await TestServer.with(engine, environment: environment) { server, client in
            #expect(server.plugins.map(\.name) == ["auth", "subscription"])
            let signUp = try await client.api().signUp(body: .json(.init(email: "replica@example.com", password: "password-1"))).ok.body
                .json.data
            let (token, userId) = (signUp.tokens.accessToken, signUp.user.id)
            let api = client.api(token)
            let notification = SubscriptionFlowTests.notification(pki, "SUBSCRIBED", token: AppAccountToken.forUser(userId), at: -30)
            _ = try await client.api().appStoreWebhook(body: .json(.init(signedPayload: notification))).ok
            #expect(try await api.getSubscriptionStatus(body: .json(.init())).ok.body.json.data.isPremium == true)

            let logSet = try #require(
                await refused {
                    try await api.logSet(
                        body: .json(.init(exerciseInstanceId: "e", idempotencyKey: "l", reps: 5, setId: "s", weightKg: 60, workoutId: "w")))
                })
            #expect(logSet.status == 404 && logSet.code == "NOT_FOUND")
            #expect(try await Self.tables(server, prefix: "workouts_").isEmpty)
            #expect(
                try await TestDatabases.tables(in: server.database, prefix: "workouts_", withColumn: "id").isEmpty,
                "no Workouts table at all")

            let document = try await client.get("/openapi.json")
            let paths = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(document.body.readableBytesView))["paths"])
            #expect(paths["/appStoreWebhook"] != nil && paths["/signUp"] != nil)
            #expect(paths["/logSet"] == nil && paths["/searchExercises"] == nil)
        }
    }

    /// Workouts live without Auth or Subscription: fakes verify tokens, know accounts and gate premium.
    @Test(arguments: TestDatabases.engines)
    func workoutsRunsWithFakesInPlaceOfAuthAndSubscription(engine: SQLEngine) async throws {
        let tokens = FakeAccessTokenVerifier(clock: SystemClock())
        let modules = [
            WorkoutsModule.definition(),
            .substitute(
                "fake-auth",
                providing: [
                    ProvidedContract(Contract.accessTokenVerifier, tokens),
                    ProvidedContract(Contract.accountDirectory, FakeAccountDirectory()),
                ]),
            .substitute("fake-subscription", providing: [ProvidedContract(Contract.premiumGate, FakePremiumGate(premium: ["athlete"]))]),
        ]
        try await TestServer.with(engine, modules: modules) { server, client in
            let token = await tokens.issue(userId: "athlete")
            let api = client.api(token)
            _ = try await api.createTemplate(
                body: .json(.init(exercises: [.init(exerciseId: WorkoutsFlowTests.squat, sets: [.init(targetReps: 5)])], name: "Legs"))
            ).ok
            _ = try await api.getTemplates(body: .json(.init())).ok
            let signUp = try #require(
                await refused { try await client.api().signUp(body: .json(.init(email: "a@example.com", password: "password-1"))) })
            #expect(signUp.code == "NOT_FOUND")
            #expect(try await server.composition.require(Contract.premiumGate).isPremium(userId: "athlete"))
            #expect(try await Self.tables(server, prefix: "auth_").isEmpty)
            #expect(try await Self.tables(server, prefix: "subscription_").isEmpty)
        }
    }

    /// Subscription live with a fake account directory and token verifier in place of Auth.
    @Test(arguments: TestDatabases.engines)
    func subscriptionRunsWithAFakeAccountDirectory(engine: SQLEngine) async throws {
        let tokens = FakeAccessTokenVerifier(clock: SystemClock())
        let accounts = FakeAccountDirectory([
            AccountSummary(
                userId: "payer", email: "payer@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                createdAt: Date())
        ])
        let modules = [
            SubscriptionModule.definition(settings: try SubscriptionSettings(environment: [:])),
            .substitute(
                "fake-auth",
                providing: [ProvidedContract(Contract.accessTokenVerifier, tokens), ProvidedContract(Contract.accountDirectory, accounts)]),
        ]
        try await TestServer.with(engine, modules: modules) { server, client in
            let status = try await client.api(await tokens.issue(userId: "payer")).getSubscriptionStatus(body: .json(.init())).ok.body.json
                .data
            #expect(status.isPremium == false)
            // The service lane asks the directory whether the user exists.
            func serviceLane(_ userId: String) -> Client {
                client.api(headers: [HTTPField.Name("X-API-Key")!: "test-service-key", HTTPField.Name("X-User-Id")!: userId])
            }
            _ = try await serviceLane("payer").getSubscriptionStatus(body: .json(.init())).ok
            let ghost = serviceLane("ghost")
            let unknown = try #require(await refused { try await ghost.getSubscriptionStatus(body: .json(.init())) })
            #expect(unknown.status != 200)
            #expect(try await Self.tables(server, prefix: "auth_").isEmpty)
        }
    }

    /// Auth alone: accounts work, every other module's route is `NOT_FOUND`.
    @Test(arguments: TestDatabases.engines)
    func authRunsAlone(engine: SQLEngine) async throws {
        try await TestServer.with(engine, environment: ["POVVER_MODULES": "auth"]) { server, client in
            let token = try await client.api().signUp(body: .json(.init(email: "alone@example.com", password: "password-1"))).ok.body.json
                .data.tokens.accessToken
            let api = client.api(token)
            _ = try await api.getUser(body: .json(.init())).ok
            #expect(try await refused { try await api.getSubscriptionStatus(body: .json(.init())) }?.code == "NOT_FOUND")
            #expect(try await refused { try await api.getTemplates(body: .json(.init())) }?.code == "NOT_FOUND")
            #expect(try await Self.tables(server, prefix: "subscription_").isEmpty)
            #expect(try await Self.tables(server, prefix: "workouts_").isEmpty)
        }
    }

    /// Without Auth (or a substitute) nothing verifies tokens or knows accounts: the start fails naming the module,
    /// before the database is touched (Workouts consumes the account directory, which is checked first).
    @Test func aCompositionMissingAConsumedContractDoesNotStart() async throws {
        let config = try AppConfig.fromEnvironment([
            "POVVER_MODULES": "workouts", "POVVER_DATABASE_URL": "sqlite:///nonexistent-dir/never.sqlite",
        ])
        await #expect(
            performing: { _ = try await PovverServer.build(config: config, logger: TestDatabases.logger) },
            throws: { error in
                let text = "\(error)"
                return text.contains("AccountDirectory") && text.contains("the module workouts") && text.contains("add the auth module")
            })
        #expect(FileManager.default.fileExists(atPath: "/nonexistent-dir/never.sqlite") == false)

        // A module that consumes the premium gate in a composition without Subscription.
        let coach = ModuleDefinition(name: "coach", consumes: [Contract.premiumGate.erased]) { _ in ModulePlugin(name: "coach") }
        #expect(
            performing: { try Composition.order([coach]) },
            throws: { error in
                (error as? CompositionError) == .missingContract(consumer: "the module coach", contract: Contract.premiumGate.erased)
                    && "\(error)".contains("add the subscription module")
            })
    }

    @Test func unknownModuleNamesAndBadModuleSettingsStopTheStart() throws {
        #expect(
            performing: { try PovverModules.definitions(["auth", "payments"], environment: [:]) },
            throws: { error in
                (error as? CompositionError) == .unknownModule("payments", known: PovverModules.names)
            })
        for (name, value) in [
            ("POVVER_BCRYPT_COST", "40"), ("POVVER_ACCESS_TOKEN_TTL_SECONDS", "10"), ("POVVER_RATE_LIMITS", "maybe"),
            ("POVVER_APPSTORE_ENVIRONMENT", "Staging"), ("POVVER_APPSTORE_APP_APPLE_ID", "abc"), ("POVVER_LLM_BASE_URL", "ftp://model"),
            ("POVVER_APPLE_TEAM_ID", "TEAM"), ("POVVER_LLM_MAX_STEPS", "0"), ("POVVER_LLM_TIMEOUT_SECONDS", "soon"),
            ("POVVER_LLM_FIRST_TOKEN_TIMEOUT_SECONDS", "-1"), ("POVVER_PREMIUM_LAPSE_GRACE_HOURS", "forever"),
            ("POVVER_REFRESH_GRACE_SECONDS", "3600"), ("POVVER_APPSTORE_ACCEPT_SANDBOX", "maybe"),
            ("POVVER_LLM_BASE_URL", "http://10.0.0.5:11434/v1"), ("POVVER_LLM_MAX_TOKENS", "0"),
            ("POVVER_COACH_MAX_STREAMS_PER_USER", "0"), ("POVVER_LLM_MAX_CONNECTIONS", "0"),
        ] {
            #expect(
                performing: { try PovverModules.definitions(environment: [name: value]) },
                throws: { error in
                    (error as? ServiceError)?.details["field"] == name
                })
        }
        // A module not composed does not read its settings.
        #expect(try PovverModules.definitions(["workouts"], environment: ["POVVER_BCRYPT_COST": "40"]).map(\.name) == ["workouts"])
    }
}
