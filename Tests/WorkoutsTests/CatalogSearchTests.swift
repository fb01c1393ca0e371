import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Workouts

@Suite struct CatalogSearchTests {
    static let index = try! CatalogIndex(try! CatalogImport.bundled())

    func names(_ text: String, limit: Int = 5) -> [String] {
        Array(Self.index.matches(text: text, muscle: nil, equipment: nil, category: nil).prefix(limit).map(\.name))
    }

    @Test func bundledCatalogIsComplete() throws {
        let exercises = try CatalogImport.bundled()
        #expect(exercises.count == 873)
        #expect(Set(exercises.map(\.id)).count == 873)
    }

    @Test func prefixFindsTheObviousExercise() {
        let results = names("bench pres", limit: 20)
        #expect(results.contains("Barbell Bench Press - Medium Grip"))
        #expect(results.allSatisfy { $0.lowercased().contains("bench press") })
        // The standard lift first (the commonness prior), then, among the rest, names starting with the query.
        #expect(results.first == "Barbell Bench Press - Medium Grip")
        let index = Self.index
        let unboosted = index.matches(text: "bench pres", muscle: nil, equipment: nil, category: nil)
            .filter { StapleExercises.boost(id: $0.id) == 0 }.map(\.name)
        #expect(unboosted.first?.hasPrefix("Bench Press") == true, "names starting with the query rank first")
    }

    @Test func typosAreTolerated() {
        #expect(names("dumbel curl").contains("Dumbbell Bicep Curl"))
        #expect(names("barbel squat").contains("Barbell Squat"))
        #expect(names("dedlift", limit: 10).contains("Barbell Deadlift"))
    }

    /// Words joined or split otherwise than in the name: the most common slip in typing an exercise's name.
    @Test func joinedOrSplitWordsFindTheName() {
        let all = { (text: String) in Self.index.matches(text: text, muscle: nil, equipment: nil, category: nil).map(\.name) }
        #expect(all("situp").contains("3/4 Sit-Up"))
        #expect(all("situp").contains("Frog Sit-Ups"))
        #expect(all("sit ups").contains("Frog Sit-Ups"))
        #expect(all("benchpress").contains("Barbell Bench Press - Medium Grip"))
        #expect(all("benchpres").contains("Barbell Bench Press - Medium Grip"), "and a typo on top")
        #expect(all("pull up").contains("Pullups"))
        #expect(all("kettle bell swing").contains { $0.hasPrefix("One-Arm Kettlebell Swings") })
        // Run together, a name is one word: "Pullups" matches "pull up" as a prefix does, with the bonus of a name
        // that starts with the query, and so ranks first, ahead of "Band Assisted Pull-Up" (two exact words, two
        // extra); the exact name word by word still ranks first.
        #expect(all("pull up").first == "Pullups")
        #expect(all("sit up").first == "Sit-Up")
        #expect(all("situp").first == "Sit-Up", "the whole name run together, with the fewest extra words")
        #expect(all("pullups").first == "Pullups")
        // Nonsense still finds nothing.
        #expect(all("qwrtzxv plmk").isEmpty)
    }

