import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// Importing histories exported from Strong and Hevy.
@Suite struct WorkoutImportTests {
    /// A Strong export as the app writes it: a warm-up, a rest timer row, an unknown exercise, a cardio row, a bad
    /// date and impossible reps among real sets, and a quoted note holding a comma and a line break.
    static let strong = """
        Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE
        2024-03-04 18:30:00,"Push Day",1h 5m,"Bench Press (Barbell)",W,40,10,0,0,"","",
        2024-03-04 18:30:00,"Push Day",1h 5m,"Bench Press (Barbell)",1,80,8,0,0,"easy, fast
        bar speed","",7
        2024-03-04 18:30:00,"Push Day",1h 5m,"Bench Press (Barbell)",Rest Timer,0,0,0,90,"","",
        2024-03-04 18:30:00,"Push Day",1h 5m,"Bench Press (Barbell)",2,82.5,6,0,0,"","",9.5
        2024-03-04 18:30:00,"Push Day",1h 5m,"Overhead Press (Barbell)",1,50,5,0,0,"","",
        2024-03-04 18:30:00,"Push Day",1h 5m,"Zercher Yoke Walk",1,100,1,0,0,"","",
        2024-03-04 18:30:00,"Push Day",1h 5m,"Zercher Yoke Walk",2,100,1,0,0,"","",
        2024-03-06 07:00:00,"Legs",45m,"Squat (Barbell)",1,100,5,0,0,"","",
        2024-03-06 07:00:00,"Legs",45m,"Squat (Barbell)",2,100,5000,0,0,"","",
        2024-03-06 07:00:00,"Legs",45m,"Running",1,,,5,1500,"","",
        2024-13-06 07:00:00,"Legs",45m,"Squat (Barbell)",3,100,5,0,0,"","",

        """

    static let hevy = """
        "title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe"
        "Pull","28 Dec 2023, 17:09","28 Dec 2023, 18:02","","Deadlift (Barbell)",,"",0,"warmup",60,5,,,
        "Pull","28 Dec 2023, 17:09","28 Dec 2023, 18:02","","Deadlift (Barbell)",,"",1,"normal",140,5,,,8
        "Pull","28 Dec 2023, 17:09","28 Dec 2023, 18:02","","Lat Pulldown (Cable)",,"",0,"normal",60,10,,,
        "Pull","28 Dec 2023, 17:09","28 Dec 2023, 18:02","","Lat Pulldown (Cable)",,"",1,"failure",-5,10,,,
        """

