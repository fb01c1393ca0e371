import Contracts
import Foundation
import Platform
import SQLKit
import Synchronization
import TestSupport
import Testing
import Workouts

@testable import WorkoutsTool

@Suite struct WorkoutsToolTests {
    func withTool(_ body: (WorkoutsTool, String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The tool works on a database that exists (an empty file is an empty SQLite database).
        FileManager.default.createFile(atPath: "\(directory.path)/db.sqlite", contents: nil)
        let tool = try await WorkoutsTool.open(url: "sqlite://\(directory.path)/db.sqlite", logger: TestDatabases.logger)
        do {
            try await body(tool, directory.path)
        } catch {
            await tool.close()
            throw error
        }
        await tool.close()
    }

    /// A mistyped path, or the default relative one run from another directory, must not start an empty database
    /// that the command then reports on (or imports into) as if it were the server's.
    @Test func aDatabaseFileThatDoesNotExistIsNotCreated() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("povver-tool-\(UUID().uuidString).sqlite").path
        await #expect(
            throws: ServiceError(
                .notFound, "There is no database at \(path). The server creates it when it first starts; check the database URL.",
                details: ["field": "POVVER_DATABASE_URL"])
        ) {
            _ = try await WorkoutsTool.open(url: "sqlite://\(path)", logger: TestDatabases.logger)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// The built `povver-workouts`: a command that fails prints one line to standard error and exits 65 (refused
    /// input) without usage text; a usage mistake is the argument parser's 64 with usage; success prints and exits 0.
    @Test func theCommandLineToolExitsWithAStatusThatSaysWhatFailed() async throws {
        // The tool is built next to the test bundle (`swift build --build-tests` builds every product).
        let products = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .deletingLastPathComponent()
        let binary = products.appendingPathComponent("povver-workouts")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "povver-workouts is built beside the tests")
        func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let output = out.fileHandleForReading.readDataToEndOfFile()
            let error = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
        }
        try await withTool { _, directory in
            let database = "--database=sqlite://\(directory)/db.sqlite"
            let missing = try run(["history", "--user", "u1", "--database=sqlite://\(directory)/typo.sqlite"])
            #expect(missing.status == 65)
            #expect(
                missing.err
                    == "povver-workouts: NOT_FOUND: There is no database at \(directory)/typo.sqlite. The server creates it when it first starts; check the database URL. (POVVER_DATABASE_URL)\n"
            )
            #expect(missing.out.isEmpty && !FileManager.default.fileExists(atPath: "\(directory)/typo.sqlite"))

            let noFile = try run(["import-catalog", "\(directory)/none.json", database])
            #expect(noFile.status == 65)
            #expect(noFile.err == "povver-workouts: NOT_FOUND: Cannot read \(directory)/none.json.\n")

