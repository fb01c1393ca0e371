import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Workouts

func exerciseCatalogConformance(_ catalog: some ExerciseCatalog) async throws {
    let exact = try await catalog.search(ExerciseQuery(text: "Barbell Squat", limit: 5))
    #expect(exact.items.first?.id == WorkoutsFixtures.squat.id)
    let prefix = try await catalog.search(ExerciseQuery(text: "dumbbell bic", limit: 20))
    #expect(prefix.items.contains { $0.id == WorkoutsFixtures.curl.id })
    let accented = try await catalog.search(ExerciseQuery(text: "BÁRBELL SQUAT", limit: 5))
    #expect(accented.items.first?.id == WorkoutsFixtures.squat.id)
    // Typos: a letter missing, doubled or wrong in a word of 4 letters or more, two from 6.
    for (typed, expected) in [
        ("dumbel curl", WorkoutsFixtures.curl.id), ("bench pres", WorkoutsFixtures.bench.id), ("barbel sqaut", WorkoutsFixtures.squat.id),
    ] {
        let found = try await catalog.search(ExerciseQuery(text: typed, limit: 20))
        #expect(found.items.contains { $0.id == expected }, "\(typed) finds \(expected)")
    }
    #expect(try await catalog.search(ExerciseQuery(text: "zzzqqq", limit: 5)).items.isEmpty)

    let chest = try await catalog.search(ExerciseQuery(muscle: "triceps", equipment: "barbell", limit: 100))
    #expect(chest.items.contains { $0.id == WorkoutsFixtures.bench.id }, "secondary muscles match")
    #expect(chest.items.allSatisfy { $0.equipment == "barbell" && ($0.primaryMuscles + $0.secondaryMuscles).contains("triceps") })
    // A group lifters name ("arms") is any of its muscles.
    for (text, exercise, found) in [
        ("dumbbell bicep curl", WorkoutsFixtures.curl, true), ("bench press", WorkoutsFixtures.bench, true),
        ("barbell squat", WorkoutsFixtures.squat, false),
    ] {
        let arms = try await catalog.search(ExerciseQuery(text: text, muscle: "arms", limit: 20))
        #expect(arms.items.contains { $0.id == exercise.id } == found, "\(text)")
        #expect(
            arms.items.allSatisfy { !Set($0.primaryMuscles + $0.secondaryMuscles).isDisjoint(with: ["biceps", "triceps", "forearms"]) })
    }

    var seen: [String] = []
    var cursor: String?
    repeat {
        let page = try await catalog.search(ExerciseQuery(text: "barbell", limit: 3, cursor: cursor))
        #expect(page.items.count <= 3)
        seen += page.items.map(\.id)
        cursor = page.nextCursor
    } while cursor != nil
    let everything = try await catalog.search(ExerciseQuery(text: "barbell", limit: 100))
    #expect(seen == everything.items.map(\.id), "pages neither overlap nor skip")
    // An empty cursor is no cursor: the first page, with the same next cursor.
    let first = try await catalog.search(ExerciseQuery(text: "barbell", limit: 3))
    #expect(try await catalog.search(ExerciseQuery(text: "barbell", limit: 3, cursor: "")) == first)
    // Spellings of one search (case, accents, punctuation) list the same and take each other's cursors.
    let shouted = try await catalog.search(ExerciseQuery(text: "BÁRBELL!", limit: 3))
    #expect(shouted == first)
    let onward = try await catalog.search(ExerciseQuery(text: "barbell", limit: 3, cursor: try #require(shouted.nextCursor)))
    #expect(onward.items.map(\.id) == Array(everything.items.map(\.id).dropFirst(3).prefix(3)))

    #expect(try await catalog.exercise(id: WorkoutsFixtures.bench.id)?.name == WorkoutsFixtures.bench.name)
    #expect(try await catalog.exercise(id: "No_Such_Exercise") == nil)
    let folded = try await catalog.search(ExerciseQuery(muscle: "Lower_Back", category: "STRENGTH", limit: 100))
    #expect(folded.items.contains { $0.id == WorkoutsFixtures.squat.id }, "filters fold case, accents and punctuation")
    // A filter left empty or blank is no filter (clients holding it as a string send "" for none).
    let barbell = try await catalog.search(ExerciseQuery(text: "barbell", limit: 100))
    #expect(!barbell.items.isEmpty)
    #expect(try await catalog.search(ExerciseQuery(text: "barbell", muscle: "", equipment: " ", category: "\t", limit: 100)) == barbell)

    // The longest text and filters taken, in characters (an accented letter is one).
    let longest = String(repeating: "é", count: 200)
    #expect(try await catalog.search(ExerciseQuery(text: longest, limit: 5)).items.isEmpty)
    #expect(try await catalog.search(ExerciseQuery(muscle: String(longest.prefix(100)), limit: 5)).items.isEmpty)

    for (bad, field) in [
        (ExerciseQuery(limit: 0), "limit"), (ExerciseQuery(limit: 101), "limit"),
        (ExerciseQuery(text: "squat", limit: 5, cursor: "not-a-cursor"), "cursor"),
        (ExerciseQuery(text: "squat", limit: 5, cursor: "-1#squat|||"), "cursor"),
        (ExerciseQuery(text: longest + "e", limit: 5), "query"),
        (ExerciseQuery(text: String(repeating: "press ", count: 50_000), limit: 5), "query"),
        (ExerciseQuery(muscle: String(longest.prefix(101)), limit: 5), "muscle"),
        (ExerciseQuery(equipment: String(repeating: "x", count: 101), limit: 5), "equipment"),
        (ExerciseQuery(category: String(repeating: "x", count: 101), limit: 5), "category"),
    ] {
        do {
            _ = try await catalog.search(bad)
            Issue.record("accepted \(bad)")
        } catch let error as ServiceError {
            #expect(error.code == .invalidArgument)
            #expect(error.details["field"] == field, "\(error)")
        }
    }
}

@Suite struct ExerciseCatalogConformanceTests {
    @Test func fake() async throws {
        try await exerciseCatalogConformance(FakeExerciseCatalog(WorkoutsFixtures.catalog))
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await WorkoutsFixtures.withLive(engine) { module in try await exerciseCatalogConformance(module.catalog) }
    }
}
