import Analytics
import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import Platform
import PovverApp
import PovverClient
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
        let api = client.api(token)
        let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "\(key)-start", name: "Session \(key)"))).ok
            .body.json.data.id
        let added = try await api.addExercise(
            body: .json(.init(exerciseId: exercise, idempotencyKey: "\(key)-add", sets: sets.count, workoutId: workoutId))
        ).ok.body.json.data
        let entry = try #require(added.exercises.first)
        for (index, set) in entry.sets.enumerated() {
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: entry.instanceId, idempotencyKey: "\(key)-set\(index)", reps: sets[index].1, setId: set.id,
                        weightKg: sets[index].0, workoutId: workoutId))
            ).ok
        }
        _ = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "\(key)-done", workoutId: workoutId))).ok
        return workoutId
    }

    /// Everything the analytics queries answer for the user, as comparable JSON text (each answer as the client reads
    /// it, its keys sorted).
    static func snapshot(_ client: some TestClientProtocol, token: String) async throws -> [String] {
        let api = client.api(token)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func text(_ answer: some Encodable) throws -> String { String(decoding: try encoder.encode(answer), as: UTF8.self) }
        return [
            try text(try await api.getWeeklyStats(body: .json(.init(weeks: 8))).ok.body.json.data),
            try text(try await api.getExerciseProgress(body: .json(.init(exerciseId: squat))).ok.body.json.data),
            try text(try await api.getExerciseProgress(body: .json(.init(exerciseId: bench))).ok.body.json.data),
            try text(try await api.getMuscleGroupProgress(body: .json(.init(muscle: "quadriceps"))).ok.body.json.data),
            try text(try await api.queryTrainingSets(body: .json(.init(limit: 200))).ok.body.json.data),
            try text(try await api.getTrainingContext(body: .json(.init())).ok.body.json.data),
        ]
    }

    @Test(arguments: TestDatabases.engines)
    func historyChangesOverHTTPKeepEverySeriesEqualToARebuild(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let token = try await client.newUser("analytics@example.com")
            let api = client.api(token)
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
            let imported = try await api.importWorkouts(body: .json(.init(content: strong, format: .strongCsv, timeZone: .utc))).ok.body
                .json
                .data
            #expect(imported.imported == 1 && imported.sets == 3, "\(imported)")
            let first = try await Self.complete(client, token: token, exercise: Self.squat, sets: [(60, 5), (100, 5), (100, 5)], key: "a")
            let second = try await Self.complete(client, token: token, exercise: Self.bench, sets: [(80, 8), (82.5, 6)], key: "b")
            try await Self.settle(server)

            let points = try await api.getExerciseProgress(body: .json(.init(exerciseId: Self.squat, weeks: 4))).ok.body.json.data.points
            #expect(points.map(\.topWeightKg) == [95, 100], "last week's import, then this week")
            #expect(points.last?.sets == 3, "60 kg is more than half of 100: a working set")
            #expect(points.last?.e1rmKg == 116.7)
            let stats = try await api.getWeeklyStats(body: .json(.init(weeks: 1))).ok.body.json.data
            #expect(stats.items.first?.workouts == 2)

            _ = try await api.updateWorkout(
                body: .json(
                    .init(
                        changes: .init(exercises: [.init(exerciseId: Self.squat, sets: [.init(reps: 3, weightKg: 120)])]), workoutId: first)
                )
            ).ok
            _ = try await api.deleteWorkout(body: .json(.init(workoutId: second))).ok
            try await Self.settle(server)

            let afterEdits = try await Self.snapshot(client, token: token)
            let squat = try await api.getExerciseProgress(body: .json(.init(exerciseId: Self.squat))).ok.body.json.data
            #expect(squat.points.last?.topWeightKg == 120)
            let bench = try await api.getExerciseProgress(body: .json(.init(exerciseId: Self.bench))).ok.body.json.data
            #expect(bench.points.count == 1, "the deleted workout's sets are gone; the imported remain")

            let analytics = try server.composition.module(AnalyticsModule.self)
            let userId = try await api.getUser(body: .json(.init())).ok.body.json.data.id
            try await analytics.rebuild(userId: userId)
            #expect(try await Self.snapshot(client, token: token) == afterEdits)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func queriesNeedASignedInUserAndRefuseBadInput(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let anonymous = try #require(await refused { try await client.api().getWeeklyStats(body: .json(.init())) })
            #expect(anonymous.status == 401)
            let token = try await client.newUser("bad-input@example.com")
            let api = client.api(token)
            // Without its required exercise_id, which the client cannot leave out: sent as JSON.
            let missing = try await client.send("getExerciseProgress", [:], token: token)
            #expect(missing.code == "INVALID_ARGUMENT", "\(missing.body)")
            #expect(missing.body["error"]?["details"]?["field"] == "exercise_id", "\(missing.body)")
            let typed: [(String, @Sendable () async throws -> Void, String)] = [
                (
                    "getExerciseProgress weeks",
                    { _ = try await api.getExerciseProgress(body: .json(.init(exerciseId: Self.squat, weeks: 0))) }, "weeks"
                ),
                ("queryTrainingSets from", { _ = try await api.queryTrainingSets(body: .json(.init(from: "2026-02-31"))) }, "from"),
                ("queryTrainingSets limit", { _ = try await api.queryTrainingSets(body: .json(.init(limit: 201))) }, "limit"),
                ("queryTrainingSets cursor", { _ = try await api.queryTrainingSets(body: .json(.init(cursor: "x"))) }, "cursor"),
            ]
            for (name, call, field) in typed {
                let refusal = try #require(await refused(call), "\(name)")
                #expect(refusal.code == "INVALID_ARGUMENT", "\(name): \(refusal)")
                #expect(refusal.details["field"] == field, "\(name): \(refusal)")
            }
        }
    }
}