            let badLimit = try run(["history", "--user", "u1", "--limit", "0", database])
            #expect(
                badLimit.status == 65 && badLimit.err.hasPrefix("povver-workouts: INVALID_ARGUMENT: ") && !badLimit.err.contains("Usage"))

            let usage = try run(["history", database])
            #expect(usage.status == 64 && usage.err.contains("Usage"), "a missing --user is a usage mistake")

            let found = try run(["catalog", "search", "barbel squat", "--limit", "2", database])
            #expect(found.status == 0 && found.out.contains("Barbell_Squat") && found.err.isEmpty)
        }
    }

    @Test func catalogSearchPrintsMatches() async throws {
        try await withTool { tool, _ in
            let output = try await tool.searchCatalog(query: "barbel squat", muscle: nil, equipment: nil, category: nil, limit: 3)
            #expect(output.hasPrefix("id"))
            #expect(output.contains("Barbell_Squat"))
            #expect(output.contains("(more: --cursor "))
        }
    }

    /// Every result can be reached: each page prints the cursor of the next, and the pages together list the
    /// whole catalog once.
    @Test func catalogSearchPagesThroughEveryResult() async throws {
        try await withTool { tool, _ in
            var ids: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let output = try await tool.searchCatalog(
                    query: nil, muscle: nil, equipment: nil, category: nil, limit: 100, cursor: cursor)
                var lines = output.split(separator: "\n").map(String.init)
                cursor = nil
                if let last = lines.last, last.hasPrefix("(more: --cursor ") {
                    cursor = String(last.dropFirst("(more: --cursor ".count).dropLast())
                    lines.removeLast()
                }
                ids += lines.dropFirst().map { String($0.prefix { $0 != " " }) }
                pages += 1
            } while cursor != nil && pages < 20
            #expect(pages == 9)
            #expect(ids.count == 873)
            #expect(Set(ids).count == 873)
            await #expect(throws: ServiceError.self) {
                _ = try await tool.searchCatalog(
                    query: "squat", muscle: nil, equipment: nil, category: nil, limit: 5, cursor: "not-a-cursor")
            }
        }
    }

    /// `povver-workouts import`: the summary, and progress as plain lines when not on a terminal.
    @Test func importHistoryPrintsWhatItImportedAndSkipped() async throws {
        try await withTool { tool, directory in
            let file = "\(directory)/strong.csv"
            try Data(WorkoutImportTests.strong.utf8).write(to: URL(fileURLWithPath: file))
            let lines = Mutex<[String]>([])
            let progress = ProgressReport(label: "import", unit: "workouts", terminal: false) { line in lines.withLock { $0.append(line) } }
            let report = try await tool.importHistory(
                userId: "u", format: "strong", path: file, weightUnit: "kg", timeZone: "Europe/Berlin", progress: progress)
            #expect(report.hasPrefix("2 workouts imported (5 sets)\n3 rows skipped:\n"), "\(report)")
            #expect(report.contains("'5000' reps is not possible"))
            #expect(report.contains("exercises not in the catalog (not imported):") && report.contains("Zercher Yoke Walk"))
            #expect(lines.withLock { $0 }.first == "import 0% 0/2 workouts\n")
            #expect(lines.withLock { $0 }.last?.hasPrefix("import 100% 2/2 workouts") == true, "\(lines.withLock { $0 })")
            #expect(
                try await tool.importHistory(userId: "u", format: "strong", path: file, weightUnit: nil, timeZone: "Europe/Berlin")
                    .hasPrefix("0 workouts imported"))
            await #expect(throws: ServiceError.self) {
                _ = try await tool.importHistory(
                    userId: "u", format: "strong", path: "\(directory)/missing.csv", weightUnit: nil, timeZone: nil)
            }
        }
    }

    @Test func importCatalogValidatesThenUpserts() async throws {
        try await withTool { tool, directory in
            #expect(
                try await tool.module.catalog.exercise(id: "Barbell_Squat")?.name == "Barbell Squat", "the index is built before the import"
            )
            let good = "\(directory)/good.json"
            try Data(
                #"""
                [{"id":"Barbell_Squat","name":"Barbell Back Squat","category":"strength","equipment":"barbell","primaryMuscles":["quadriceps"],"secondaryMuscles":[]},
                 {"id":"Zercher_Squat_New","name":"Zercher Squat","category":"strength","equipment":"barbell","primaryMuscles":["quadriceps"]}]
                """#.utf8
            ).write(to: URL(fileURLWithPath: good))
            let report = try await tool.importCatalog(path: good)
            #expect(report == "2 exercises read: 1 added, 1 updated, 0 unchanged\n")
            #expect(try await tool.importCatalog(path: good) == "2 exercises read: 0 added, 0 updated, 2 unchanged\n")
            let renamed = try await tool.module.catalog.exercise(id: "Barbell_Squat")
            #expect(renamed?.name == "Barbell Back Squat")

            let bad = "\(directory)/bad.json"
            try Data(
                #"[{"id":"Another_New","name":"X","category":"strength","primaryMuscles":["quadriceps"]},{"id":"","name":"Y","category":"c","primaryMuscles":["x"]}]"#
                    .utf8
            )
            .write(to: URL(fileURLWithPath: bad))
            await #expect(throws: ServiceError.self) { _ = try await tool.importCatalog(path: bad) }
            #expect(try await tool.module.catalog.exercise(id: "Another_New") == nil, "a bad file writes nothing")

            // NUL in any text is refused, naming the field, on every engine alike (PostgreSQL cannot store it).
            let nul = "\(directory)/nul.json"
            try Data(
                #"[{"id":"Another_New","name":"X","category":"strength","primaryMuscles":["quadriceps"]},{"id":"Nul_New","name":"Bench\u0000Press","category":"c","primaryMuscles":["x"]}]"#
                    .utf8
            )
            .write(to: URL(fileURLWithPath: nul))
            do {
                _ = try await tool.importCatalog(path: nul)
                Issue.record("a name holding NUL was imported")
            } catch let error as ServiceError {
                #expect(error.code == .invalidArgument)
                #expect(error.details["field"] == "[1].name", "\(error)")
            }
            #expect(try await tool.module.catalog.exercise(id: "Another_New") == nil, "nothing of that file is written")
        }
    }

    @Test func templatesAndHistoryListAUsersData() async throws {
        try await withTool { tool, _ in
            #expect(try await tool.listTemplates(userId: "u1") == "(none)\n")
            _ = try await tool.module.planLibrary.createRoutine(
                userId: "u1",
                plan: RoutinePlan(
                    name: "R",
                    templates: [
                        TemplatePlan(
                            name: "Legs", exercises: [PlannedExercise(exerciseId: "Barbell_Squat", sets: [TemplateSet(targetReps: 5)])])
                    ]))
            let templates = try await tool.listTemplates(userId: "u1")
            #expect(templates.contains("Legs"))
            #expect(templates.contains("1 sets"))
            #expect(try await tool.listTemplates(userId: "u2") == "(none)\n")
            #expect(try await tool.history(userId: "u1", limit: 5) == "(none)\n")
        }
    }

    /// `history` pages as `getRecentWorkouts` does (newest first, `--cursor` for the next page), and cells are
    /// padded by characters: a name with an emoji or a decomposed accent is printed whole.
    @Test func historyPagesAndPrintsNamesWhole() async throws {
        try await withTool { tool, _ in
            let names = ["Leg day 💪", "Pull", "Cafe\u{301} push"]
            for (index, name) in names.enumerated() {
                let end = Date(timeIntervalSince1970: 1_767_225_600 + Double(index) * 86_400)
                let workout = CompletedWorkout(
                    id: "w\(index)", userId: "u1", name: name, sourceTemplateId: nil, sourceRoutineId: nil, startTime: end, endTime: end,
                    exercises: [], analytics: WorkoutAnalytics(totals: WorkoutTotals(), exercises: [], muscles: []), createdAt: end,
                    updatedAt: end)
                try await tool.database.sql.raw(
                    """
                    INSERT INTO workouts_history (id, user_id, end_time, document, created_at, updated_at)
                    VALUES (\(bind: workout.id), 'u1', \(bind: end.millisecondsSince1970), \(bind: try JSONCoding.store(workout)), 0, 0)
                    """
                ).run()
            }
            let first = try await tool.history(userId: "u1", limit: 2)
            let lines = first.split(separator: "\n").map(String.init)
            #expect(lines.count == 4, "header, two workouts, the cursor")
            #expect(lines[1].hasPrefix("w2") && lines[1].contains("Cafe\u{301} push"))
            #expect(lines[2].hasPrefix("w1") && lines[2].contains("Pull "), "padded to the widest name")
            let cursor = try #require(lines[3].firstRange(of: "--cursor ").map { String(lines[3][$0.upperBound...].dropLast()) })
            let second = try await tool.history(userId: "u1", limit: 2, cursor: cursor)
            let rest = second.split(separator: "\n").map(String.init)
            #expect(rest.count == 2 && rest[1].hasPrefix("w0") && rest[1].contains("Leg day 💪"), "the last page, with no cursor")
            // Every column starts at the same character on every line.
            let column = lines[0].firstRange(of: "sets")!.lowerBound
            let offset = lines[0].distance(from: lines[0].startIndex, to: column)
            for line in lines[1...2] {
                #expect(line.distance(from: line.startIndex, to: line.firstRange(of: "  0  ")!.lowerBound) + 2 == offset, "\(line)")
            }
        }
    }
}
