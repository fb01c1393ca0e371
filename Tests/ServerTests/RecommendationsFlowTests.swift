import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
import Recommendations
import SQLKit
import Subscription
import Synchronization
import TestSupport
import Testing

/// The analyst and auto-pilot over HTTP, fed by completed workouts through the outbox and the job queue: a premium
/// user with an active routine who meets every target gets the seed's exact next weight on the template (applied
/// at once with auto-pilot on); a template changed since is `CONFLICT`; a downgraded user cannot accept; a free user
/// gets nothing; a pending recommendation expires after 7 days.
@Suite struct RecommendationsFlowTests {
    static let squat = "Barbell_Squat"

    /// Every event fanned out and every due job done (deliveries, then the analysis they queue).
    static func settle(_ server: PovverServer, clock: any WallClock = SystemClock()) async throws {
        try await eventually("every due job done") {
            _ = try await server.dispatcher.dispatchPending()
            try await server.worker.drain()
            let pending = try await server.database.sql.raw("SELECT COUNT(*) AS n FROM platform_outbox WHERE dispatched_at IS NULL")
                .first(decodingColumn: "n", as: Int.self)
            let open = try await server.database.sql.raw(
                """
                SELECT COUNT(*) AS n FROM platform_jobs
                WHERE status IN ('queued', 'leased') AND run_at <= \(bind: clock.now().millisecondsSince1970) AND kind NOT LIKE 'recommendations.SCHEDULE'
                """
            ).first(decodingColumn: "n", as: Int.self)
            return pending == 0 && open == 0
        }
    }

    /// A recommendation as the generated client reads it.
    typealias Recommendation = Operations.GetRecommendations.Output.Ok.Body.JsonPayload.DataPayload.ItemsPayloadPayload

    static func premiumUser(_ server: PovverServer, _ client: some TestClientProtocol, _ email: String) async throws -> (String, String) {
        let token = try await client.newUser(email)
        let userId = try await client.api(token).getUser(body: .json(.init())).ok.body.json.data.id
        _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")
        return (token, userId)
    }

    /// A routine of one template, "Legs": 3 sets of 5 squats at 2 RIR at `weight`, active. Answers its ids.
    static func routine(_ client: some TestClientProtocol, weight: Double, token: String) async throws -> (
        template: String, routine: String
    ) {
        let api = client.api(token)
        let set = Operations.CreateTemplate.Input.Body.JsonPayload.ExercisesPayloadPayload.SetsPayloadPayload(
            targetReps: 5, targetRir: 2, targetWeightKg: weight)
        let templateId = try await api.createTemplate(
            body: .json(.init(exercises: [.init(exerciseId: squat, sets: Array(repeating: set, count: 3))], name: "Legs"))
        ).ok.body.json.data.id
        let routineId = try await api.createRoutine(body: .json(.init(name: "Strength", templateIds: [templateId]))).ok.body.json.data.id
        _ = try await api.setActiveRoutine(body: .json(.init(routineId: routineId))).ok
        return (templateId, routineId)
    }

