import Contracts
import Foundation
import Testing

@testable import Workouts

/// What lifters type, and the exercise they mean: the top result the search must give. The commonness prior
/// (`StapleExercises`), the aliases (`ExerciseAliases`) and gym shorthand are tuned against this table; a change
/// to any of them keeps it passing.
@Suite struct SearchRelevanceTests {
    static let index = try! CatalogIndex(try! CatalogImport.bundled())

    static let expectedTop: [(query: String, id: String)] = [
        // A staple's plain name: its standard version, not the namesakes whose names start with the query.
        ("squat", "Barbell_Squat"), ("deadlift", "Barbell_Deadlift"), ("bench press", "Barbell_Bench_Press_-_Medium_Grip"),
        ("bench", "Barbell_Bench_Press_-_Medium_Grip"), ("bench pres", "Barbell_Bench_Press_-_Medium_Grip"),
        ("pull up", "Pullups"), ("pullup", "Pullups"), ("chin up", "Chin-Up"), ("push up", "Pushups"), ("pushup", "Pushups"),
        ("row", "Bent_Over_Barbell_Row"), ("barbell row", "Bent_Over_Barbell_Row"), ("curl", "Barbell_Curl"),
        ("bicep curl", "Dumbbell_Bicep_Curl"), ("dumbbell curl", "Dumbbell_Bicep_Curl"), ("military press", "Standing_Military_Press"),
        ("shoulder press", "Dumbbell_Shoulder_Press"), ("lat pulldown", "Wide-Grip_Lat_Pulldown"), ("pulldown", "Wide-Grip_Lat_Pulldown"),
        ("seated row", "Seated_Cable_Rows"), ("cable row", "Seated_Cable_Rows"), ("leg curl", "Lying_Leg_Curls"),
        ("leg extension", "Leg_Extensions"), ("leg press", "Leg_Press"), ("calf raise", "Standing_Calf_Raises"),
        ("lateral raise", "Side_Lateral_Raise"), ("hip thrust", "Barbell_Hip_Thrust"), ("shrug", "Barbell_Shrug"),
        ("dips", "Dips_-_Triceps_Version"), ("lunge", "Barbell_Lunge"), ("crunch", "Crunches"), ("tricep pushdown", "Triceps_Pushdown"),
        ("incline bench press", "Barbell_Incline_Bench_Press_-_Medium_Grip"), ("dumbbell bench press", "Dumbbell_Bench_Press"),
        ("front squat", "Front_Barbell_Squat"), ("romanian deadlift", "Romanian_Deadlift"), ("sumo", "Sumo_Deadlift"),
        ("hammer curl", "Hammer_Curls"), ("dumbbell row", "One-Arm_Dumbbell_Row"), ("kettlebell swing", "One-Arm_Kettlebell_Swings"),
        ("back extension", "Hyperextensions_Back_Extensions"), ("leg raise", "Hanging_Leg_Raise"),
        // Gym shorthand.
        ("ohp", "Standing_Military_Press"), ("rdl", "Romanian_Deadlift"), ("benchpress", "Barbell_Bench_Press_-_Medium_Grip"),
        ("db curl", "Dumbbell_Bicep_Curl"), ("bb row", "Bent_Over_Barbell_Row"), ("db bench press", "Dumbbell_Bench_Press"),
        // Names Strong and Hevy export, and names the catalog does not use.
        ("Squat (Barbell)", "Barbell_Squat"), ("Bench Press (Barbell)", "Barbell_Bench_Press_-_Medium_Grip"),
        ("Bench Press (Dumbbell)", "Dumbbell_Bench_Press"), ("Deadlift (Barbell)", "Barbell_Deadlift"),
        ("Overhead Press (Barbell)", "Standing_Military_Press"), ("overhead press", "Standing_Military_Press"),
        ("Lat Pulldown (Cable)", "Wide-Grip_Lat_Pulldown"), ("Bicep Curl (Dumbbell)", "Dumbbell_Bicep_Curl"),
        ("Romanian Deadlift (Barbell)", "Romanian_Deadlift"), ("Seated Cable Row - V Grip (Cable)", "Seated_Cable_Rows"),
        ("Triceps Pushdown (Cable - Straight Bar)", "Triceps_Pushdown"), ("Lying Leg Curl (Machine)", "Lying_Leg_Curls"),
        ("Hip Thrust (Barbell)", "Barbell_Hip_Thrust"), ("back squat", "Barbell_Squat"), ("pec deck", "Butterfly"),
        // The whole name still wins over any prior.
        ("squat jerk", "Squat_Jerk"), ("deadlift with bands", "Deadlift_with_Bands"), ("barbell squat", "Barbell_Squat"),
    ]

    @Test(arguments: SearchRelevanceTests.expectedTop)
    func topResult(query: String, id: String) {
        let top = Self.index.matches(text: query, muscle: nil, equipment: nil, category: nil).prefix(3).map(\.id)
        #expect(top.first == id, "\(query): \(top)")
    }

