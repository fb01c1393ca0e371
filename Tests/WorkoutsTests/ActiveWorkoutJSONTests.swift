import Contracts
import Crypto
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// The hand-written JSON of `logSet` (its answer and its request fingerprint) against the encoder, and
/// idempotent answers kept as first sent.
@Suite struct ActiveWorkoutJSONTests {
    static func randomLoggedSet(_ generator: inout some RandomNumberGenerator) -> LoggedSet {
        let ids = ["s1", "Ünïcødé 🏋️", "quote\"d", "back\\slash", "new\nline", "ctl\u{1}x", "", "a/b"]
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &generator) ? value : nil }
        let set = WorkoutSet(
            id: ids.randomElement(using: &generator)!, setIndex: Int.random(in: 0...30, using: &generator),
            targetReps: maybe(Int.random(in: 0...1000, using: &generator)), targetRir: maybe(Int.random(in: 0...10, using: &generator)),
            targetWeightKg: maybe(
                [0, 1000, 62.5, 0.1 + 0.7, Double.random(in: 0...1000, using: &generator)].randomElement(using: &generator)!),
            weightKg: maybe([0, 1000, 42.5, 0.1 + 0.2, Double.random(in: 0...1000, using: &generator)].randomElement(using: &generator)!),
            reps: maybe(Int.random(in: 0...1000, using: &generator)), rir: maybe(Int.random(in: 0...10, using: &generator)),
            completedAt: maybe(Date(millisecondsSince1970: Int64.random(in: 0...4_000_000_000_000, using: &generator))))
        return LoggedSet(
            workoutId: ids.randomElement(using: &generator)!, exerciseInstanceId: ids.randomElement(using: &generator)!, set: set,
            totals: WorkoutTotals(
                sets: Int.random(in: 0...1500, using: &generator), reps: Int.random(in: 0...100_000, using: &generator),
                volume: (Double.random(in: 0...1_000_000, using: &generator) * 10).rounded() / 10),
            version: Int.random(in: 1...100_000, using: &generator))
    }

    /// Documents stored before empty fields were written as null (the keys left out) still read, as nil.
    @Test func documentsWithoutTheirEmptyKeysStillRead() throws {
        let stored =
            #"{"id":"w","user_id":"u","status":"in_progress","start_time":1,"version":1,"exercises":[],"totals":{"sets":0,"reps":0,"volume":0},"created_at":1,"updated_at":1}"#
        let workout = try JSONCoding.load(ActiveWorkout.self, from: stored)
        #expect(workout.name == nil && workout.sourceTemplateId == nil && workout.sourceRoutineId == nil)
        let written = try JSONCoding.store(workout)
        #expect(written.contains(#""source_template_id":null"#), "written back with the keys: \(written)")
        #expect(try JSONCoding.load(ActiveWorkout.self, from: written) == workout)
        var named = workout
        named.name = "Legs"
        #expect(try JSONCoding.load(ActiveWorkout.self, from: try JSONCoding.store(named)).name == "Legs")
    }

    @Test func loggedSetIsWrittenAsTheEncoderWritesIt() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let logged = Self.randomLoggedSet(&generator)
            #expect(logged.jsonBytes == Array(try JSONCoding.encode(logged)))
        }
    }

    /// Fingerprints must not change across versions: a retry sent before an upgrade and repeated after it
    /// must still match (the earlier formula was SHA-256 of "operation\nencoder JSON").
    @Test func logSetFingerprintsAreThoseOfEarlierVersions() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let logged = Self.randomLoggedSet(&generator)
            let request = ActiveWorkoutService.LogSetRequest(
                workoutId: logged.workoutId, exerciseInstanceId: logged.exerciseInstanceId, setId: logged.set.id,
                weightKg: logged.set.weightKg ?? 0, reps: logged.set.reps ?? 0, rir: logged.set.rir)
            let earlier = SHA256.hash(data: Data("logSet\n\(try JSONCoding.encodeToString(request))".utf8)).hexString
            #expect(try IdempotencyStore.requestFingerprint(operation: "logSet", request: request) == earlier)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func repeatsGetTheFirstAnswerByteForByteAndOlderStoredAnswersStillReplay(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: SystemClock())
            let started = try await module.active.start(userId: "u", request: .init(), idempotencyKey: nil).value()
            let added = try await module.active.addExercise(
                userId: "u", request: .init(workoutId: started.id, exerciseId: "Barbell_Squat", sets: 3), key: nil
            ).value()
            let sets = added.exercises[0].sets
            func log(_ index: Int, reps: Int, key: String) async throws -> IdempotentAnswer<LoggedSet> {
                try await module.active.logSet(
                    userId: "u",
                    request: .init(
                        workoutId: started.id, exerciseInstanceId: added.exercises[0].instanceId, setId: sets[index].id, weightKg: 100,
                        reps: reps, rir: nil),
                    key: key)
            }
            let first = try await log(0, reps: 5, key: "k1")
            _ = try await log(1, reps: 6, key: "k2")
            let repeated = try await log(0, reps: 5, key: "k1")
            #expect(repeated.json == first.json)
            #expect(try repeated.value() == JSONCoding.makeDecoder().decode(LoggedSet.self, from: Data(first.json)))
            #expect(try repeated.value().version == 3, "the answer of the first call, not of the current workout")
            #expect(try repeated.value().set.reps == 5)

            // An answer kept by an earlier version: a storage document (dates as milliseconds), format 1.
            let legacy = LoggedSet(
                workoutId: started.id, exerciseInstanceId: added.exercises[0].instanceId,
                set: WorkoutSet(
                    id: sets[2].id, setIndex: 2, weightKg: 80, reps: 8, completedAt: Date(millisecondsSince1970: 1_700_000_000_123)),
                totals: WorkoutTotals(sets: 1, reps: 8, volume: 640), version: 2)
            let request = ActiveWorkoutService.LogSetRequest(
                workoutId: started.id, exerciseInstanceId: added.exercises[0].instanceId, setId: sets[2].id, weightKg: 100, reps: 7,
                rir: nil)
            try await db.sql.raw(
                """
                INSERT INTO workouts_idempotency (user_id, idempotency_key, operation, request_hash, response, created_at)
                VALUES ('u', 'old', 'logSet', \(bind: try IdempotencyStore.requestFingerprint(operation: "logSet", request: request)),
                        \(bind: try JSONCoding.store(legacy)), 0)
                """
            ).run()
            let replayed = try await log(2, reps: 7, key: "old")
            #expect(try replayed.value() == legacy)
            #expect(replayed.json == Array(try JSONCoding.encode(legacy)))
            let current = try #require(try await module.active.active(userId: "u"))
            #expect(current.exercises[0].sets[2].reps == nil, "a replay changes nothing")
            #expect(current.version == 4)
        }
    }
}
