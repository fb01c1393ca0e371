import Contracts
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// Input never traps (docs/platform.md): generated and damaged Strong and Hevy files end in workouts or a clear
/// refusal, never a crash, and nothing read from them lies outside what the history can hold.
@Suite struct ImportPropertyTests {
    static let zones: [String?] = [nil, "UTC", "Europe/Berlin", "Pacific/Kiritimati", "America/St_Johns"]

    /// 4,000 files read, grouped into workouts and encoded as the import stores them.
    @Test func everyGeneratedFileIsReadOrRefusedWithinBounds() throws {
        var random = SeededRandomNumberGenerator(seed: 4801)
        var read = 0
        for index in 0..<4000 {
            let format = index % 2 == 0 ? "strong_csv" : "hevy_csv"
            let request = WorkoutImport.Request(
                format: format, content: GeneratedExports.file(format: format, using: &random),
                weightUnit: HostileText.pick([nil, "kg", "lb"], using: &random), timeZone: HostileText.pick(Self.zones, using: &random))
            let reading: ExportReading
            do {
                reading = try WorkoutImport.read(request)
            } catch let error as ServiceError {
                #expect(error.code == .invalidArgument, "\(request.content)")
                continue
            }
            read += 1
            for set in reading.sets {
                let length = set.end.timeIntervalSince(set.start)
                #expect((0...ExportFields.maxWorkoutDuration).contains(length), "\(set)")
                #expect(set.weightKg.map { (0...1000).contains($0) } ?? true, "\(set)")
                #expect((1...1000).contains(set.reps) && (set.rir.map { (0...10).contains($0) } ?? true), "\(set)")
            }
            let ids = Dictionary(reading.sets.map { ($0.exerciseName, "Barbell_Squat") }, uniquingKeysWith: { first, _ in first })
            for workout in WorkoutImport.workouts(from: reading.sets, userId: "u", format: format, ids: ids, catalog: [:]).workouts {
                _ = workout.endTime.millisecondsSince1970
                _ = try JSONCoding.store(workout)
            }
        }
        #expect(read > 2000, "most generated files are exports; \(read) were read")
    }

    /// 150 files imported whole on each engine: each ends in a result or `INVALID_ARGUMENT`, and the history holds
    /// exactly what the results say was imported.
    @Test(arguments: TestDatabases.engines)
    func generatedFilesImportOrAreRefused(engine: SQLEngine) async throws {
        try await WorkoutImportTests.with(engine) { module, db in
            var random = SeededRandomNumberGenerator(seed: 4802)
            var imported = 0
            for index in 0..<150 {
                let format = index % 2 == 0 ? "strong_csv" : "hevy_csv"
                let request = WorkoutImport.Request(
                    format: format, content: GeneratedExports.file(format: format, maxRows: 15, using: &random),
                    weightUnit: HostileText.pick([nil, "kg", "lb"], using: &random), timeZone: HostileText.pick(Self.zones, using: &random))
                do {
                    imported += try await module.importer.base.run(userId: "u", request: request).imported
                } catch let error as ServiceError {
                    #expect(error.code == .invalidArgument, "\(request.content)")
                }
            }
            let stored = try await db.sql.raw("SELECT COUNT(*) AS n FROM workouts_history WHERE user_id = 'u'")
                .first(decodingColumn: "n", as: Int.self)
            #expect(stored == imported && imported > 20, "\(imported) imported")
        }
    }
}
