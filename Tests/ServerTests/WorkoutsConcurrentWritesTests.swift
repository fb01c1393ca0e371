import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import SQLKit
import Synchronization
import TestSupport
import Testing

/// Workouts writes sent at the same moment answer as if they ran one after another, through HTTP on every
/// engine.
@Suite struct WorkoutsConcurrentWritesTests {
    static let bench = WorkoutsFlowTests.bench
    static let squat = WorkoutsFlowTests.squat

    /// Concurrent starts answer as if they ran one after another: copies under one key all get the first
    /// answer; under different keys one wins and every other is CONFLICT naming the winner.
    @Test(arguments: TestDatabases.engines)
    func concurrentStartsAnswerAsIfOneAfterAnother(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("racer@example.com")

            let retries = try await WorkoutsHTTP.startConcurrently(client, keys: Array(repeating: "same", count: 8), token: token)
            #expect(retries.allSatisfy { $0.status == .ok }, "\(retries)")
            #expect(Set(retries.map(\.workoutId)).count == 1, "\(retries)")
            let retriedId = try #require(retries.first?.workoutId)
            let api = client.api(token)
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data?.id == retriedId)
            _ = try await api.cancelActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: retriedId))).ok

            let racers = try await WorkoutsHTTP.startConcurrently(client, keys: (0..<8).map { "race-\($0)" }, token: token)
            let winners = racers.filter { $0.status == .ok }
            #expect(winners.count == 1, "\(racers)")
            let winnerId = try #require(winners.first?.workoutId)
            let losers = racers.filter { $0.status != .ok }
            #expect(losers.count == 7)
            for loser in losers {
                #expect(loser.status == .conflict, "\(loser)")
                #expect(loser.errorCode == "CONFLICT", "\(loser)")
                #expect(loser.conflictingWorkoutId == winnerId, "\(loser)")
            }
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data?.id == winnerId)
        }
    }

    /// A start from a routine racing the deletion of the routine's next template starts from a template that
    /// exists: the deleted one (the delete waited) or the one after it (the delete ran first), never
    /// `NOT_FOUND` for a template the client did not name. On PostgreSQL, without the routine locked before
    /// its template is read, the delete could commit between the two reads.
    @Test(arguments: TestDatabases.engines)
    func aStartRacingTheDeletionOfItsTemplateStartsFromAnExistingOne(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("start-delete@example.com")
            let api = client.api(token)
            for round in 0..<25 {
                let (templates, routineId) = try await WorkoutsHTTP.routine(client, of: [Self.bench, Self.squat], token: token)
                async let startCall = answer {
                    try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s\(round)", routineId: routineId))).ok.body.json
                        .data
                }
                async let deleteCall = answer {
                    try await api.deleteTemplate(body: .json(.init(templateId: templates[0]))).ok.body.json.data.id
                }
                let (start, delete) = try await (startCall, deleteCall)
                #expect(delete.status == .ok, "round \(round): deleteTemplate: \(delete)")
                #expect(start.status == .ok, "round \(round): startActiveWorkout: \(start)")
                guard let started = start.value else { break }
                #expect(templates.contains(started.sourceTemplateId ?? ""), "round \(round): \(started)")
                _ = try await api.cancelActiveWorkout(body: .json(.init(idempotencyKey: "c\(round)", workoutId: started.id))).ok
            }
        }
    }

    /// One key sent at the same moment with different requests (a client bug, or two of its screens sharing a
    /// key): one of them runs and every other is CONFLICT naming the key, whatever the operations, on every
    /// engine. On PostgreSQL the active-workout writes locked the workout, the others the key: the loser failed on
    /// the key's row (a CONFLICT that said "changed concurrently", a driver error through the contracts).
    @Test(arguments: TestDatabases.engines)
    func oneKeyRacingDifferentRequestsRunsOneOfThem(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("shared-keys@example.com"))
            let workoutId = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "start", name: "Keys"))).ok.body.json.data.id
            let added = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "add", sets: 20, workoutId: workoutId))
            ).ok.body.json.data
            let squat = try WorkoutsHTTP.exercise(added)
            /// The template each round creates under the shared key.
            func template(_ api: Client, key: String) -> WorkoutsHTTP.NamedCall {
                (
                    "createTemplate",
                    {
                        try await api.createTemplate(
                            body: .json(
                                .init(
                                    exercises: [.init(exerciseId: Self.bench, sets: [.init(targetReps: 5)])], idempotencyKey: key,
                                    name: "Keys"))
                        ).ok.body.json.data.id
                    }
                )
            }
            // Each round: two logSets, a patch and a create under one new key.
            for round in 0..<8 {
                let key = "shared-\(round)"
                let log: @Sendable (Int) -> WorkoutsHTTP.NamedCall = { set in
                    (
                        "logSet",
                        {
                            try await api.logSet(
                                body: .json(
                                    .init(
                                        exerciseInstanceId: squat.instanceId, idempotencyKey: key, reps: 5, setId: squat.setIds[set],
                                        weightKg: 100,
                                        workoutId: workoutId))
                            ).ok.body.json.data.workoutId ?? workoutId
                        }
                    )
                }
                let replies = try await WorkoutsHTTP.concurrently([
                    log(2 * round),
                    log(2 * round + 1),
                    (
                        "patchActiveWorkout",
                        {
                            try await api.patchActiveWorkout(
                                body: .json(.init(idempotencyKey: key, ops: [.addSet(squat.instanceId)], workoutId: workoutId))
                            ).ok.body.json.data.id
                        }
                    ),
                    template(api, key: key),
                ])
                WorkoutsHTTP.expectOneRan(replies, key: key, round: round)
            }
            // Starts lock the user's starts first: a start and a create sharing a key, for a user with no workout.
            let other = client.api(try await client.newUser("shared-start-keys@example.com"))
            for round in 0..<8 {
                let key = "start-\(round)"
                let replies = try await WorkoutsHTTP.concurrently([
                    (
                        "startActiveWorkout",
                        { try await other.startActiveWorkout(body: .json(.init(idempotencyKey: key, name: "Keys"))).ok.body.json.data.id }
                    ),
                    template(other, key: key),
                ])
                WorkoutsHTTP.expectOneRan(replies, key: key, round: round)
                if let workoutId = replies.first(where: { $0.name == "startActiveWorkout" && $0.answer.status == .ok })?.answer.value {
                    _ = try await other.cancelActiveWorkout(body: .json(.init(idempotencyKey: "cancel-\(round)", workoutId: workoutId))).ok
                }
            }
        }
    }
}
