import Contracts
import Foundation
import Platform
import SQLKit
import Synchronization
import TestSupport
import Testing

@testable import Workouts

/// An import is bounded (`ImportCaps`) and written in batches, so one file can neither stall other users' writes nor
/// grow an answer without bound, and a file cut short is completed by sending it again.
@Suite struct ImportBoundsTests {
    static let header = "Date,Workout Name,Duration,Exercise Name,Set Order,Weight,Reps,Distance,Seconds,Notes,Workout Notes,RPE"

    /// A Strong file of `workouts` workouts, a day apart, each of `rows` (exercise name, set number) rows.
    static func strong(workouts: Int, title: String = "Day", rows: [(String, Int)] = [("Squat (Barbell)", 1)]) -> String {
        var lines = [header]
        let start = Date(timeIntervalSince1970: 1_500_000_000)
        for day in 0..<workouts {
            let date = start.addingTimeInterval(Double(day) * 86_400).rfc3339.prefix(19).replacingOccurrences(of: "T", with: " ")
            for (name, order) in rows { lines.append("\(date),\(title),1h,\(name),\(order),100,5,0,0,,,") }
        }
        return lines.joined(separator: "\n")
    }

    static func expectRefusal(_ module: WorkoutsModule, _ content: String, reason: String, limit: Int) async {
        do {
            _ = try await module.importer.base.run(userId: "u", request: .init(format: "strong_csv", content: content))
            Issue.record("accepted a file beyond \(reason)")
        } catch let error as ServiceError {
            #expect(error.code == .invalidArgument && error.details["reason"] == reason, "\(error)")
            #expect(error.details["limit"] == "\(limit)" && error.details["field"] == "content")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func filesBeyondTheFileCapsAreRefusedWholeNamingTheLimit(engine: SQLEngine) async throws {
        try await WorkoutImportTests.with(engine) { module, db in
            await Self.expectRefusal(
                module, Self.strong(workouts: ImportCaps.workoutsPerFile + 1), reason: "more than 5000 workouts", limit: 5000)
            let names = (0...ImportCaps.distinctNames).map { ("Exercise \($0)", 1) }
            await Self.expectRefusal(module, Self.strong(workouts: 1, rows: names), reason: "more than 300 exercise names", limit: 300)
            let stored = try await db.sql.raw("SELECT COUNT(*) AS n FROM workouts_history").first(decodingColumn: "n", as: Int.self)
            #expect(stored == 0)
            // At the caps, the file imports.
            let result = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: Self.strong(workouts: ImportCaps.workoutsPerFile)))
            #expect(result.imported == ImportCaps.workoutsPerFile)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func rowsBeyondAWorkoutsCapsAreSkippedWithTheirReason(engine: SQLEngine) async throws {
        try await WorkoutImportTests.with(engine) { module, _ in
            // 31 sets of squats in a row, then 50 more runs alternating bench and squat (51 exercises in all).
            let squats = (1...31).map { ("Squat (Barbell)", $0) }
            let runs = (0..<51).map { ($0 % 2 == 0 ? "Bench Press (Barbell)" : "Squat (Barbell)", 1) }
            let result = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: Self.strong(workouts: 1, rows: squats + runs)))
            #expect(
                result.skipped == [
                    SkippedRow(row: 32, reason: "an exercise holds at most 30 sets in a row"),
                    SkippedRow(row: 82, reason: "a workout holds at most 50 exercises"),
                    SkippedRow(row: 83, reason: "a workout holds at most 50 exercises"),
                ], "\(result.skipped)")
            let workout = try await module.history.get(userId: "u", id: result.workoutIds[0])
            #expect(workout.exercises.count == 50 && workout.exercises[0].sets.count == 30)

            let long = String(repeating: "t", count: 101)
            let titled = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: Self.strong(workouts: 1, title: long)))
            #expect(titled.imported == 0 && titled.skipped.map(\.reason) == ["a workout name longer than 100 characters"])
            let named = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: Self.strong(workouts: 1, rows: [(long, 1)])))
            #expect(named.skipped.map(\.reason) == ["an exercise name longer than 100 characters"] && named.unmatchedExercises.isEmpty)
        }
    }

    /// What a skipped row's reason quotes of the file is at most 40 characters, control characters shown as `?`, and
    /// at most 100 skipped rows are listed.
    @Test(arguments: TestDatabases.engines)
    func skippedRowsEchoLittleOfTheFile(engine: SQLEngine) async throws {
        try await WorkoutImportTests.with(engine) { module, _ in
            let junk = "\u{1B}[2J" + String(repeating: "x", count: 5000)
            let rows = (0..<150).map { _ in "\(junk),Day,1h,Squat (Barbell),1,100,5,0,0,,," }
            let result = try await module.importer.base.run(
                userId: "u", request: .init(format: "strong_csv", content: ([Self.header] + rows).joined(separator: "\n")))
            #expect(result.skippedTotal == 150 && result.skipped.count == 100)
            #expect(
                result.skipped[0].reason == "'?[2J" + String(repeating: "x", count: 36) + "…' is not a date and time (YYYY-MM-DD HH:MM:SS)")
        }
    }

    /// Written in batches: another user's write runs between two batches of a large import (on SQLite's single
    /// writer it would otherwise wait for the whole file), and an import cut short after a batch is completed by
    /// sending the file again, each workout once.
    @Test(arguments: TestDatabases.engines)
    func importsAreWrittenInBatchesAndCompletedWhenSentAgain(engine: SQLEngine) async throws {
        try await WorkoutImportTests.with(engine) { module, db in
            let content = Self.strong(workouts: 35)
            let calls = Mutex<[Int]>([])
            var importer = module.importer.base
            importer.batchSize = 10
            importer.afterBatch = { written in
                calls.withLock { $0.append(written) }
                if written == 10 {
                    // Another user's write, while this import is between its batches.
                    let other = try await module.importer.base.run(
                        userId: "v", request: .init(format: "strong_csv", content: Self.strong(workouts: 1)))
                    #expect(other.imported == 1)
                }
                if written == 20 { throw CancellationError() }
            }
            await #expect(throws: CancellationError.self) {
                _ = try await importer.run(userId: "u", request: .init(format: "strong_csv", content: content))
            }
            #expect(calls.withLock { $0 } == [10, 20])
            func stored(_ user: String) async throws -> Int? {
                try await db.sql.raw("SELECT COUNT(*) AS n FROM workouts_history WHERE user_id = \(bind: user)")
                    .first(decodingColumn: "n", as: Int.self)
            }
            let (written, other) = (try await stored("u"), try await stored("v"))
            #expect(written == 20 && other == 1)

            let again = try await module.importer.base.run(userId: "u", request: .init(format: "strong_csv", content: content))
            #expect(again.imported == 15)
            #expect(try await module.importer.base.run(userId: "u", request: .init(format: "strong_csv", content: content)).imported == 0)
            let events = try await db.sql.raw(
                "SELECT COUNT(*) AS n FROM platform_outbox WHERE type = \(bind: WorkoutCompleted.eventType)"
            ).first(decodingColumn: "n", as: Int.self)
            let total = try await stored("u")
            #expect(total == 35 && events == 36, "one event a workout, never two")
        }
    }
}
