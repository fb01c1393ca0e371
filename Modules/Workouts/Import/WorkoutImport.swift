import Contracts
import Crypto
import Foundation
import Platform
import SQLKit

/// Imports a history exported from Strong or Hevy as completed workouts, each with its own dates, archived and
/// announced (`WorkoutCompleted`) like any other.
///
/// A workout's id comes from the user, the format and the workout's start and title in the file, so importing the
/// same file again — or a later export that repeats older workouts — adds only what is new. Rows that are not sets
/// or cannot be read are reported with their row and reason; exercise names are matched to the catalog (`resolve`),
/// and names it cannot match are reported with their row count, never guessed. A file is bounded by `ImportCaps`
/// and written `batchSize` workouts to a transaction, so no other user's write waits behind a large import for
/// longer than one batch; an import cut short leaves the batches it wrote, and sending the file again adds the rest.
///
/// A Strong file's weights carry no unit: they are read in `weight_unit` when given, else in the user's unit (the
/// account's `weight_format`, through `accounts`; kilograms where there is no directory, as in the Workouts CLI).
struct WorkoutImport: Sendable {
    let context: WorkoutsContext
    /// The catalog id an exported exercise name stands for, or nil.
    let resolve: @Sendable (String) async throws -> String?
    /// Where the user's unit is read when a request gives none.
    var accounts: (any AccountDirectory)? = nil
    /// Workouts written in one transaction.
    var batchSize = 50
    /// Runs after each batch is committed with the workouts written so far (tests cut an import short here).
    var afterBatch: @Sendable (Int) async throws -> Void = { _ in }

    /// The largest `content` taken (the endpoint's body limit is the same).
    static let maxContentBytes = 16 * 1024 * 1024

    struct Request: Codable, Sendable {
        var format: String
        var content: String
        var weightUnit: String?
        var timeZone: String?

        enum CodingKeys: String, CodingKey {
            case format, content
            case weightUnit = "weight_unit"
            case timeZone = "time_zone"
        }
    }

    struct UnmatchedExercise: Codable, Sendable, Equatable {
        var name: String
        var rows: Int
    }

    struct Result: Codable, Sendable, Equatable {
        var imported: Int
        var sets: Int
        /// The first `ImportCaps.skippedListed` rows left out; `skippedTotal` counts them all.
        var skipped: [SkippedRow]
        var skippedTotal: Int
        var unmatchedExercises: [UnmatchedExercise]
        var workoutIds: [String]

        enum CodingKeys: String, CodingKey {
            case imported, sets, skipped
            case skippedTotal = "skipped_total"
            case unmatchedExercises = "unmatched_exercises"
            case workoutIds = "workout_ids"
        }
    }

    /// Imports `request.content` for the user. `progress` hears (workouts written, workouts in the file).
    func run(userId: String, request: Request, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) async throws -> Result {
        var request = request
        if request.weightUnit == nil, let account = try await accounts?.account(userId: userId) {
            request.weightUnit = account.weightUnit == .pounds ? "lb" : "kg"
        }
        let reading = try Self.read(request)
        try ImportCaps.checkFile(reading)
        // Names are matched once each, in the file's order.
        var ids: [String: String] = [:]
        var unmatched: [String: Int] = [:]
        var unmatchedOrder: [String] = []
        for set in reading.sets where ids[set.exerciseName] == nil {
            if let rows = unmatched[set.exerciseName] {
                unmatched[set.exerciseName] = rows + 1
                continue
            }
            if let id = try await resolve(set.exerciseName) {
                ids[set.exerciseName] = id
            } else {
                unmatched[set.exerciseName] = 1
                unmatchedOrder.append(set.exerciseName)
            }
        }
        let catalog = try await context.catalog.exercises(ids: Array(Set(ids.values)))
        let (workouts, overCaps) = Self.workouts(
            from: reading.sets.filter { ids[$0.exerciseName] != nil }, userId: userId, format: request.format, ids: ids, catalog: catalog)
        progress(0, workouts.count)

        var written: [CompletedWorkout] = []
        for batch in workouts.chunked(batchSize) {
            written += try await write(Array(batch), userId: userId)
            progress(written.count, workouts.count)
            try await afterBatch(written.count)
        }
        let skipped = (reading.skipped + overCaps).sorted { $0.row < $1.row }
        return Result(
            imported: written.count, sets: written.reduce(0) { $0 + $1.exercises.reduce(0) { $0 + $1.sets.count } },
            skipped: Array(skipped.prefix(ImportCaps.skippedListed)), skippedTotal: skipped.count,
            unmatchedExercises: unmatchedOrder.map { UnmatchedExercise(name: $0, rows: unmatched[$0] ?? 0) },
            workoutIds: written.map(\.id))
    }