    @Test func theTableIsLargeAndItsIdsExist() {
        #expect(Self.expectedTop.count >= 30)
        for (query, id) in Self.expectedTop { #expect(Self.index.byID[id] != nil, "\(query): \(id)") }
    }

    /// The prior orders what was typed; it never lifts a typo over a word typed in full.
    @Test func thePriorNeverOutranksAnExactWord() {
        let results = Self.index.matches(text: "back", muscle: nil, equipment: nil, category: nil).map { CatalogIndex.fold($0.name) }
        let firstTypo = results.firstIndex { !$0.split(separator: " ").contains { $0.hasPrefix("back") } }
        let lastHolding = results.lastIndex { $0.split(separator: " ").contains { $0.hasPrefix("back") } }
        if let firstTypo, let lastHolding { #expect(lastHolding < firstTypo) }
    }

    @Test func everyStapleExists() {
        for id in StapleExercises.standard + StapleExercises.common { #expect(Self.index.byID[id] != nil, "\(id)") }
        #expect(Set(StapleExercises.standard).isDisjoint(with: StapleExercises.common))
    }

    /// Every alias names an exercise of the bundled catalog; no two fold alike; and no alias is the name of another
    /// catalog exercise (searching an exercise's own name always finds it first).
    @Test func everyAliasTargetExists() {
        #expect(ExerciseAliases.table.count >= 80)
        var folded: [String: String] = [:]
        let byName = Dictionary(Self.index.entries.map { ($0.folded, $0.exercise.id) }, uniquingKeysWith: { first, _ in first })
        for (name, id) in ExerciseAliases.table {
            #expect(Self.index.byID[id] != nil, "\(name) → \(id) is not in the catalog")
            let key = CatalogIndex.fold(name)
            #expect(folded.updateValue(name, forKey: key) == nil, "\(name) folds as another alias does")
            if let named = byName[key] { #expect(named == id, "\(name) is the name of \(named)") }
        }
        #expect(ExerciseAliases.exerciseId(forExportedName: "squat (BARBELL)") == "Barbell_Squat", "case and punctuation aside")
        #expect(ExerciseAliases.exerciseId(forExportedName: "Lat Pulldown - Cable") == "Wide-Grip_Lat_Pulldown")
        #expect(ExerciseAliases.exerciseId(forExportedName: "Squat Jerk") == nil)
    }

    /// An alias goes first only where the filters let it through; the rest keep their order.
    @Test func anAliasRespectsFilters() {
        let all = Self.index.matches(text: "Overhead Press (Barbell)", muscle: nil, equipment: nil, category: nil)
        #expect(all.first?.id == "Standing_Military_Press")
        let dumbbells = Self.index.matches(text: "Overhead Press (Barbell)", muscle: nil, equipment: "dumbbell", category: nil)
        #expect(!dumbbells.contains { $0.id == "Standing_Military_Press" })
    }

    /// An import takes a name's exercise only when sure, and reports the others as unmatched.
    @Test(arguments: [
        ("Squat (Barbell)", "Barbell_Squat"), ("squat (barbell)", "Barbell_Squat"), ("Overhead Press (Barbell)", "Standing_Military_Press"),
        ("Lat Pulldown (Cable)", "Wide-Grip_Lat_Pulldown"), ("Pull Up", "Pullups"), ("Chin Up", "Chin-Up"),
        ("Bent Over Row (Barbell)", "Bent_Over_Barbell_Row"), ("Seated Cable Row - V Grip (Cable)", "Seated_Cable_Rows"),
        ("Plank", "Plank"), ("Barbell Squat", "Barbell_Squat"), ("Hammer Curls", "Hammer_Curls"),
        // No alias: the search's top hit, confident.
        ("Squat", "Barbell_Squat"), ("Deadlift", "Barbell_Deadlift"), ("Bench Press", "Barbell_Bench_Press_-_Medium_Grip"),
        ("Goblet Squats", "Goblet_Squat"), ("Zottman Curl", "Zottman_Curl"),
        // The equipment in parentheses: the name without it, among exercises of that equipment.
        ("Preacher Curl (Cable)", "Cable_Preacher_Curl"), ("Pallof Press (Cable)", "Pallof_Press"),
        ("Calf Raise (Smith Machine)", "Smith_Machine_Calf_Raise"),
    ])
    func confidentNamesResolve(name: String, id: String) {
        #expect(Self.index.resolve(exportedName: name)?.id == id)
    }

    @Test(arguments: [
        "Press",  // the leg press or the military press: equally good
        "Dumbel Curl",  // a typo
        "Incline Curl",  // the incline dumbbell curl and its alternating version
        "Lunge (Kettlebell)",  // "Lunge Pass Through" has two words more
        "Bench Pres",  // a prefix completed
        "Zercher Lunge", "Cossack Squat (Bodyweight)", "", "!!",
    ])
    func weakMatchesAreRefused(name: String) {
        #expect(Self.index.resolve(exportedName: name) == nil, "\(Self.index.resolve(exportedName: name)?.name ?? "")")
    }
}
