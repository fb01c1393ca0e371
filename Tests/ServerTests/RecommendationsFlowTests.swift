import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
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

    static func premiumUser(_ server: PovverServer, _ client: some TestClientProtocol, _ email: String) async throws -> (String, String) {
        let token = try await client.newUser(email)
        let user = try await client.call("getUser", token: token)
        let userId = try #require((user.data["user"] as? [String: Any])?["id"] as? String ?? user.data["id"] as? String)
        _ = try await server.subscription.service.setOverride(userId: userId, override: "premium")
        return (token, userId)
    }

    /// A routine of one template, "Legs": 3 sets of 5 squats at 2 RIR at `weight`, active. Answers its ids.
    static func routine(_ client: some TestClientProtocol, weight: Double, token: String) async throws -> (
        template: String, routine: String
    ) {
        let template = try await client.call(
            "createTemplate",
            [
                "name": "Legs",
                "exercises": [
                    [
                        "exercise_id": squat,
                        "sets": Array(
                            repeating: ["target_reps": 5, "target_rir": 2, "target_weight_kg": weight] as [String: Any], count: 3),
                    ]
                ],
            ], token: token)
        let templateId = try #require(template.data["id"] as? String, "\(template.json)")
        let routine = try await client.call("createRoutine", ["name": "Strength", "template_ids": [templateId]], token: token)
        let routineId = try #require(routine.data["id"] as? String, "\(routine.json)")
        #expect(try await client.call("setActiveRoutine", ["routine_id": routineId], token: token).status == .ok)
        return (templateId, routineId)
    }

    /// Starts the routine's next workout and logs every set at `weight` × `reps` @ `rir`, then completes it.
    static func train(_ client: some TestClientProtocol, routine: String, weight: Double, reps: Int, rir: Int, key: String, token: String)
        async throws
    {
        let started = try await client.call("startActiveWorkout", ["routine_id": routine, "idempotency_key": "\(key)-start"], token: token)
        let workoutId = try #require(started.data["id"] as? String, "\(started.json)")
        let exercise = try #require((started.data["exercises"] as? [[String: Any]])?.first)
        for (index, set) in (exercise["sets"] as? [[String: Any]] ?? []).enumerated() {
            let logged = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": exercise["instance_id"] as! String, "set_id": set["id"] as! String,
                    "weight_kg": weight, "reps": reps, "rir": rir, "idempotency_key": "\(key)-set\(index)",
                ], token: token)
            #expect(logged.status == .ok, "\(logged.json)")
        }
        let done = try await client.call(
            "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "\(key)-done"], token: token)
        #expect(done.status == .ok, "\(done.json)")
    }

    static func weights(_ client: some TestClientProtocol, template: String, token: String) async throws -> [Double] {
        let reply = try await client.call("getTemplate", ["template_id": template], token: token)
        let exercise = try #require((reply.data["exercises"] as? [[String: Any]])?.first, "\(reply.json)")
        return (exercise["sets"] as? [[String: Any]] ?? []).compactMap { $0["target_weight_kg"] as? Double }
    }

    static func items(_ client: some TestClientProtocol, token: String) async throws -> [[String: Any]] {
        let reply = try await client.call("getRecommendations", [:], token: token)
        #expect(reply.status == .ok, "\(reply.json)")
        return reply.data["items"] as? [[String: Any]] ?? []
    }

    @Test(arguments: TestDatabases.engines)
    func metTargetsProgressTheTemplateByTheSeedsRuleWithReviewAndAutoPilot(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let (token, userId) = try await Self.premiumUser(server, client, "analyst@example.com")
            let (template, routine) = try await Self.routine(client, weight: 100, token: token)

            // 1. Every set met at the target effort: a pending template-scoped step to 102.5 kg (+2.5 %).
            try await Self.train(client, routine: routine, weight: 100, reps: 5, rir: 2, key: "a", token: token)
            try await Self.settle(server)
            var items = try await Self.items(client, token: token)
            var item = try #require(items.first, "no recommendation")
            #expect(items.count == 1 && item["scope"] as? String == "template" && item["status"] as? String == "pending_review")
            #expect((item["target"] as? [String: Any])?["template_id"] as? String == template)
            let change = try #require((item["changes"] as? [[String: Any]])?.first)
            #expect(change["from_weight_kg"] as? Double == 100 && change["to_weight_kg"] as? Double == 102.5)
            let summary = try await client.call("getAnalysisSummary", ["sections": ["insights"]], token: token)
            #expect((summary.data["insights"] as? [[String: Any]])?.count == 1, "\(summary.json)")
            #expect(summary.data.keys.contains("daily_brief") && summary.data["daily_brief"] is NSNull)

            let accepted = try await client.call(
                "reviewRecommendation", ["recommendation_id": item["id"] as! String, "action": "accept"], token: token)
            #expect(accepted.status == .ok && accepted.data["status"] as? String == "accepted", "\(accepted.json)")
            #expect(try await Self.weights(client, template: template, token: token) == [102.5, 102.5, 102.5])

            // 2. Auto-pilot on: the next step (105 kg) is applied at once.
            let settings = try await client.call("updateRecommendationSettings", ["auto_pilot_enabled": true], token: token)
            #expect(settings.data["auto_pilot_enabled"] as? Bool == true, "\(settings.json)")
            try await Self.train(client, routine: routine, weight: 102.5, reps: 5, rir: 3, key: "b", token: token)
            try await Self.settle(server)
            item = try #require(try await Self.items(client, token: token).first)
            #expect(
                item["status"] as? String == "applied" && (item["changes"] as? [[String: Any]])?.first?["to_weight_kg"] as? Double == 105)
            #expect(try await Self.weights(client, template: template, token: token) == [105, 105, 105])

            // 3. Auto-pilot off; the template is edited before the review: CONFLICT, nothing applied.
            _ = try await client.call("updateRecommendationSettings", ["auto_pilot_enabled": false], token: token)
            try await Self.train(client, routine: routine, weight: 105, reps: 5, rir: 2, key: "c", token: token)
            try await Self.settle(server)
            items = try await Self.items(client, token: token)
            item = try #require(items.first { $0["status"] as? String == "pending_review" })
            let patched = try await client.call("patchTemplate", ["template_id": template, "name": "Legs (heavy)"], token: token)
            #expect(patched.status == .ok, "\(patched.json)")
            let stale = try await client.call(
                "reviewRecommendation", ["recommendation_id": item["id"] as! String, "action": "accept"], token: token)
            #expect(stale.status == .conflict && stale.errorCode == "CONFLICT", "\(stale.json)")
            #expect(try await Self.weights(client, template: template, token: token) == [105, 105, 105])

            // 4. Downgraded: the pending one cannot be accepted, and the list is premium.
            _ = try await server.subscription.service.setOverride(userId: userId, override: nil)
            let downgraded = try await client.call(
                "reviewRecommendation", ["recommendation_id": item["id"] as! String, "action": "accept"], token: token)
            #expect(downgraded.errorCode == "PREMIUM_REQUIRED", "\(downgraded.json)")
            #expect(try await client.call("getRecommendations", [:], token: token).errorCode == "PREMIUM_REQUIRED")
            let free = try await client.call("getRecommendationSettings", [:], token: token)
            #expect(free.data["premium"] as? Bool == false, "\(free.json)")

            // Another user sees none of it.
            let (other, _) = try await Self.premiumUser(server, client, "other@example.com")
            #expect(try await Self.items(client, token: other).isEmpty)
            let foreign = try await client.call(
                "reviewRecommendation", ["recommendation_id": item["id"] as! String, "action": "reject"], token: other)
            #expect(foreign.errorCode == "NOT_FOUND")
            let bad = try await client.call(
                "reviewRecommendation", ["recommendation_id": item["id"] as! String, "action": "maybe"], token: other)
            #expect(bad.errorCode == "INVALID_ARGUMENT")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aFreeUserGetsNoAnalysisJobAndSeesThePaywall(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("free-analyst@example.com")
            let (_, routine) = try await Self.routine(client, weight: 60, token: token)
            try await Self.train(client, routine: routine, weight: 60, reps: 5, rir: 2, key: "a", token: token)
            try await Self.settle(server)
            let jobs = try await server.database.sql.raw(
                "SELECT COUNT(*) AS n FROM platform_jobs WHERE kind = \(bind: AnalystJobs.postWorkout)"
            ).first(decodingColumn: "n", as: Int.self)
            #expect(jobs == 0, "no analysis is queued for a free user")
            #expect(try await client.call("getRecommendations", [:], token: token).errorCode == "PREMIUM_REQUIRED")
            #expect(try await client.call("getAnalysisSummary", [:], token: token).errorCode == "PREMIUM_REQUIRED")
            let enable = try await client.call("updateRecommendationSettings", ["auto_pilot_enabled": true], token: token)
            #expect(enable.errorCode == "PREMIUM_REQUIRED")
            let settings = try await client.call("getRecommendationSettings", [:], token: token)
            #expect(settings.data["premium"] as? Bool == false && settings.data["auto_pilot_enabled"] as? Bool == false)
        }
    }

    /// Bad input is refused naming the field, and changes nothing.
    @Test func badSummaryAndReviewArgumentsNameTheirField() async throws {
        try await TestServer.with(.sqlite) { server, client in
            let (token, _) = try await Self.premiumUser(server, client, "bad-input@example.com")
            for (name, body, field) in [
                ("getAnalysisSummary", ["sections": ["insights", "gossip"]], "sections"),
                ("getAnalysisSummary", ["sections": 7], "sections"),
                ("getAnalysisSummary", ["date": "2026-02-30"], "date"),
                ("getAnalysisSummary", ["limit": 21], "limit"),
                ("getRecommendations", ["limit": 0], "limit"),
                ("getRecommendations", ["status": "maybe"], "status"),
                ("getRecommendations", ["cursor": "not-a-cursor"], "cursor"),
                ("reviewRecommendation", ["recommendation_id": "rec-1", "action": "maybe"], "action"),
                ("updateRecommendationSettings", ["auto_pilot_enabled": "yes"], "auto_pilot_enabled"),
            ] as [(String, [String: Any], String)] {
                let reply = try await client.call(name, body, token: token)
                #expect(
                    reply.errorCode == "INVALID_ARGUMENT" && reply.errorDetails?["field"] as? String == field,
                    "\(name) \(body): \(reply.json)")
            }
            let summary = try await client.call("getAnalysisSummary", ["sections": "insights,weekly_review"], token: token)
            #expect(summary.status == .ok && summary.data["daily_brief"] is NSNull, "a comma-separated list (a GET query's form)")
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
            #expect((item["changes"] as? [[String: Any]])?.first?["to_weight_kg"] as? Double == 42.5, "≤ 40 kg: +5 % to the nearest 1.25")

            let module = try server.composition.module(RecommendationsModule.self)
            clock.advance(by: 7 * 86_400 + 60)
            #expect(try await module.sweep().expired == 1)
            let again = try await client.call("signIn", ["email": "expiry@example.com", "password": "secret-password"])
            let fresh = try #require(again.accessToken)
            let expired = try await client.call("getRecommendations", ["status": "expired"], token: fresh)
            #expect((expired.data["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [item["id"] as? String])
            let late = try await client.call(
                "reviewRecommendation", ["recommendation_id": item["id"] as! String, "action": "accept"], token: fresh)
            #expect(late.errorCode == "FAILED_PRECONDITION", "\(late.json)")
        }
    }
}