    /// Archives the workouts of one batch that are not archived yet, in one transaction; answers those it wrote.
    private func write(_ batch: [CompletedWorkout], userId: String) async throws -> [CompletedWorkout] {
        let now = context.clock.now()
        return try await context.database.transaction { tx -> [CompletedWorkout] in
            let existing = Set(
                try await tx.sql.raw(
                    "SELECT id FROM workouts_history WHERE user_id = \(bind: userId) AND id IN (\(binds: batch.map(\.id)))"
                ).all(decodingColumn: "id", as: String.self))
            var written: [CompletedWorkout] = []
            for workout in batch where !existing.contains(workout.id) {
                var workout = workout
                workout.createdAt = now
                workout.updatedAt = now
                try await tx.sql.raw(
                    """
                    INSERT INTO workouts_history (id, user_id, end_time, document, created_at, updated_at)
                    VALUES (\(bind: workout.id), \(bind: userId), \(bind: workout.endTime.millisecondsSince1970), \(bind: try JSONCoding.store(workout)),
                            \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
                    """
                ).run()
                try await tx.publish(
                    WorkoutCompleted(
                        userId: userId, workoutId: workout.id, sourceTemplateId: nil, sourceRoutineId: nil, completedAt: workout.endTime,
                        durationMinutes: workout.endTime.timeIntervalSince(workout.startTime) / 60, exerciseCount: workout.exercises.count,
                        setCount: workout.analytics.totals.sets, imported: true),
                    id: "workout-completed:\(workout.id)", occurredAt: now)
                written.append(workout)
            }
            return written
        }
    }

    /// Checks the request and reads its rows.
    static func read(_ request: Request) throws -> ExportReading {
        guard ["strong_csv", "hevy_csv"].contains(request.format) else {
            throw ServiceError.invalidArgument(field: "format", reason: "must be strong_csv or hevy_csv")
        }
        let pounds: Bool
        switch request.weightUnit {
        case nil, "kg": pounds = false
        case "lb", "lbs": pounds = true
        default: throw ServiceError.invalidArgument(field: "weight_unit", reason: "must be kg or lb")
        }
        var timeZone = TimeZone.gmt
        if let name = request.timeZone {
            guard TimeZoneNames.isKnown(name), let zone = TimeZone(identifier: name) else {
                throw ServiceError.invalidArgument(field: "time_zone", reason: "not a time zone (an IANA name such as Europe/Berlin)")
            }
            timeZone = zone
        }
        guard request.content.utf8.count <= maxContentBytes else {
            throw ServiceError.invalidArgument(field: "content", reason: "larger than 16 MiB")
        }
        guard !request.content.utf8.contains(0) else {
            throw ServiceError.invalidArgument(field: "content", reason: "holds a NUL character")
        }
        let csv: CSVReader
        do {
            csv = try CSVReader(request.content)
        } catch {
            throw ServiceError.invalidArgument(
                field: "content", reason: "broken quoting", message: "Row \(error.record) of the file cannot be read: \(error.reason).")
        }
        guard !csv.records.isEmpty else {
            throw ServiceError.invalidArgument(field: "content", reason: "holds no rows", message: "The file holds no workouts.")
        }
        return request.format == "strong_csv"
            ? try StrongExport.read(csv, pounds: pounds, timeZone: timeZone) : try HevyExport.read(csv, timeZone: timeZone)
    }

