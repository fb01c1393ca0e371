import Contracts
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

@Suite struct ActiveWorkoutStorageTests {
    /// `plannedWeights`: false for documents as stored before planned weights existed.
    static func randomWorkout(_ generator: inout some RandomNumberGenerator, plannedWeights: Bool = true) -> ActiveWorkout {
        let names = ["Bench \"Press\"", "Squat\\Deep", "Curl\nline", "Ünïcødé 🏋️", "tab\there", "ctl\u{1}x", ""]
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &generator) ? value : nil }
        let start = Date(millisecondsSince1970: Int64.random(in: 1_600_000_000_000...1_900_000_000_000, using: &generator))
        let exercises = (0..<Int.random(in: 0...5, using: &generator)).map { index in
            WorkoutExercise(
                instanceId: "i\(index)", exerciseId: "e\(index)", name: names.randomElement(using: &generator)!,
                sets: (0..<Int.random(in: 0...6, using: &generator)).map { setIndex in
                    WorkoutSet(
                        id: "s\(index)-\(setIndex)", setIndex: setIndex, targetReps: maybe(Int.random(in: 0...20, using: &generator)),
                        targetRir: maybe(Int.random(in: 0...10, using: &generator)),
                        targetWeightKg: plannedWeights ? maybe((Double.random(in: 0...300, using: &generator) * 8).rounded() / 8) : nil,
                        weightKg: maybe((Double.random(in: 0...300, using: &generator) * 4).rounded() / 4),
                        reps: maybe(Int.random(in: 0...30, using: &generator)), rir: maybe(Int.random(in: 0...10, using: &generator)),
                        completedAt: maybe(start.addingTimeInterval(Double(setIndex) * 61.5)))
                })
        }
        return ActiveWorkout(
            id: "w", userId: "u", name: maybe(names.randomElement(using: &generator)!), sourceTemplateId: maybe("t"),
            sourceRoutineId: maybe("r"),
            status: [.inProgress, .completed, .cancelled].randomElement(using: &generator)!, startTime: start,
            version: Int.random(in: 1...500, using: &generator), exercises: exercises,
            totals: WorkoutAnalyzer.totals(exercises), createdAt: start, updatedAt: start.addingTimeInterval(3600))
    }

    /// A random edit: set values changed, sets or exercises added, removed or reordered, header fields changed.
    static func edited(_ workout: ActiveWorkout, _ generator: inout some RandomNumberGenerator, serial: Int) -> ActiveWorkout {
        var result = workout
        result.version += 1
        result.updatedAt = workout.updatedAt.addingTimeInterval(5)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0, 1:  // log or correct one set (the hot path: no change of shape)
            if let e = result.exercises.indices.filter({ !result.exercises[$0].sets.isEmpty }).randomElement(using: &generator) {
                let s = result.exercises[e].sets.indices.randomElement(using: &generator)!
                result.exercises[e].sets[s].weightKg = Double(Int.random(in: 0...200, using: &generator)) / 2
                result.exercises[e].sets[s].reps = Int.random(in: 0...20, using: &generator)
                result.exercises[e].sets[s].rir = nil
                result.exercises[e].sets[s].completedAt = result.updatedAt
                if Bool.random(using: &generator) {
                    result.exercises[e].sets[s].targetWeightKg = Double(Int.random(in: 0...400, using: &generator)) / 4
                }
            }
        case 2:
            result.exercises.shuffle(using: &generator)
        case 3:
            result.exercises.append(
                WorkoutExercise(
                    instanceId: "n\(serial)", exerciseId: "x", name: "New",
                    sets: [WorkoutSet(id: "ns\(serial)", setIndex: 0, targetReps: 5)]))
        case 4:
            if !result.exercises.isEmpty {
                let e = result.exercises.indices.randomElement(using: &generator)!
                if result.exercises[e].sets.isEmpty { result.exercises.remove(at: e) } else { result.exercises[e].sets.removeLast() }
            }
        default:
            result.name = result.name == nil ? "Renamed \(serial)" : nil
            result.status = [.inProgress, .completed, .cancelled].randomElement(using: &generator)!
        }
        result.totals = WorkoutAnalyzer.totals(result.exercises)
        return result
    }

    /// Whatever the edit, what is read back is exactly what was saved: the diffing writer never loses or
    /// misplaces a set.
    @Test(arguments: TestDatabases.engines)
    func savedWorkoutsReadBackExactly(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsMigrations.all)]) { db in
            var generator = SystemRandomNumberGenerator()
            for round in 0..<20 {
                var workout = Self.randomWorkout(&generator)
                workout.id = "w\(round)"
                workout.userId = "u\(round)"
                let fresh = workout
                try await db.transaction { tx in try await ActiveWorkoutStorage.insert(fresh, sql: tx.sql) }
                #expect(try await Self.read(workout.id, db) == workout)
                for step in 0..<8 {
                    let next = Self.edited(workout, &generator, serial: round * 100 + step)
                    let before = workout
                    try await db.transaction { tx in try await ActiveWorkoutStorage.save(from: before, to: next, sql: tx.sql) }
                    workout = next
                    #expect(try await Self.read(workout.id, db) == workout, "round \(round) step \(step)")
                }
            }
        }
    }

    /// Logging a set writes the one set row and the header; nothing else is touched.
    @Test func loggingASetUpdatesOneRow() throws {
        var generator = SystemRandomNumberGenerator()
        var workout = Self.randomWorkout(&generator)
        workout.exercises = [
            WorkoutExercise(
                instanceId: "i", exerciseId: "e", name: "E", sets: [WorkoutSet(id: "a", setIndex: 0), WorkoutSet(id: "b", setIndex: 1)])
        ]
        var logged = workout
        logged.exercises[0].sets[1].reps = 5
        #expect(ActiveWorkoutStorage.sameShape(workout.exercises, logged.exercises))
        var reordered = workout
        reordered.exercises[0].sets.reverse()
        #expect(!ActiveWorkoutStorage.sameShape(workout.exercises, reordered.exercises))
        var renamed = workout
        renamed.exercises[0].name = "Other"
        #expect(!ActiveWorkoutStorage.sameShape(workout.exercises, renamed.exercises))
    }

    /// Workouts stored as documents before migration 3 are moved to rows with nothing lost.
    @Test(arguments: TestDatabases.engines)
    func documentsMigrateToRows(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsMigrations.all.filter { $0.version < 3 })]) { db in
            var generator = SystemRandomNumberGenerator()
            var workouts: [ActiveWorkout] = []
            for index in 0..<10 {
                var workout = Self.randomWorkout(&generator, plannedWeights: false)
                workout.id = "w\(index)"
                workout.userId = "u\(index)"
                // Stored as the previous release did: the document (epoch-millisecond dates) beside its key columns.
                try await db.sql.raw(
                    """
                    INSERT INTO workouts_active (id, user_id, status, version, document, created_at, updated_at)
                    VALUES (\(bind: workout.id), \(bind: workout.userId), \(bind: workout.status.rawValue), \(bind: workout.version),
                            \(bind: try JSONCoding.store(workout)), \(bind: workout.createdAt.millisecondsSince1970),
                            \(bind: workout.updatedAt.millisecondsSince1970))
                    """
                ).run()
                workouts.append(workout)
            }
            try await Migrator(database: db, logger: TestDatabases.logger).migrate([("workouts", WorkoutsMigrations.all)])
            for workout in workouts {
                #expect(try await Self.read(workout.id, db) == workout)
            }
        }
    }

    /// Templates and routines written with a blank description before it meant none read as having none once
    /// migration 8 ran; every other description, and the versions and times, stay as they were.
    @Test(arguments: TestDatabases.engines)
    func blankDescriptionsBecomeNone(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsMigrations.all.filter { $0.version < 8 })]) { db in
            let date = Date(timeIntervalSince1970: 1_700_000_000)
            let descriptions: [String?] = ["", "  \n\t", "Heavy day", " Light ", nil]
            // More rows than a page of the migration, so it goes on past the first one.
            let count = 1_201
            for index in 0..<count {
                let id = String(format: "%05d", index)
                let description = descriptions[index % descriptions.count]
                let template = WorkoutTemplate(
                    id: "t\(id)", userId: "u", name: "T", description: description, exercises: [],
                    analytics: TemplateAnalytics(estimatedDurationMinutes: 0, totalSets: 0, muscles: []), version: 3, createdAt: date,
                    updatedAt: date)
                try await db.sql.raw(
                    """
                    INSERT INTO workouts_templates (id, user_id, version, document, created_at, updated_at)
                    VALUES (\(bind: template.id), 'u', 3, \(bind: try JSONCoding.store(template)), 1, 1)
                    """
                ).run()
                if index < 20 {
                    let routine = StoredRoutine(
                        routine: Routine(
                            id: "r\(id)", userId: "u", name: "R", description: description, templateIds: ["t\(id)"], frequency: 2,
                            lastCompletedTemplateId: "t\(id)", lastCompletedAt: date, version: 4, createdAt: date, updatedAt: date),
                        lastCompletedIndex: 0)
                    try await db.sql.raw(
                        """
                        INSERT INTO workouts_routines (id, user_id, version, document, created_at, updated_at)
                        VALUES (\(bind: routine.routine.id), 'u', 4, \(bind: try JSONCoding.store(routine)), 1, 1)
                        """
                    ).run()
                }
            }
            try await Migrator(database: db, logger: TestDatabases.logger).migrate([("workouts", WorkoutsMigrations.all)])

            func expected(_ index: Int) -> String? {
                descriptions[index % descriptions.count].flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
            }
            let templates = try await db.sql.raw("SELECT document FROM workouts_templates ORDER BY id").all(
                decodingColumn: "document", as: String.self
            )
            .map { try JSONCoding.load(WorkoutTemplate.self, from: $0) }
            #expect(templates.count == count)
            for (index, template) in templates.enumerated() {
                #expect(template.description == expected(index), "template \(index)")
                #expect(template.version == 3)
                #expect(template.updatedAt == date)
            }
            let routines = try await db.sql.raw("SELECT document FROM workouts_routines ORDER BY id").all(
                decodingColumn: "document", as: String.self
            )
            .map { try JSONCoding.load(StoredRoutine.self, from: $0) }
            #expect(routines.count == 20)
            for (index, stored) in routines.enumerated() {
                #expect(stored.routine.description == expected(index), "routine \(index)")
                #expect(stored.routine.version == 4)
                #expect(stored.routine.lastCompletedTemplateId == "t" + String(format: "%05d", index))
                #expect(stored.lastCompletedIndex == 0)
            }
        }
    }

    static func read(_ id: String, _ db: Database) async throws -> ActiveWorkout? {
        try await db.readTransaction { sql in
            guard
                let row = try await sql.raw("SELECT \(ActiveWorkoutStorage.headerColumns) FROM workouts_active WHERE id = \(bind: id)")
                    .first()
            else { return nil }
            return try await ActiveWorkoutStorage.load(try ActiveWorkoutStorage.Header(row: row), sql: sql)
        }
    }
}
