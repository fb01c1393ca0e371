import Contracts
import Foundation
import Platform
import Testing
import TestSupport
import Workouts
@testable import WorkoutsTool

@Suite struct WorkoutsToolTests {
    func withTool(_ body: (WorkoutsTool, String) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("povver-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tool = try await WorkoutsTool.open(url: "sqlite://\(directory.path)/db.sqlite", logger: TestDatabases.logger)
        do {
            try await body(tool, directory.path)
        } catch {
            await tool.close()
            throw error
        }
        await tool.close()
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
                let output = try await tool.searchCatalog(query: nil, muscle: nil, equipment: nil, category: nil, limit: 100, cursor: cursor)
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
                _ = try await tool.searchCatalog(query: "squat", muscle: nil, equipment: nil, category: nil, limit: 5, cursor: "not-a-cursor")
            }
        }
    }

    @Test func importCatalogValidatesThenUpserts() async throws {
        try await withTool { tool, directory in
            #expect(try await tool.module.catalog.exercise(id: "Barbell_Squat")?.name == "Barbell Squat", "the index is built before the import")
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
            try Data(#"[{"id":"Another_New","name":"X","category":"strength","primaryMuscles":["quadriceps"]},{"id":"","name":"Y","category":"c","primaryMuscles":["x"]}]"#.utf8)
                .write(to: URL(fileURLWithPath: bad))
            await #expect(throws: ServiceError.self) { _ = try await tool.importCatalog(path: bad) }
            #expect(try await tool.module.catalog.exercise(id: "Another_New") == nil, "a bad file writes nothing")

            // NUL in any text is refused, naming the field, on every engine alike (PostgreSQL cannot store it).
            let nul = "\(directory)/nul.json"
            try Data(#"[{"id":"Another_New","name":"X","category":"strength","primaryMuscles":["quadriceps"]},{"id":"Nul_New","name":"Bench\u0000Press","category":"c","primaryMuscles":["x"]}]"#.utf8)
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
                plan: RoutinePlan(name: "R", templates: [TemplatePlan(name: "Legs", exercises: [PlannedExercise(exerciseId: "Barbell_Squat", sets: [TemplateSet(targetReps: 5)])])]))
            let templates = try await tool.listTemplates(userId: "u1")
            #expect(templates.contains("Legs"))
            #expect(templates.contains("1 sets"))
            #expect(try await tool.listTemplates(userId: "u2") == "(none)\n")
            #expect(try await tool.history(userId: "u1", limit: 5) == "(none)\n")
        }
    }
}
