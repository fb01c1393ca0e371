import Analytics
import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import SQLKit
import TestSupport
import Testing

/// Analytics over HTTP, fed by the history's events through the outbox and the job queue.
@Suite struct AnalyticsFlowTests {
    static let squat = "Barbell_Squat"
    static let bench = "Barbell_Bench_Press_-_Medium_Grip"

    /// Delivers every event published so far. The server's own dispatcher and worker may have taken some first
    /// (on PostgreSQL `dispatchPending` skips outbox rows another transaction holds): then this waits until every
    /// event is fanned out and every delivery finished (none queued or leased), so the answers read next are final.
    static func settle(_ server: PovverServer) async throws {
        _ = try await server.dispatcher.dispatchPending()
        try await server.worker.drain()
        try await eventually("every event fanned out and every delivery finished") {
            let pending = try await server.database.sql.raw("SELECT COUNT(*) AS n FROM platform_outbox WHERE dispatched_at IS NULL")
                .first(decodingColumn: "n", as: Int.self)
            let open = try await server.database.sql.raw(
                "SELECT COUNT(*) AS n FROM platform_jobs WHERE status IN ('queued', 'leased') AND kind LIKE 'platform.event:%'"
            ).first(decodingColumn: "n", as: Int.self)
            if pending == 0 && open == 0 { return true }
            try await server.worker.drain()
            return false
        }
    }

    /// Completes a workout of one exercise with the given sets (weight, reps) and answers its id.
    static func complete(_ client: some TestClientProtocol, token: String, exercise: String, sets: [(Double, Int)], key: String)
        async throws
        -> String
    {
        let started = try await client.call(
            "startActiveWorkout", ["name": "Session \(key)", "idempotency_key": "\(key)-start"], token: token)
        let workoutId = try #require(started.data["id"] as? String, "\(started.json)")
        let added = try await client.call(
            "addExercise", ["workout_id": workoutId, "exercise_id": exercise, "sets": sets.count, "idempotency_key": "\(key)-add"],
            token: token)
        let entry = try #require((added.data["exercises"] as? [[String: Any]])?.first)
        for (index, set) in (entry["sets"] as? [[String: Any]] ?? []).enumerated() {
            let logged = try await client.call(
                "logSet",
                [
                    "workout_id": workoutId, "exercise_instance_id": entry["instance_id"] as! String, "set_id": set["id"] as! String,
                    "weight_kg": sets[index].0, "reps": sets[index].1, "idempotency_key": "\(key)-set\(index)",
                ], token: token)
            #expect(logged.status == .ok, "\(logged.json)")
        }
        let completed = try await client.call(
            "completeActiveWorkout", ["workout_id": workoutId, "idempotency_key": "\(key)-done"], token: token)
        #expect(completed.status == .ok, "\(completed.json)")
        return workoutId
    }

    /// Everything the analytics queries answer for the user, as comparable JSON text.
    static func snapshot(_ client: some TestClientProtocol, token: String) async throws -> [String] {
        var answers: [String] = []
        for (name, body) in [
            ("getWeeklyStats", ["weeks": 8]), ("getExerciseProgress", ["exercise_id": squat]),
            ("getExerciseProgress", ["exercise_id": bench]),
            ("getMuscleGroupProgress", ["muscle": "quadriceps"]), ("queryTrainingSets", ["limit": 200]), ("getTrainingContext", [:]),
        ] as [(String, [String: Any])] {
            let reply = try await client.call(name, body, token: token)
            #expect(reply.status == .ok, "\(name): \(reply.json)")
            answers.append(String(decoding: try JSONSerialization.data(withJSONObject: reply.data, options: [.sortedKeys]), as: UTF8.self))
        }
        return answers
    }