    /// The file's workouts in the order they first appear; each exercise an entry per run of consecutive rows. Rows
    /// beyond a workout's caps (`ImportCaps`: exercises, sets of an exercise) are left out, and answered as skipped.
    static func workouts(
        from sets: [ExportedSet], userId: String, format: String, ids: [String: String], catalog: [String: Exercise]
    ) -> (workouts: [CompletedWorkout], skipped: [SkippedRow]) {
        var order: [String] = []
        var grouped: [String: [ExportedSet]] = [:]
        for set in sets {
            if grouped[set.workoutKey] == nil { order.append(set.workoutKey) }
            grouped[set.workoutKey, default: []].append(set)
        }
        var skipped: [SkippedRow] = []
        let workouts = order.compactMap { key -> CompletedWorkout? in
            guard let rows = grouped[key], let first = rows.first else { return nil }
            var exercises: [WorkoutExercise] = []
            var full = false
            for row in rows {
                guard let id = ids[row.exerciseName] else { continue }
                let name = catalog[id]?.name ?? row.exerciseName
                if full || exercises.last?.exerciseId != id || exercises.last?.name != name {
                    // Once full, every later row goes: none may join an earlier exercise it did not follow.
                    full = exercises.count >= ImportCaps.exercisesPerWorkout
                    guard !full else {
                        skipped.append(
                            SkippedRow(row: row.row, reason: "a workout holds at most \(ImportCaps.exercisesPerWorkout) exercises"))
                        continue
                    }
                    exercises.append(WorkoutExercise(instanceId: "e\(exercises.count)", exerciseId: id, name: name, sets: []))
                }
                let index = exercises[exercises.count - 1].sets.count
                guard index < ImportCaps.setsPerExercise else {
                    skipped.append(
                        SkippedRow(row: row.row, reason: "an exercise holds at most \(ImportCaps.setsPerExercise) sets in a row"))
                    continue
                }
                exercises[exercises.count - 1].sets.append(
                    WorkoutSet(
                        id: "s\(index)", setIndex: index, weightKg: row.weightKg, reps: row.reps, rir: row.rir.map { min(10, max(0, $0)) },
                        completedAt: row.end))
            }
            var digest = SHA256()
            digest.update(data: Array("\(userId)\n\(format)\n\(key)".utf8))
            let id = "imp-" + String(Data(digest.finalize()).hexString.prefix(28))
            return CompletedWorkout(
                id: id, userId: userId, name: first.workoutName, sourceTemplateId: nil, sourceRoutineId: nil, startTime: first.start,
                endTime: first.end, exercises: exercises, analytics: WorkoutAnalyzer.analyze(exercises, catalog: catalog),
                createdAt: first.end,
                updatedAt: first.end)
        }
        return (workouts, skipped)
    }
}

/// The import as the CLI calls it: a file's text in, counts and reasons out.
public struct WorkoutImporter: Sendable {
    let base: WorkoutImport

    /// What an import did, as the CLI prints it.
    public struct Summary: Sendable {
        public var imported: Int
        public var sets: Int
        /// The first skipped rows (`ImportCaps.skippedListed`); `skippedTotal` counts them all.
        public var skipped: [(row: Int, reason: String)]
        public var skippedTotal: Int
        public var unmatched: [(name: String, rows: Int)]
    }

    /// Imports `content` (`strong_csv` or `hevy_csv`) for the user; `progress` hears (written, total).
    public func importFile(
        userId: String, format: String, content: String, weightUnit: String?, timeZone: String?,
        progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> Summary {
        let result = try await base.run(
            userId: userId, request: .init(format: format, content: content, weightUnit: weightUnit, timeZone: timeZone), progress: progress
        )
        return Summary(
            imported: result.imported, sets: result.sets, skipped: result.skipped.map { ($0.row, $0.reason) },
            skippedTotal: result.skippedTotal, unmatched: result.unmatchedExercises.map { ($0.name, $0.rows) })
    }
}