    /// Gym shorthand finds what it stands for, ranked as the spelled-out words would be.
    @Test func gymShorthandFindsTheExercises() {
        let all = { (text: String) in Self.index.matches(text: text, muscle: nil, equipment: nil, category: nil).map(\.name) }
        #expect(all("db curl").contains("Dumbbell Bicep Curl"))
        #expect(
            all("db curl").prefix(10).allSatisfy { $0.lowercased().contains("dumbbell") || $0.lowercased().contains("db") },
            "\(all("db curl").prefix(10))")
        #expect(Set(all("db curl")).isSubset(of: Set(all("dumbbell curl"))))
        #expect(all("bb row").contains("Bent Over Barbell Row"))
        #expect(all("kb swing").contains { $0.hasPrefix("One-Arm Kettlebell Swings") })
        #expect(Set(all("rdl").prefix(2)) == ["Romanian Deadlift", "Romanian Deadlift from Deficit"])
        #expect(all("sldl").contains("Stiff-Legged Barbell Deadlift"))
        #expect(all("ohp").contains("Standing Military Press"))
        #expect(all("ohp").contains("Dumbbell Shoulder Press"))
        #expect(all("pec").contains("Butterfly"))
        #expect(all("bulgarian split squat").contains("Split Squats"))
        // A shorthand word that is also a name's word still matches it as such.
        #expect(all("db").contains("Hammer Grip Incline DB Bench Press"))
        // Not a prefix: "db" does not stand for any word starting with it.
        #expect(!all("rdl").contains("Barbell Deadlift"))
    }

    @Test func caseAndAccentsDoNotMatter() {
        #expect(names("BÉNCH PRÉSS") == names("bench press"))
        #expect(names("Pull-ups").isEmpty == false)
        #expect(names("pullups").first == "Pullups")
    }

    @Test func exactNameRanksFirst() {
        #expect(names("barbell squat").first == "Barbell Squat")
        #expect(names("pullups").first == "Pullups")
    }

    /// Match quality decides before name length: every name holding the word (or a word starting with it)
    /// comes before any name matching only by a typo, however many words it has.
    @Test(arguments: ["back", "ball", "band", "press"])
    func anExactWordOutranksATypoWhateverTheNameLength(query: String) {
        let results = Self.index.matches(text: query, muscle: nil, equipment: nil, category: nil).map { CatalogIndex.fold($0.name) }
        let holds = results.map { $0.split(separator: " ").contains { $0.hasPrefix(query) } }
        let firstTypo = holds.firstIndex(of: false)
        let lastHolding = holds.lastIndex(of: true)
        #expect(lastHolding != nil)
        if let firstTypo, let lastHolding {
            #expect(lastHolding < firstTypo, "\(query): \(results[firstTypo]) ranks above \(results[lastHolding])")
        }
        if query == "back" {
            #expect(results.contains("standing palms up barbell behind the back wrist curl"))
            #expect(results.contains("hack squat"), "typos still match, after")
        }
    }

    /// Typo tolerance counts letters, not bytes: a short word in a non-Latin script gets none, a longer one
    /// gets one letter's edit.
    @Test func typoToleranceCountsLetters() {
        #expect(CatalogIndex.match("жам", "жим") == 0, "3 letters (6 bytes): no typo allowed")
        #expect(CatalogIndex.match("жи", "жа") == 0)
        #expect(CatalogIndex.match("лужа", "лежа") == 2, "4 letters: one edit")
        #expect(CatalogIndex.match("лужи", "лежа") == 0, "but not two")
        #expect(CatalogIndex.editDistance("жим", "жам", limit: 5) == 1)
        #expect(CatalogIndex.match("жим", "жим") == 6)
        #expect(CatalogIndex.match("жи", "жим") == 4)
    }

    @Test func nonsenseFindsNothing() {
        #expect(names("zzzqqq").isEmpty)
    }

    @Test func filtersApplyToPrimaryAndSecondaryMuscles() {
        let biceps = Self.index.matches(text: nil, muscle: "biceps", equipment: "dumbbell", category: nil)
        #expect(!biceps.isEmpty)
        #expect(biceps.allSatisfy { ($0.primaryMuscles + $0.secondaryMuscles).contains("biceps") && $0.equipment == "dumbbell" })
        let secondaryOnly = Self.index.matches(text: nil, muscle: "triceps", equipment: nil, category: nil)
        #expect(secondaryOnly.contains { !$0.primaryMuscles.contains("triceps") }, "secondary muscles count")
        let stretching = Self.index.matches(text: nil, muscle: nil, equipment: nil, category: "Stretching")
        #expect(stretching.count == 123)
    }

    @Test func rankingIsStable() throws {
        let first = Self.index.matches(text: "press", muscle: nil, equipment: nil, category: nil).map(\.id)
        let second = try CatalogIndex(try! CatalogImport.bundled().reversed()).matches(
            text: "press", muscle: nil, equipment: nil, category: nil
        ).map(\.id)
        #expect(first == second)
    }

    @Test(arguments: [("kitten", "sitting", 3), ("abcd", "abdc", 1), ("", "abc", 3), ("same", "same", 0), ("dumbel", "dumbbe", 2)])
    func editDistance(a: String, b: String, expected: Int) {
        #expect(CatalogIndex.editDistance(a, b, limit: 5) == expected)
        #expect(CatalogIndex.editDistance(b, a, limit: 5) == expected)
    }

    @Test(arguments: TestDatabases.engines)
    func pagesNeverOverlapOrSkip(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let catalog = SQLExerciseCatalog(database: db)
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try await catalog.search(ExerciseQuery(text: "curl", limit: 7, cursor: cursor))
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            let all = try await catalog.search(ExerciseQuery(text: "curl", limit: 100))
            #expect(seen == all.items.map(\.id))
            #expect(Set(seen).count == seen.count)
            await #expect(throws: ServiceError.self) {
                _ = try await catalog.search(ExerciseQuery(text: "press", limit: 7, cursor: "garbage"))
            }
            let foreign = try await catalog.search(ExerciseQuery(text: "curl", limit: 2)).nextCursor
            await #expect(throws: ServiceError.self) {
                _ = try await catalog.search(ExerciseQuery(text: "press", limit: 2, cursor: foreign))
            }
            await #expect(throws: ServiceError.self) { _ = try await catalog.search(ExerciseQuery(limit: 0)) }
        }
    }

    /// One search however it is spelled (case, accents, punctuation): the same results, and a cursor of one
    /// spelling pages the other.
    @Test(arguments: TestDatabases.engines)
    func spellingsOfOneSearchShareCursors(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let catalog = SQLExerciseCatalog(database: db)
            #expect(
                SQLExerciseCatalog.queryFingerprint(ExerciseQuery(text: "Curl!", limit: 5))
                    == SQLExerciseCatalog.queryFingerprint(ExerciseQuery(text: "curl", limit: 5)))
            // No text and a text that folds to nothing list the same, so they share cursors both ways.
            for blank in ["", "  ", "!"] {
                #expect(
                    SQLExerciseCatalog.queryFingerprint(ExerciseQuery(text: blank, limit: 5))
                        == SQLExerciseCatalog.queryFingerprint(ExerciseQuery(limit: 5)))
            }
            let unfiltered = try await catalog.search(ExerciseQuery(text: "", limit: 3))
            let onward = try await catalog.search(ExerciseQuery(limit: 3, cursor: try #require(unfiltered.nextCursor)))
            let back = try await catalog.search(ExerciseQuery(text: " ", limit: 3, cursor: try #require(onward.nextCursor)))
            let firstNine = try await catalog.search(ExerciseQuery(limit: 9)).items.map(\.id)
            #expect((unfiltered.items + onward.items + back.items).map(\.id) == firstNine)
            let all = try await catalog.search(ExerciseQuery(text: "curl", limit: 100)).items.map(\.id)
            let first = try await catalog.search(ExerciseQuery(text: "  CÚRL!! ", limit: 4))
            #expect(first.items.map(\.id) == Array(all.prefix(4)))
            let second = try await catalog.search(ExerciseQuery(text: "curl", limit: 4, cursor: try #require(first.nextCursor)))
            #expect(second.items.map(\.id) == Array(all.dropFirst(4).prefix(4)))

            // Searches cached by their text as sent never take each other's results, however the text splits.
            let joined = ExerciseQuery(text: "curl\u{1F}forearms", limit: 100)
            let split = ExerciseQuery(text: "curl", muscle: "forearms", limit: 100)
            #expect(SQLExerciseCatalog.spellingFingerprint(joined) != SQLExerciseCatalog.spellingFingerprint(split))
            _ = try await catalog.search(joined)
            let filtered = try await catalog.search(split).items
            #expect(!filtered.isEmpty)
            #expect(filtered.allSatisfy { ($0.primaryMuscles + $0.secondaryMuscles).contains("forearms") })
            #expect(try await catalog.search(split).items.map(\.id) == filtered.map(\.id), "the same from the cache")
        }
    }

    /// The search and getExercise answers assembled from each exercise's JSON (encoded once, with the index)
    /// are byte for byte what encoding the page as before gives, on every page, with and without a next cursor.
    @Test(arguments: TestDatabases.engines)
    func preEncodedAnswersAreWhatTheEncoderWrites(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let catalog = SQLExerciseCatalog(database: db)
            let queries: [(text: String?, muscle: String?, limit: Int)] = [
                ("curl", nil, 7), ("dumbel curl", nil, 3), (nil, "chest", 100), ("zzzzqqqq", nil, 5), (nil, nil, 100),
            ]
            var pages = 0
            for query in queries {
                var cursor: String?
                repeat {
                    let request = ExerciseQuery(text: query.text, muscle: query.muscle, limit: query.limit, cursor: cursor)
                    let page = try await catalog.search(request)
                    let json = try await catalog.searchJSON(request)
                    #expect(json.bytes == (try JSONCoding.bytes(ItemsOutput(items: page.items, nextCursor: page.nextCursor))), "\(query)")
                    cursor = page.nextCursor
                    pages += 1
                } while cursor != nil
            }
            #expect(pages > queries.count, "some queries ran over more than one page")
            for exercise in try await catalog.search(ExerciseQuery(text: "press", limit: 10)).items {
                #expect(try await catalog.exerciseJSON(id: exercise.id)?.bytes == (try JSONCoding.bytes(exercise)))
            }
            #expect(try await catalog.exerciseJSON(id: "No_Such_Exercise") == nil)
        }
    }

    /// A cursor resumes after the last exercise shown, not after a count: exercises imported between two pages
    /// (ranked before and after the cursor) neither repeat what was shown nor push anything off the next page.
    @Test(arguments: TestDatabases.engines)
    func anImportBetweenTwoPagesNeitherRepeatsNorSkips(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let catalog = SQLExerciseCatalog(database: db, recheckInterval: .zero)
            // A search no staple matches: a copy takes its original's name but not its id, so not its commonness boost
            // (`StapleExercises`), and would not rank beside it.
            let before = try await catalog.search(ExerciseQuery(text: "wrist curl", limit: 100)).items.map(\.id)
            try #require(before.count > 10)
            let first = try await catalog.search(ExerciseQuery(text: "wrist curl", limit: 5))
            #expect(first.items.map(\.id) == Array(before.prefix(5)))

            // New curls named as shown ones, ranked by id right before the first shown, right before the seventh
            // and right after the last: one lands before the cursor (a count would then show the fifth again).
            let bundled = try CatalogImport.bundled()
            func copy(of id: String, as newId: String) throws -> Exercise {
                var exercise = try #require(bundled.first { $0.id == id })
                exercise.id = newId
                return exercise
            }
            let added = [
                try copy(of: before[0], as: "0_Test_Curl"), try copy(of: before[6], as: "0_Test_Mid"),
                try copy(of: before.last!, as: "zz_Test_Curl"),
            ]
            _ = try await CatalogImport.upsert(added, into: db, at: Date())
            let now = try await catalog.search(ExerciseQuery(text: "wrist curl", limit: 100)).items.map(\.id)
            #expect(now.count == before.count + 3)
            #expect(now.first == "0_Test_Curl" && now.last == "zz_Test_Curl")

            var rest: [String] = []
            var cursor = first.nextCursor
            while let next = cursor {
                let page = try await catalog.search(ExerciseQuery(text: "wrist curl", limit: 5, cursor: next))
                rest += page.items.map(\.id)
                cursor = page.nextCursor
            }
            let shown = first.items.map(\.id) + rest
            #expect(Set(shown).count == shown.count, "nothing repeats")
            #expect(Set(before).isSubset(of: Set(shown)), "nothing that was there is skipped")
            // What follows the last shown exercise in today's ranking is exactly what the next pages gave.
            let resumeAt = try #require(now.firstIndex(of: first.items.last!.id)) + 1
            #expect(rest == Array(now[resumeAt...]))
        }
    }

    /// A burst of searches on a cold catalog (right after a start) waits for one build of the index, and later
    /// looks at the table go one at a time; `prepare` builds it ahead of the first search.
    @Test(arguments: TestDatabases.engines)
    func oneBuildServesABurstOfSearches(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let catalog = SQLExerciseCatalog(database: db, recheckInterval: .seconds(3600))
            let found = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask { try await catalog.search(ExerciseQuery(text: index % 2 == 0 ? "squat" : "curl", limit: 5)).items.count }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(found.allSatisfy { $0 == 5 })
            #expect(catalog.buildCount == 1)

            let prepared = SQLExerciseCatalog(database: db, recheckInterval: .seconds(3600))
            await prepared.prepare()
            #expect(prepared.buildCount == 1)
            #expect(try await prepared.search(ExerciseQuery(text: "squat", limit: 5)).items.count == 5)
            #expect(prepared.buildCount == 1)

            // Once an import is noticed the index is built again, once; invalidating drops it at once.
            let rechecking = SQLExerciseCatalog(database: db, recheckInterval: .zero)
            await rechecking.prepare()
            var renamed = try #require(try CatalogImport.bundled().first { $0.id == "Barbell_Squat" })
            renamed.name = "Back Squat"
            _ = try await CatalogImport.upsert([renamed], into: db, at: Date())
            let names = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<8 { group.addTask { try await rechecking.exercise(id: "Barbell_Squat")?.name } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(names.contains("Back Squat"))
            #expect(rechecking.buildCount == 2)
            #expect(
                try await rechecking.exercise(id: "Barbell_Squat")?.name == "Back Squat", "a caller alone always sees the table as it is")
            rechecking.invalidate()
            #expect(try await rechecking.exercise(id: "Barbell_Squat")?.name == "Back Squat")
            #expect(rechecking.buildCount == 3)
        }
    }

    /// Another server notices an import even when the importing host's clock is behind the last import's: the
    /// change is detected by the newest stamp, and an import always stamps after it.
    @Test(arguments: TestDatabases.engines)
    func anImportFromAClockBehindIsStillNoticedByOtherServers(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let other = SQLExerciseCatalog(database: db, recheckInterval: .zero)
            #expect(try await other.exercise(id: "Barbell_Squat")?.name == "Barbell Squat")
            var renamed = try #require(try CatalogImport.bundled().first { $0.id == "Barbell_Squat" })
            renamed.name = "Back Squat"
            let behind = Date(timeIntervalSince1970: 86_400)  // long before the catalog was seeded
            let counts = try await CatalogImport.upsert([renamed], into: db, at: behind)
            #expect(counts.inserted == 0 && counts.updated == 1)
            #expect(try await other.exercise(id: "Barbell_Squat")?.name == "Back Squat")
            #expect(try await other.search(ExerciseQuery(text: "back squat", limit: 1)).items.first?.id == "Barbell_Squat")
        }
    }

    @Test func catalogFilesAreValidated() {
        #expect(throws: ServiceError.self) {
            try CatalogImport.parse(Data(#"[{"id":"a","name":"A","category":"strength","primaryMuscles":[]}]"#.utf8))
        }
        #expect(throws: ServiceError.self) {
            try CatalogImport.parse(
                Data(
                    #"[{"id":"a","name":"A","category":"c","primaryMuscles":["x"]},{"id":"a","name":"B","category":"c","primaryMuscles":["x"]}]"#
                        .utf8))
        }
        #expect(throws: ServiceError.self) { try CatalogImport.parse(Data("not json".utf8)) }
        #expect(throws: Never.self) {
            try CatalogImport.parse(Data(#"[{"id":"a","name":"A","category":"c","primaryMuscles":["x"]}]"#.utf8))
        }
    }

    /// Text that is blank once trimmed could never be found or filtered: refused, naming the field.
    @Test(arguments: [
        (#""name":"\n","category":"c","primaryMuscles":["x"]"#, "[0].name"),
        (#""name":"A","category":"  ","primaryMuscles":["x"]"#, "[0].category"),
        (#""name":"A","category":"c","primaryMuscles":["x",""]"#, "[0].primaryMuscles[1]"),
        (#""name":"A","category":"c","primaryMuscles":["x"],"secondaryMuscles":[" \t"]"#, "[0].secondaryMuscles[0]"),
        (#""equipment":"","name":"A","category":"c","primaryMuscles":["x"]"#, "[0].equipment"),
        // One muscle twice in a list would count the exercise's volume twice for it, in any spelling.
        (#""name":"A","category":"c","primaryMuscles":["chest","Chest "]"#, "[0].primaryMuscles[1]"),
        (#""name":"A","category":"c","primaryMuscles":["x"],"secondaryMuscles":["lower back","Lower  Back"]"#, "[0].secondaryMuscles[1]"),
    ])
    func blankCatalogTextIsRefused(fields: String, field: String) {
        let error = #expect(throws: ServiceError.self) { try CatalogImport.parse(Data((#"[{"id":"a","# + fields + "}]").utf8)) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.details["field"] == field)
    }

    @Test func catalogTextIsTrimmed() throws {
        let parsed = try CatalogImport.parse(
            Data(
                #"[{"id":" a\n","name":"\tCable Curl \n","category":"strength ","equipment":" cable","primaryMuscles":[" biceps\n"],"secondaryMuscles":["forearms "]}]"#
                    .utf8))
        #expect(parsed.map(\.id) == ["a"])
        #expect(parsed.first?.name == "Cable Curl")
        #expect(parsed.first?.category == "strength")
        #expect(parsed.first?.equipment == "cable")
        #expect(parsed.first?.primaryMuscles == ["biceps"])
        #expect(parsed.first?.secondaryMuscles == ["forearms"])
    }

    /// Muscles name the buckets of workout and template analytics: one spelling each, as the bundled catalog
    /// writes them (lower case, single spaces), so an imported "Chest" adds to the same muscle as "chest".
    @Test func musclesAreStoredInOneSpelling() throws {
        let parsed = try CatalogImport.parse(
            Data(
                #"[{"id":"a","name":"A","category":"c","primaryMuscles":["Chest","LOWER\tBack"],"secondaryMuscles":["Middle  back"]}]"#.utf8
            ))
        #expect(parsed.first?.primaryMuscles == ["chest", "lower back"])
        #expect(parsed.first?.secondaryMuscles == ["middle back"])
        let bundled = try CatalogImport.bundled()
        let muscles = Set(bundled.flatMap { $0.primaryMuscles + $0.secondaryMuscles })
        #expect(
            muscles.contains("lower back") && muscles.allSatisfy { $0 == $0.lowercased() },
            "the bundled catalog is already in that spelling")
    }
}