    @Test(arguments: TestDatabases.engines)
    func historyChangesOverHTTPKeepEverySeriesEqualToARebuild(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("analytics@example.com")
            // Last week's history, imported from Strong.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
            let lastWeek = formatter.string(from: Date().addingTimeInterval(-7 * 86_400))
            let strong = """
                Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
                \(lastWeek),Legs,50m,Squat (Barbell),W,60,5,0,0,,,
                \(lastWeek),Legs,50m,Squat (Barbell),1,95,5,0,0,,,8
                \(lastWeek),Legs,50m,Bench Press (Barbell),1,75,8,0,0,,,
                """
            let imported = try await client.call(
                "importWorkouts", ["format": "strong_csv", "content": strong, "time_zone": "UTC"], token: token)
            #expect(imported.data["imported"] as? Int == 1 && imported.data["sets"] as? Int == 3, "\(imported.json)")
            let first = try await Self.complete(client, token: token, exercise: Self.squat, sets: [(60, 5), (100, 5), (100, 5)], key: "a")
            let second = try await Self.complete(client, token: token, exercise: Self.bench, sets: [(80, 8), (82.5, 6)], key: "b")
            try await Self.settle(server)

            let progress = try await client.call("getExerciseProgress", ["exercise_id": Self.squat, "weeks": 4], token: token)
            let points = try #require(progress.data["points"] as? [[String: Any]])
            #expect(points.map { $0["top_weight_kg"] as? Double } == [95, 100], "last week's import, then this week")
            #expect(points.last?["sets"] as? Int == 3, "60 kg is more than half of 100: a working set")
            #expect(points.last?["e1rm_kg"] as? Double == 116.7)
            let stats = try await client.call("getWeeklyStats", ["weeks": 1], token: token)
            #expect((stats.data["items"] as? [[String: Any]])?.first?["workouts"] as? Int == 2)

            let edited = try await client.call(
                "updateWorkout",
                ["workout_id": first, "changes": ["exercises": [["exercise_id": Self.squat, "sets": [["weight_kg": 120, "reps": 3]]]]]],
                token: token)
            #expect(edited.status == .ok, "\(edited.json)")
            #expect(try await client.call("deleteWorkout", ["workout_id": second], token: token).status == .ok)
            try await Self.settle(server)

            let afterEdits = try await Self.snapshot(client, token: token)
            let squat = try await client.call("getExerciseProgress", ["exercise_id": Self.squat], token: token)
            #expect((squat.data["points"] as? [[String: Any]])?.last?["top_weight_kg"] as? Double == 120)
            let bench = try await client.call("getExerciseProgress", ["exercise_id": Self.bench], token: token)
            #expect((bench.data["points"] as? [[String: Any]])?.count == 1, "the deleted workout's sets are gone; the imported remain")

            let analytics = try server.composition.module(AnalyticsModule.self)
            let user = try await client.call("getUser", token: token)
            let userId = try #require((user.data["user"] as? [String: Any])?["id"] as? String ?? user.data["id"] as? String, "\(user.json)")
            try await analytics.rebuild(userId: userId)
            #expect(try await Self.snapshot(client, token: token) == afterEdits)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func queriesNeedASignedInUserAndRefuseBadInput(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            #expect(try await client.call("getWeeklyStats").status == .unauthorized)
            let token = try await client.newUser("bad-input@example.com")
            for (name, body, field) in [
                ("getExerciseProgress", [:], "exercise_id"), ("getExerciseProgress", ["exercise_id": Self.squat, "weeks": 0], "weeks"),
                ("queryTrainingSets", ["from": "2026-02-31"], "from"), ("queryTrainingSets", ["limit": 201], "limit"),
                ("queryTrainingSets", ["cursor": "x"], "cursor"),
            ] as [(String, [String: Any], String)] {
                let reply = try await client.call(name, body, token: token)
                #expect(reply.errorCode == "INVALID_ARGUMENT", "\(name) \(body): \(reply.json)")
                #expect(reply.errorDetails?["field"] as? String == field, "\(name) \(body): \(reply.json)")
            }
        }
    }
}