    static func with(_ engine: SQLEngine, _ body: (WorkoutsModule, Database) async throws -> Void) async throws {
        try await TestDatabases.with(engine, migrate: [Migrator.platformMigrations, ("workouts", WorkoutsModule.migrations)]) { db in
            try await body(try await WorkoutsTesting.module(db, clock: FakeWallClock()), db)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func aStrongExportBecomesCompletedWorkoutsWithEveryOtherRowAccountedFor(engine: SQLEngine) async throws {
        try await Self.with(engine) { module, db in
            let result = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: Self.strong, weightUnit: "kg", timeZone: "Europe/Berlin"))
            #expect(result.imported == 2)
            #expect(result.sets == 5, "warm-up, two bench sets, the press, one squat")
            #expect(
                result.skipped == [
                    SkippedRow(row: 10, reason: "'5000' reps is not possible (1 to 1000)"),
                    SkippedRow(row: 11, reason: "no reps (timed and distance sets are not imported)"),
                    SkippedRow(row: 12, reason: "'2024-13-06 07:00:00' is not a date and time (YYYY-MM-DD HH:MM:SS)"),
                ], "\(result.skipped)")
            #expect(result.unmatchedExercises == [.init(name: "Zercher Yoke Walk", rows: 2)])

            let push = try await module.history.get(userId: "u", id: result.workoutIds[0])
            #expect(push.name == "Push Day")
            #expect(push.startTime == Date(timeIntervalSince1970: 1_709_573_400), "18:30 in Berlin is 17:30 UTC")
            #expect(push.endTime.timeIntervalSince(push.startTime) == 65 * 60)
            #expect(push.exercises.map(\.exerciseId) == ["Barbell_Bench_Press_-_Medium_Grip", "Standing_Military_Press"])
            #expect(push.exercises[0].sets.map(\.weightKg) == [40, 80, 82.5])
            #expect(push.exercises[0].sets.map(\.rir) == [nil, 3, 1], "RIR is 10 − RPE (9.5 rounds to 1)")
            #expect(push.analytics.totals.sets == 4)
            let events = try await db.sql.raw("SELECT COUNT(*) AS n FROM platform_outbox WHERE type = \(bind: WorkoutCompleted.eventType)")
                .first(decodingColumn: "n", as: Int.self)
            #expect(events == 2)

            let again = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: Self.strong, weightUnit: "kg", timeZone: "Europe/Berlin"))
            #expect(again.imported == 0 && again.workoutIds.isEmpty, "a second import of the same file adds nothing")
            #expect(try await module.trainingLog.recentWorkouts(userId: "u", limit: 10).count == 2)
            // Another user importing the same file gets workouts of their own.
            #expect(
                try await module.importer.base.run(userId: "v", request: .init(format: "strong_csv", content: Self.strong)).imported == 2)
        }
    }

    /// A Strong file's weights carry no unit: without `weight_unit` they are the user's unit, read from the account
    /// directory (`pounds` as Auth stores it); a unit named in the request wins; without a directory they are kilograms.
    @Test(arguments: TestDatabases.engines)
    func withoutAWeightUnitTheUsersUnitIsRead(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [Migrator.platformMigrations, ("workouts", WorkoutsModule.migrations)]) {
            (db) async throws in
            let account = { (id: String, format: String?) in
                AccountSummary(
                    userId: id, email: "\(id)@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                    createdAt: Date(), weightFormat: format)
            }
            let accounts = FakeAccountDirectory([
                account("pounds", "pounds"), account("kilos", "kilograms"), account("unset", nil), account("pounds-asking-kg", "pounds"),
                account("kilos-asking-lb", "kilograms"), account("pounds-on-the-cli", "pounds"),
            ])
            let module = try await WorkoutsTesting.module(db, clock: FakeWallClock(), accounts: accounts)
            func bench(_ module: WorkoutsModule, _ user: String, _ unit: String?) async throws -> [Double?] {
                let result = try await module.importer.base.run(
                    userId: user, request: .init(format: "strong_csv", content: Self.strong, weightUnit: unit, timeZone: nil))
                return try await module.history.get(userId: user, id: result.workoutIds[0]).exercises[0].sets.map(\.weightKg)
            }
            #expect(try await bench(module, "pounds", nil) == [18.14, 36.29, 37.42], "40, 80 and 82.5 lb")
            #expect(try await bench(module, "kilos", nil) == [40, 80, 82.5])
            #expect(try await bench(module, "unset", nil) == [40, 80, 82.5])
            #expect(try await bench(module, "no-account", nil) == [40, 80, 82.5])
            #expect(try await bench(module, "pounds-asking-kg", "kg") == [40, 80, 82.5], "the request's unit wins")
            #expect(try await bench(module, "kilos-asking-lb", "lb") == [18.14, 36.29, 37.42])
            let withoutDirectory = WorkoutsModule(database: db, clock: FakeWallClock(), ids: RandomIDGenerator())
            #expect(try await bench(withoutDirectory, "pounds-on-the-cli", nil) == [40, 80, 82.5], "no directory: kilograms")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func poundsAreConvertedAndHevyExportsRead(engine: SQLEngine) async throws {
        try await Self.with(engine) { module, _ in
            let pounds = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: Self.strong, weightUnit: "lb", timeZone: nil))
            let bench = try await module.history.get(userId: "u", id: pounds.workoutIds[0]).exercises[0]
            #expect(bench.sets.map(\.weightKg) == [18.14, 36.29, 37.42])

            let hevy = try await module.importer.base.run(
                userId: "u", request: .init(format: "hevy_csv", content: Self.hevy, timeZone: "UTC"))
            #expect(hevy.imported == 1 && hevy.sets == 3)
            #expect(hevy.skipped == [SkippedRow(row: 5, reason: "a weight of -5.0 kg is not possible (0 to 1000 kg)")])
            let pull = try await module.history.get(userId: "u", id: hevy.workoutIds[0])
            #expect(pull.exercises.map(\.exerciseId) == ["Barbell_Deadlift", "Wide-Grip_Lat_Pulldown"])
            #expect(pull.exercises[0].sets.map(\.rir) == [nil, 2])
            #expect(
                pull.startTime == Date(timeIntervalSince1970: 1_703_783_340) && pull.endTime.timeIntervalSince(pull.startTime) == 53 * 60)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func badFilesAreRefusedWholeNamingWhatIsWrong(engine: SQLEngine) async throws {
        try await Self.with(engine) { module, db in
            let cases: [(WorkoutImport.Request, String, String)] = [
                (.init(format: "strong_csv", content: Self.hevy), "content", "not a Strong export"),
                (.init(format: "hevy_csv", content: Self.strong), "content", "not a Hevy export"),
                (.init(format: "fitbod_csv", content: Self.strong), "format", "must be strong_csv or hevy_csv"),
                (.init(format: "strong_csv", content: Self.strong, weightUnit: "stone"), "weight_unit", "must be kg or lb"),
                (
                    .init(format: "strong_csv", content: Self.strong, timeZone: "Mars/Base"), "time_zone",
                    "not a time zone (an IANA name such as Europe/Berlin)"
                ),
                (.init(format: "strong_csv", content: "Date,Workout Name\n\"2024-01-01,x\n"), "content", "broken quoting"),
                (.init(format: "strong_csv", content: ""), "content", "holds no rows"),
            ]
            for (request, field, reason) in cases {
                do {
                    _ = try await module.importer.base.run(userId: "u", request: request)
                    Issue.record("accepted \(field): \(reason)")
                } catch let error as ServiceError {
                    #expect(error.code == .invalidArgument)
                    #expect(error.details["field"] == field && error.details["reason"] == reason, "\(error.details)")
                }
            }
            let stored = try await db.sql.raw("SELECT COUNT(*) AS n FROM workouts_history").first(decodingColumn: "n", as: Int.self)
            #expect(stored == 0, "nothing half-imported")
        }
    }

    /// A Strong row whose Duration no 64-bit millisecond count can hold once added to its start (`1e16` seconds,
    /// `inf`, `1e16h`) once stopped the process. Every duration that is not finite or is longer than a day is
    /// refused with its row, and the rest of the file imports.
    @Test(arguments: TestDatabases.engines)
    func durationsBeyondADayAreRefusedRowByRow(engine: SQLEngine) async throws {
        try await Self.with(engine) { module, _ in
            let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"
            let durations = ["1e16", "inf", "1e16h", "nan", "-inf", "1e308m", "25h", "-5", "86401", "24h", "1h 5m"]
            let rows = durations.enumerated().map { index, duration in
                "2024-03-0\(index % 9 + 1) 1\(index % 10):00:00,Day \(index),\(duration),Squat (Barbell),1,100,5,0,0,,,"
            }
            let result = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: ([header] + rows).joined(separator: "\n")))
            #expect(result.skipped.map(\.row) == Array(2...10), "\(result.skipped)")
            #expect(result.skipped.allSatisfy { $0.reason.hasSuffix("is not possible (up to 24 hours)") }, "\(result.skipped)")
            #expect(result.imported == 2)
            var lengths: [TimeInterval] = []
            for id in result.workoutIds {
                let workout = try await module.history.get(userId: "u", id: id)
                lengths.append(workout.endTime.timeIntervalSince(workout.startTime))
            }
            #expect(lengths == [86_400, 3900])

            let hevyHeader =
                #""title","start_time","end_time","description","exercise_title","superset_id","exercise_notes","set_index","set_type","weight_kg","reps","distance_km","duration_seconds","rpe""#
            let hevy = try await module.importer.base.run(
                userId: "u",
                request: .init(
                    format: "hevy_csv",
                    content: hevyHeader + "\n"
                        + #""Long","1 Jan 2024, 10:00","3 Jan 2024, 10:00","","Deadlift (Barbell)",,"",0,"normal",100,5,,,"#))
            #expect(hevy.imported == 0 && hevy.skipped.map(\.row) == [2], "\(hevy.skipped)")
        }
    }
}