    /// Starts the routine's next workout and logs every set at `weight` × `reps` @ `rir`, then completes it.
    static func train(_ client: some TestClientProtocol, routine: String, weight: Double, reps: Int, rir: Int, key: String, token: String)
        async throws
    {
        let api = client.api(token)
        let started = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "\(key)-start", routineId: routine))).ok.body.json
            .data
        let exercise = try #require(started.exercises.first)
        for (index, set) in exercise.sets.enumerated() {
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: exercise.instanceId, idempotencyKey: "\(key)-set\(index)", reps: reps, rir: rir, setId: set.id,
                        weightKg: weight, workoutId: started.id))
            ).ok
        }
        _ = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "\(key)-done", workoutId: started.id))).ok
    }

    static func weights(_ client: some TestClientProtocol, template: String, token: String) async throws -> [Double] {
        let template = try await client.api(token).getTemplate(body: .json(.init(templateId: template))).ok.body.json.data
        let exercise = try #require(template.exercises.first, "\(template)")
        return exercise.sets.compactMap(\.targetWeightKg)
    }

    static func items(_ client: some TestClientProtocol, token: String) async throws -> [Recommendation] {
        try await client.api(token).getRecommendations(body: .json(.init())).ok.body.json.data.items
    }

    @Test(arguments: TestDatabases.engines)
    func metTargetsProgressTheTemplateByTheSeedsRuleWithReviewAndAutoPilot(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let (token, userId) = try await Self.premiumUser(server, client, "analyst@example.com")
            let api = client.api(token)
            let (template, routine) = try await Self.routine(client, weight: 100, token: token)

            // 1. Every set met at the target effort: a pending template-scoped step to 102.5 kg (+2.5 %).
            try await Self.train(client, routine: routine, weight: 100, reps: 5, rir: 2, key: "a", token: token)
            try await Self.settle(server)
            var items = try await Self.items(client, token: token)
            var item = try #require(items.first, "no recommendation")
            #expect(items.count == 1 && item.scope == .template && item.status == .pendingReview)
            #expect(item.target.templateId == template)
            let change = try #require(item.changes.first)
            #expect(change.fromWeightKg == 100 && change.toWeightKg == 102.5)
            let summary = try await api.getAnalysisSummary(body: .json(.init(sections: [.insights]))).ok.body.json.data
            #expect(summary.insights.count == 1, "\(summary)")
            // The wire's shape: an absent brief is there, as null (the typed answer reads absent and null alike).
            let wire = try await client.send("getAnalysisSummary", ["sections": ["insights"]], token: token)
            #expect(wire.data["daily_brief"] == .null, "\(wire.body)")

            let accepted = try await api.reviewRecommendation(body: .json(.init(action: .accept, recommendationId: item.id))).ok.body.json
                .data
            #expect(accepted.status == .accepted, "\(accepted)")
            #expect(try await Self.weights(client, template: template, token: token) == [102.5, 102.5, 102.5])

            // 2. Auto-pilot on: the next step (105 kg) is applied at once.
            let settings = try await api.updateRecommendationSettings(body: .json(.init(autoPilotEnabled: true))).ok.body.json.data
            #expect(settings.autoPilotEnabled, "\(settings)")
            try await Self.train(client, routine: routine, weight: 102.5, reps: 5, rir: 3, key: "b", token: token)
            try await Self.settle(server)
            item = try #require(try await Self.items(client, token: token).first)
            #expect(item.status == .applied && item.changes.first?.toWeightKg == 105)
            #expect(try await Self.weights(client, template: template, token: token) == [105, 105, 105])

            // 3. Auto-pilot off; the template is edited before the review: CONFLICT, nothing applied.
            _ = try await api.updateRecommendationSettings(body: .json(.init(autoPilotEnabled: false))).ok
            try await Self.train(client, routine: routine, weight: 105, reps: 5, rir: 2, key: "c", token: token)
            try await Self.settle(server)
            items = try await Self.items(client, token: token)
            item = try #require(items.first { $0.status == .pendingReview })
            let pendingId = item.id
            _ = try await api.patchTemplate(body: .json(.init(name: "Legs (heavy)", templateId: template))).ok
            let stale = try #require(
                await refused { try await api.reviewRecommendation(body: .json(.init(action: .accept, recommendationId: pendingId))) })
            #expect(stale.status == 409 && stale.code == "CONFLICT", "\(stale)")
            #expect(try await Self.weights(client, template: template, token: token) == [105, 105, 105])

            // 4. Downgraded: the pending one cannot be accepted, and the list is premium.
            _ = try await server.subscription.service.setOverride(userId: userId, override: nil)
            let downgraded = try #require(
                await refused { try await api.reviewRecommendation(body: .json(.init(action: .accept, recommendationId: pendingId))) })
            #expect(downgraded.code == "PREMIUM_REQUIRED", "\(downgraded)")
            #expect(try #require(await refused { try await api.getRecommendations(body: .json(.init())) }).code == "PREMIUM_REQUIRED")
            let free = try await api.getRecommendationSettings(body: .json(.init())).ok.body.json.data
            #expect(free.premium == false, "\(free)")

            // Another user sees none of it.
            let (other, _) = try await Self.premiumUser(server, client, "other@example.com")
            #expect(try await Self.items(client, token: other).isEmpty)
            let foreign = try #require(
                await refused {
                    try await client.api(other).reviewRecommendation(body: .json(.init(action: .reject, recommendationId: pendingId)))
                })
            #expect(foreign.code == "NOT_FOUND")
            // An action the document does not name: sent as JSON, since the client's action type cannot say it.
            let bad = try await client.send(
                "reviewRecommendation", ["recommendation_id": .string(pendingId), "action": "maybe"], token: other)
            #expect(bad.code == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aFreeUserGetsNoAnalysisJobAndSeesThePaywall(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("free-analyst@example.com")
            let api = client.api(token)
            let (_, routine) = try await Self.routine(client, weight: 60, token: token)
            try await Self.train(client, routine: routine, weight: 60, reps: 5, rir: 2, key: "a", token: token)
            try await Self.settle(server)
            let jobs = try await server.database.sql.raw(
                "SELECT COUNT(*) AS n FROM platform_jobs WHERE kind = \(bind: AnalystJobs.postWorkout)"
            ).first(decodingColumn: "n", as: Int.self)
            #expect(jobs == 0, "no analysis is queued for a free user")
            #expect(try #require(await refused { try await api.getRecommendations(body: .json(.init())) }).code == "PREMIUM_REQUIRED")
            #expect(try #require(await refused { try await api.getAnalysisSummary(body: .json(.init())) }).code == "PREMIUM_REQUIRED")
            let enable = try #require(
                await refused { try await api.updateRecommendationSettings(body: .json(.init(autoPilotEnabled: true))) })
            #expect(enable.code == "PREMIUM_REQUIRED")
            let settings = try await api.getRecommendationSettings(body: .json(.init())).ok.body.json.data
            #expect(settings.premium == false && settings.autoPilotEnabled == false)
        }
    }

    /// Bad input is refused naming the field, and changes nothing.
    @Test func badSummaryAndReviewArgumentsNameTheirField() async throws {
        try await TestServer.with(.sqlite) { server, client in
            let (token, _) = try await Self.premiumUser(server, client, "bad-input@example.com")
            let api = client.api(token)
            let typed: [(String, @Sendable () async throws -> Void, String)] = [
                ("getAnalysisSummary date", { _ = try await api.getAnalysisSummary(body: .json(.init(date: "2026-02-30"))) }, "date"),
                ("getAnalysisSummary limit", { _ = try await api.getAnalysisSummary(body: .json(.init(limit: 21))) }, "limit"),
                ("getRecommendations limit", { _ = try await api.getRecommendations(body: .json(.init(limit: 0))) }, "limit"),
                (
                    "getRecommendations cursor", { _ = try await api.getRecommendations(body: .json(.init(cursor: "not-a-cursor"))) },
                    "cursor"
                ),
            ]
            for (name, call, field) in typed {
                let refusal = try #require(await refused(call), "\(name)")
                #expect(refusal.code == "INVALID_ARGUMENT" && refusal.details["field"] == field, "\(name): \(refusal)")
            }
            // Values the client's types cannot say (a name outside an enum, a number or text for a list or a flag):
            // sent as JSON.
            let untyped: [(String, JSONValue, String)] = [
                ("getAnalysisSummary", ["sections": ["insights", "gossip"]], "sections"),
                ("getAnalysisSummary", ["sections": 7], "sections"),
                ("getRecommendations", ["status": "maybe"], "status"),
                ("reviewRecommendation", ["recommendation_id": "rec-1", "action": "maybe"], "action"),
                ("updateRecommendationSettings", ["auto_pilot_enabled": "yes"], "auto_pilot_enabled"),
            ]
            for (name, body, field) in untyped {
                let reply = try await client.send(name, body, token: token)
                #expect(
                    reply.code == "INVALID_ARGUMENT" && reply.body["error"]?["details"]?["field"] == .string(field),
                    "\(name) \(body): \(reply.body)")
            }
            // A comma-separated list (a GET query's form), which the document's list type cannot say: sent as JSON.
            let summary = try await client.send("getAnalysisSummary", ["sections": "insights,weekly_review"], token: token)
            #expect(summary.status == .ok && summary.data["daily_brief"] == .null, "\(summary.body)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aPendingRecommendationExpiresAfterSevenDays(engine: SQLEngine) async throws {
        let clock = ShiftedClock()
        try await TestServer.with(engine, clock: clock) { server, client in
            let (token, _) = try await Self.premiumUser(server, client, "expiry@example.com")
            let (_, routine) = try await Self.routine(client, weight: 40, token: token)
            try await Self.train(client, routine: routine, weight: 40, reps: 5, rir: 2, key: "a", token: token)
            try await Self.settle(server, clock: clock)
            let item = try #require(try await Self.items(client, token: token).first)
            #expect(item.changes.first?.toWeightKg == 42.5, "≤ 40 kg: +5 % to the nearest 1.25")

            let module = try server.composition.module(RecommendationsModule.self)
            clock.advance(by: 7 * 86_400 + 60)
            #expect(try await module.sweep().expired == 1)
            let again = try await client.api().signIn(body: .json(.init(email: "expiry@example.com", password: "secret-password"))).ok
            let fresh = client.api(try again.body.json.data.tokens.accessToken)
            let expired = try await fresh.getRecommendations(body: .json(.init(status: .expired))).ok.body.json.data
            #expect(expired.items.map(\.id) == [item.id])
            let late = try #require(
                await refused { try await fresh.reviewRecommendation(body: .json(.init(action: .accept, recommendationId: item.id))) })
            #expect(late.code == "FAILED_PRECONDITION", "\(late)")
        }
    }
}
