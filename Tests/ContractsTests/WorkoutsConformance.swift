import Contracts
import Fakes
import Foundation
import Platform
import Testing
import TestSupport
@testable import Workouts

enum WorkoutsFixtures {
    static let bench = Exercise(id: "Barbell_Bench_Press_-_Medium_Grip", name: "Barbell Bench Press - Medium Grip", category: "strength", equipment: "barbell", primaryMuscles: ["chest"], secondaryMuscles: ["shoulders", "triceps"])
    static let squat = Exercise(id: "Barbell_Squat", name: "Barbell Squat", category: "strength", equipment: "barbell", primaryMuscles: ["quadriceps"], secondaryMuscles: ["calves", "glutes", "hamstrings", "lower back"])
    static let curl = Exercise(id: "Dumbbell_Bicep_Curl", name: "Dumbbell Bicep Curl", category: "strength", equipment: "dumbbell", primaryMuscles: ["biceps"], secondaryMuscles: ["forearms"])

    /// Live Workouts on a fresh database for `engine`.
    static func withLive(_ engine: SQLEngine, _ body: (WorkoutsModule) async throws -> Void) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            try await body(WorkoutsModule(database: db, clock: FakeWallClock(), ids: RandomIDGenerator()))
        }
    }

    /// The real catalog entries of the three fixture exercises, for fakes.
    static var catalog: [Exercise] { (try? CatalogImport.bundled()) ?? [] }
}

/// Expects `body` to fail with `code`.
/// `details`: entries the error's details must hold (fake and live name the same fields).
func expectCode(_ code: ErrorCode, _ why: String, details: [String: String] = [:], _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("\(why) succeeded")
    } catch let error as ServiceError {
        #expect(error.code == code, "\(why)")
        for (key, value) in details { #expect(error.details[key] == value, "\(why): details \(error.details)") }
    } catch {
        Issue.record("\(why): \(error)")
    }
}

// MARK: ExerciseCatalog

func exerciseCatalogConformance(_ catalog: some ExerciseCatalog) async throws {
    let exact = try await catalog.search(ExerciseQuery(text: "Barbell Squat", limit: 5))
    #expect(exact.items.first?.id == WorkoutsFixtures.squat.id)
    let prefix = try await catalog.search(ExerciseQuery(text: "dumbbell bic", limit: 20))
    #expect(prefix.items.contains { $0.id == WorkoutsFixtures.curl.id })
    let accented = try await catalog.search(ExerciseQuery(text: "BÁRBELL SQUAT", limit: 5))
    #expect(accented.items.first?.id == WorkoutsFixtures.squat.id)
    // Typos: a letter missing, doubled or wrong in a word of 4 letters or more, two from 6.
    for (typed, expected) in [("dumbel curl", WorkoutsFixtures.curl.id), ("bench pres", WorkoutsFixtures.bench.id), ("barbel sqaut", WorkoutsFixtures.squat.id)] {
        let found = try await catalog.search(ExerciseQuery(text: typed, limit: 20))
        #expect(found.items.contains { $0.id == expected }, "\(typed) finds \(expected)")
    }
    #expect(try await catalog.search(ExerciseQuery(text: "zzzqqq", limit: 5)).items.isEmpty)

    let chest = try await catalog.search(ExerciseQuery(muscle: "triceps", equipment: "barbell", limit: 100))
    #expect(chest.items.contains { $0.id == WorkoutsFixtures.bench.id }, "secondary muscles match")
    #expect(chest.items.allSatisfy { $0.equipment == "barbell" && ($0.primaryMuscles + $0.secondaryMuscles).contains("triceps") })

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
        (ExerciseQuery(limit: 0), "limit"), (ExerciseQuery(limit: 101), "limit"), (ExerciseQuery(text: "squat", limit: 5, cursor: "not-a-cursor"), "cursor"),
        (ExerciseQuery(text: "squat", limit: 5, cursor: "-1#squat|||"), "cursor"),
        (ExerciseQuery(text: longest + "e", limit: 5), "query"), (ExerciseQuery(text: String(repeating: "press ", count: 50_000), limit: 5), "query"),
        (ExerciseQuery(muscle: String(longest.prefix(101)), limit: 5), "muscle"), (ExerciseQuery(equipment: String(repeating: "x", count: 101), limit: 5), "equipment"),
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

// MARK: PlanLibrary

func planLibraryConformance(_ library: some PlanLibrary) async throws {
    let plan = RoutinePlan(
        name: "Upper/Lower", frequency: 4,
        templates: [
            TemplatePlan(name: "Upper", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.bench.id, sets: [TemplateSet(targetReps: 5), TemplateSet(targetReps: 5)])]),
            TemplatePlan(name: "Lower", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [TemplateSet(targetReps: 5)])]),
        ])
    let created = try await library.createRoutine(userId: "u1", plan: plan)
    #expect(created.templates.map(\.name) == ["Upper", "Lower"])
    #expect(created.routine.templateIds == created.templates.map(\.id))
    #expect(created.templates[0].exercises[0].name == WorkoutsFixtures.bench.name)
    #expect(created.templates[0].analytics.totalSets == 2)
    #expect(try await library.activeRoutine(userId: "u1")?.id == created.routine.id)
    #expect(try await library.activeRoutine(userId: "u2") == nil)
    #expect(try await library.templates(userId: "u1").count == 2)
    #expect(try await library.templates(userId: "u2").isEmpty)
    #expect(created.routine.description == nil)
    // A blank description is none, as through HTTP.
    let blank = try await library.createRoutine(
        userId: "u5", plan: RoutinePlan(name: "Blank", description: " ", templates: [TemplatePlan(name: "A", exercises: plan.templates[0].exercises)]))
    #expect(blank.routine.description == nil)
    let described = try await library.createRoutine(
        userId: "u6", plan: RoutinePlan(name: "Described", description: "Heavy", templates: [TemplatePlan(name: "A", exercises: plan.templates[0].exercises)]))
    #expect(described.routine.description == "Heavy")

    let upper = created.templates[0]
    let changed = try await library.applyTemplateChanges(
        userId: "u1", templateId: upper.id, expectedVersion: upper.version,
        exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: [TemplateSet(targetReps: 12)])])
    #expect(changed.version == upper.version + 1)
    #expect(changed.exercises.map(\.exerciseId) == [WorkoutsFixtures.curl.id])
    #expect(changed.analytics.totalSets == 1)
    #expect(try await library.template(userId: "u1", id: upper.id) == changed)
    // Applying what the template already holds makes no new version.
    let unchanged = try await library.applyTemplateChanges(
        userId: "u1", templateId: upper.id, expectedVersion: changed.version,
        exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: [TemplateSet(targetReps: 12)])])
    #expect(unchanged == changed)

    await expectCode(.conflict, "a stale version") {
        _ = try await library.applyTemplateChanges(userId: "u1", templateId: upper.id, expectedVersion: upper.version, exercises: [])
    }
    await expectCode(.notFound, "another user's template", details: ["template_id": upper.id]) {
        _ = try await library.applyTemplateChanges(userId: "u2", templateId: upper.id, expectedVersion: changed.version, exercises: [])
    }
    // An unknown exercise is reported once the template is found: another user's template is not found first.
    await expectCode(.notFound, "an unknown exercise for another user's template", details: ["template_id": upper.id]) {
        _ = try await library.applyTemplateChanges(
            userId: "u2", templateId: upper.id, expectedVersion: changed.version, exercises: [PlannedExercise(exerciseId: "Nope", sets: [])])
    }
    await expectCode(.invalidArgument, "an unknown exercise for one's own template", details: ["field": "exercises[0].exercise_id"]) {
        _ = try await library.applyTemplateChanges(
            userId: "u1", templateId: upper.id, expectedVersion: changed.version, exercises: [PlannedExercise(exerciseId: "Nope", sets: [])])
    }
    await expectCode(.invalidArgument, "bad values are refused before anything is looked up", details: ["field": "exercises[0].sets[0].target_reps"]) {
        _ = try await library.applyTemplateChanges(
            userId: "u2", templateId: upper.id, expectedVersion: changed.version,
            exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: [TemplateSet(targetReps: 1001)])])
    }
    await expectCode(.notFound, "reading another user's template", details: ["template_id": upper.id]) {
        _ = try await library.template(userId: "u2", id: upper.id)
    }
    await expectCode(.invalidArgument, "an unknown exercise") {
        _ = try await library.createRoutine(
            userId: "u1", plan: RoutinePlan(name: "Bad", templates: [TemplatePlan(name: "X", exercises: [PlannedExercise(exerciseId: "Nope", sets: [])])]))
    }
    // An id holding NUL (which PostgreSQL cannot even compare with) was never given out: it is not found.
    await expectCode(.notFound, "a template id with NUL", details: ["template_id": "t\u{0}"]) {
        _ = try await library.template(userId: "u1", id: "t\u{0}")
    }
    await expectCode(.notFound, "changes to a template id with NUL", details: ["template_id": "t\u{0}"]) {
        _ = try await library.applyTemplateChanges(userId: "u1", templateId: "t\u{0}", expectedVersion: 1, exercises: [])
    }
    await expectCode(.invalidArgument, "an exercise id with NUL", details: ["field": "templates[0].exercises[0].exercise_id"]) {
        _ = try await library.createRoutine(
            userId: "u1", plan: RoutinePlan(name: "Bad", templates: [TemplatePlan(name: "X", exercises: [PlannedExercise(exerciseId: "a\u{0}", sets: [])])]))
    }
    #expect(try await library.templates(userId: "u1").count == 2, "a refused plan creates nothing")

    // The user's templates list in the plan's order; analytics name the most-trained muscle first.
    let names = ["Push", "Legs", "Arms", "Back", "Core"]
    let sets = { (count: Int) in Array(repeating: TemplateSet(targetReps: 8), count: count) }
    let ordered = try await library.createRoutine(
        userId: "u3",
        plan: RoutinePlan(
            name: "Five days",
            templates: names.map {
                TemplatePlan(
                    name: $0,
                    exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: sets(1)), PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: sets(3))])
            }))
    #expect(try await library.templates(userId: "u3").map(\.name) == names)
    #expect(ordered.templates.first?.analytics.muscles == ["quadriceps", "biceps"])
    // An exercise with no sets planned trains no muscle.
    let unplanned = try await library.applyTemplateChanges(
        userId: "u3", templateId: ordered.templates[0].id, expectedVersion: ordered.templates[0].version,
        exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: sets(2)), PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [])])
    #expect(unplanned.analytics.muscles == ["biceps"])
    #expect(unplanned.analytics.totalSets == 2)

    // Every rule of a plan, the same on every implementation.
    let one = [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: sets(1))]
    let unknown = PlannedExercise(exerciseId: "Nope", sets: [])
    let refused: [(String, RoutinePlan, String)] = [
        ("a blank plan name", RoutinePlan(name: " \n", templates: [TemplatePlan(name: "A", exercises: one)]), "name"),
        ("frequency 0", RoutinePlan(name: "P", frequency: 0, templates: [TemplatePlan(name: "A", exercises: one)]), "frequency"),
        ("frequency 15", RoutinePlan(name: "P", frequency: 15, templates: [TemplatePlan(name: "A", exercises: one)]), "frequency"),
        ("no templates", RoutinePlan(name: "P", templates: []), "templates"),
        ("a blank template name", RoutinePlan(name: "P", templates: [TemplatePlan(name: "", exercises: one)]), "templates[0].name"),
        (
            "a 101-character template name", RoutinePlan(name: "P", templates: [TemplatePlan(name: String(repeating: "n", count: 101), exercises: one)]),
            "templates[0].name"
        ),
        (
            // Lengths are code points, as the OpenAPI document's maxLength: 60 characters, 120 code points.
            "a name of 120 code points", RoutinePlan(name: String(repeating: "👍🏽", count: 60), templates: [TemplatePlan(name: "A", exercises: one)]),
            "name"
        ),
        (
            "a 2000 kg target",
            RoutinePlan(
                name: "P",
                templates: [
                    TemplatePlan(name: "A", exercises: one),
                    TemplatePlan(name: "B", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [TemplateSet(targetWeightKg: 2000)])]),
                ]),
            "templates[1].exercises[0].sets[0].target_weight_kg"
        ),
        ("51 exercises", RoutinePlan(name: "P", templates: [TemplatePlan(name: "A", exercises: Array(repeating: one[0], count: 51))]), "templates[0].exercises"),
        // NUL, which PostgreSQL cannot store in a text column, is refused in every name and the description.
        ("NUL in the plan name", RoutinePlan(name: "P\u{0}", templates: [TemplatePlan(name: "A", exercises: one)]), "name"),
        ("NUL in the description", RoutinePlan(name: "P", description: "d\u{0}", templates: [TemplatePlan(name: "A", exercises: one)]), "description"),
        (
            "NUL in a template name", RoutinePlan(name: "P", templates: [TemplatePlan(name: "A", exercises: one), TemplatePlan(name: "B\u{0}B", exercises: one)]),
            "templates[1].name"
        ),
        (
            "31 sets",
            RoutinePlan(name: "P", templates: [TemplatePlan(name: "A", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: sets(31))])]),
            "templates[0].exercises[0].sets"
        ),
        // With several errors, the same one is reported everywhere: template by template, its name before its
        // exercises, every exercise id before any set.
        (
            "an unknown exercise, then a blank template name",
            RoutinePlan(name: "P", templates: [TemplatePlan(name: "A", exercises: [unknown]), TemplatePlan(name: " ", exercises: one)]),
            "templates[0].exercises[0].exercise_id"
        ),
        (
            "31 sets, then an unknown exercise",
            RoutinePlan(
                name: "P",
                templates: [
                    TemplatePlan(name: "A", exercises: one),
                    TemplatePlan(name: "B", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: sets(31)), unknown]),
                ]),
            "templates[1].exercises[1].exercise_id"
        ),
    ]
    for (why, plan, field) in refused {
        await expectCode(.invalidArgument, why, details: ["field": field]) { _ = try await library.createRoutine(userId: "u4", plan: plan) }
    }
    #expect(try await library.templates(userId: "u4").isEmpty, "refused plans create nothing")
    await expectCode(.invalidArgument, "an unknown exercise with a stale version") {
        _ = try await library.applyTemplateChanges(
            userId: "u1", templateId: upper.id, expectedVersion: upper.version, exercises: [PlannedExercise(exerciseId: "Nope", sets: [])])
    }
}

@Suite struct PlanLibraryConformanceTests {
    @Test func fake() async throws {
        try await planLibraryConformance(FakePlanLibrary(catalog: WorkoutsFixtures.catalog, clock: FakeWallClock(), ids: SequentialIDGenerator()))
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await WorkoutsFixtures.withLive(engine) { module in try await planLibraryConformance(module.planLibrary) }
    }
}

// MARK: TrainingLog

struct TrainingLogFixture: Sendable {
    /// Completes a workout for the user with one logged set; returns its id.
    var complete: @Sendable (_ userId: String, _ name: String) async throws -> String
}

func trainingLogConformance(_ log: some TrainingLog, fixture: TrainingLogFixture) async throws {
    let first = try await fixture.complete("u1", "First")
    let second = try await fixture.complete("u1", "Second")
    let other = try await fixture.complete("u2", "Other")
    let recent = try await log.recentWorkouts(userId: "u1", limit: 10)
    #expect(recent.map(\.id) == [second, first])
    #expect(try await log.recentWorkouts(userId: "u1", limit: 1).map(\.id) == [second])
    #expect(try await log.workout(userId: "u1", id: first)?.name == "First")
    #expect(try await log.workout(userId: "u1", id: other) == nil, "another user's workout")
    #expect(try await log.workout(userId: "u1", id: "nope") == nil)
    #expect(try await log.workout(userId: "u1", id: "w\u{0}") == nil, "an id holding NUL was never given out")
    #expect(recent.allSatisfy { $0.analytics.totals.sets == 1 })
    do {
        _ = try await log.recentWorkouts(userId: "u1", limit: 0)
        Issue.record("accepted limit 0")
    } catch let error as ServiceError {
        #expect(error.code == .invalidArgument)
    }
}

@Suite struct TrainingLogConformanceTests {
    @Test func fake() async throws {
        let log = FakeTrainingLog()
        let clock = FakeWallClock()
        try await trainingLogConformance(
            log,
            fixture: TrainingLogFixture { userId, name in
                clock.advance(by: 60)
                let id = UUID().uuidString
                let set = WorkoutSet(id: "s", setIndex: 0, weightKg: 50, reps: 5, completedAt: clock.now())
                let exercises = [WorkoutExercise(instanceId: "i", exerciseId: WorkoutsFixtures.squat.id, name: "Squat", sets: [set])]
                await log.record(
                    CompletedWorkout(
                        id: id, userId: userId, name: name, sourceTemplateId: nil, sourceRoutineId: nil, startTime: clock.now(), endTime: clock.now(),
                        exercises: exercises, analytics: WorkoutAnalytics(totals: WorkoutTotals(sets: 1, reps: 5, volume: 250), exercises: [], muscles: []),
                        createdAt: clock.now(), updatedAt: clock.now()))
                return id
            })
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let module = WorkoutsModule(database: db, clock: clock, ids: RandomIDGenerator())
            try await trainingLogConformance(
                module.trainingLog,
                fixture: TrainingLogFixture { userId, name in
                    clock.advance(by: 60)
                    let workout = try await module.active.start(userId: userId, request: .init(name: name), idempotencyKey: nil).value()
                    let added = try await module.active.addExercise(
                        userId: userId, request: .init(workoutId: workout.id, exerciseId: WorkoutsFixtures.squat.id, sets: 1), key: nil
                    ).value()
                    _ = try await module.active.logSet(
                        userId: userId,
                        request: .init(workoutId: workout.id, exerciseInstanceId: added.exercises[0].instanceId, setId: added.exercises[0].sets[0].id, weightKg: 50, reps: 5),
                        key: nil)
                    return try await module.active.complete(userId: userId, workoutId: workout.id, key: nil).value().id
                })
        }
    }
}

// MARK: ActiveWorkoutControl

struct ActiveWorkoutFixture: Sendable {
    /// Starts a workout for the user with one squat of two empty sets, each planned as 5 reps at 100 kg.
    var start: @Sendable (_ userId: String) async throws -> ActiveWorkout
    /// Completes it.
    var finish: @Sendable (_ userId: String, _ workoutId: String) async throws -> Void
}

func activeWorkoutControlConformance(_ control: some ActiveWorkoutControl, fixture: ActiveWorkoutFixture) async throws {
    #expect(try await control.activeWorkout(userId: "u1") == nil)
    let started = try await fixture.start("u1")
    #expect(try await control.activeWorkout(userId: "u1")?.id == started.id)
    #expect(try await control.activeWorkout(userId: "u2") == nil)
    let exercise = started.exercises[0]

    let logged = try await control.logSet(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5, rir: 2,
        idempotencyKey: "k1")
    #expect(logged.totals == WorkoutTotals(sets: 1, reps: 5, volume: 500))
    let replay = try await control.logSet(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5, rir: 2,
        idempotencyKey: "k1")
    #expect(replay.version == logged.version, "a replay changes nothing")

    // -0 kg is 0, and a retry sending 0 is the same request (on a workout of its own).
    let zeroWorkout = try await fixture.start("u3")
    let zeroExercise = zeroWorkout.exercises[0]
    let zero = try await control.logSet(
        userId: "u3", workoutId: zeroWorkout.id, exerciseInstanceId: zeroExercise.instanceId, setId: zeroExercise.sets[0].id, weightKg: -0.0, reps: 5,
        rir: 2, idempotencyKey: "kz")
    let zeroWeight = try #require(zero.exercises[0].sets[0].weightKg)
    #expect(zeroWeight == 0 && zeroWeight.sign == .plus)
    let zeroAgain = try await control.logSet(
        userId: "u3", workoutId: zeroWorkout.id, exerciseInstanceId: zeroExercise.instanceId, setId: zeroExercise.sets[0].id, weightKg: 0, reps: 5,
        rir: 2, idempotencyKey: "kz")
    #expect(zeroAgain.version == zero.version)

    await expectCode(.conflict, "a reused key with another body", details: ["idempotency_key": "k1"]) {
        _ = try await control.logSet(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 90, reps: 5, rir: 2,
            idempotencyKey: "k1")
    }
    await expectCode(.notFound, "another user's workout", details: ["workout_id": started.id]) {
        _ = try await control.logSet(
            userId: "u2", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1, reps: 1, rir: nil,
            idempotencyKey: "k2")
    }
    await expectCode(.notFound, "an unknown set") {
        _ = try await control.logSet(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: "nope", weightKg: 1, reps: 1, rir: nil, idempotencyKey: "k3")
    }
    await expectCode(.invalidArgument, "reps out of range") {
        _ = try await control.logSet(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1, reps: 1001, rir: nil,
            idempotencyKey: "k4")
    }
    // Values are checked before anything is looked up; a workout is found before the exercise it names.
    await expectCode(.invalidArgument, "reps out of range on another user's workout", details: ["field": "reps"]) {
        _ = try await control.logSet(
            userId: "u2", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1, reps: 1001, rir: nil,
            idempotencyKey: "k4-2")
    }
    await expectCode(.notFound, "an unknown exercise on another user's workout", details: ["workout_id": started.id]) {
        _ = try await control.addExercise(userId: "u2", workoutId: started.id, exerciseId: "no-such-exercise", sets: 1, idempotencyKey: "k4-3")
    }
    await expectCode(.notFound, "swapping to an unknown exercise on another user's workout", details: ["workout_id": started.id]) {
        _ = try await control.swapExercise(
            userId: "u2", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: "no-such-exercise", idempotencyKey: "k4-4")
    }
    await expectCode(.invalidArgument, "swapping an exercise for itself", details: ["field": "new_exercise_id"]) {
        _ = try await control.swapExercise(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: exercise.exerciseId, idempotencyKey: "k4-5")
    }

    // Ids holding NUL were never given out (PostgreSQL cannot even compare with them); such a key is refused.
    await expectCode(.notFound, "a workout id with NUL", details: ["workout_id": "w\u{0}"]) {
        _ = try await control.logSet(
            userId: "u1", workoutId: "w\u{0}", exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1, reps: 1, rir: nil,
            idempotencyKey: "k-nul-1")
    }
    // 128 characters but 5,248 code points (each a letter under 40 combining marks): too long to store as a key.
    let stacked = StackedMarks.text(letters: 128)
    for key in ["k\u{0}", "", String(repeating: "k", count: 129), stacked] {
        await expectCode(.invalidArgument, "the idempotency key \(key.debugDescription)", details: ["field": "idempotency_key"]) {
            _ = try await control.logSet(
                userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[1].id, weightKg: 1, reps: 1, rir: nil,
                idempotencyKey: key)
        }
    }
    await expectCode(.invalidArgument, "an exercise id with NUL", details: ["field": "exercise_id"]) {
        _ = try await control.addExercise(userId: "u1", workoutId: started.id, exerciseId: "a\u{0}", sets: 1, idempotencyKey: "k-nul-2")
    }
    await expectCode(.invalidArgument, "a new exercise id with NUL", details: ["field": "new_exercise_id"]) {
        _ = try await control.swapExercise(
            userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: "a\u{0}", idempotencyKey: "k-nul-3")
    }
    #expect(try await control.activeWorkout(userId: "u1") == logged, "refused writes change nothing")

    let added = try await control.addExercise(userId: "u1", workoutId: started.id, exerciseId: WorkoutsFixtures.curl.id, sets: 2, idempotencyKey: "k5")
    #expect(added.exercises.map(\.exerciseId) == [WorkoutsFixtures.squat.id, WorkoutsFixtures.curl.id])
    #expect(added.exercises[1].sets.count == 2)
    let swapped = try await control.swapExercise(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, newExerciseId: WorkoutsFixtures.bench.id, idempotencyKey: "k6")
    #expect(swapped.exercises.map(\.exerciseId) == [WorkoutsFixtures.squat.id, WorkoutsFixtures.bench.id, WorkoutsFixtures.curl.id])
    #expect(swapped.exercises[0].sets.count == 1, "the logged set stays with the squat")
    #expect(swapped.exercises[0].sets[0].targetWeightKg == 100, "with what was planned for it")
    #expect(swapped.exercises[1].sets.map(\.id) == [exercise.sets[1].id], "the set still to do goes to the bench press")
    #expect(swapped.exercises[1].sets[0].targetReps == 5, "with its target reps")
    #expect(swapped.exercises[1].sets[0].targetWeightKg == nil, "but not the squat's planned weight")
    #expect(swapped.totals.sets == 1)
    // A repeat of the first logSet changes nothing and answers the workout as it stands now.
    let repeated = try await control.logSet(
        userId: "u1", workoutId: started.id, exerciseInstanceId: exercise.instanceId, setId: exercise.sets[0].id, weightKg: 100, reps: 5, rir: 2,
        idempotencyKey: "k1")
    #expect(repeated == swapped, "the workout as it stands, not as the first answer left it")
    #expect(try await control.activeWorkout(userId: "u1") == swapped, "a repeat changes nothing")

    try await fixture.finish("u1", started.id)
    await expectCode(.failedPrecondition, "writing to a finished workout") {
        _ = try await control.addExercise(userId: "u1", workoutId: started.id, exerciseId: WorkoutsFixtures.curl.id, sets: 1, idempotencyKey: "k7")
    }
    #expect(try await control.activeWorkout(userId: "u1") == nil)

    // The second set logged, not the first: the swap keeps it with the squat, numbered from 0 there, and the
    // first (still to do) goes to the bench press, numbered from 0 too.
    let other = try await fixture.start("u2")
    let squat = other.exercises[0]
    _ = try await control.logSet(
        userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, setId: squat.sets[1].id, weightKg: 100, reps: 5, rir: nil,
        idempotencyKey: "u2-log")
    let split = try await control.swapExercise(
        userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, newExerciseId: WorkoutsFixtures.bench.id, idempotencyKey: "u2-swap")
    #expect(split.exercises[0].sets.map(\.id) == [squat.sets[1].id])
    #expect(split.exercises[0].sets.map(\.setIndex) == [0])
    #expect(split.exercises[1].sets.map(\.id) == [squat.sets[0].id])
    #expect(split.exercises[1].sets.map(\.setIndex) == [0])
    // A device that had not reloaded logs the moved set under the squat: CONFLICT naming where it is now, and
    // nothing is written (it was meant for the squat).
    await expectCode(
        .conflict, "logging a set the swap moved, under its old exercise",
        details: ["set_id": squat.sets[0].id, "exercise_instance_id": split.exercises[1].instanceId, "current_version": "\(split.version)"]
    ) {
        _ = try await control.logSet(
            userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, setId: squat.sets[0].id, weightKg: 60, reps: 5, rir: nil,
            idempotencyKey: "u2-stale")
    }
    #expect(try await control.activeWorkout(userId: "u2") == split, "the stale write changed nothing")

    // A workout holds at most 50 exercises: adding one more, or a swap that would split one, is refused.
    var full = split
    for index in full.exercises.count..<50 {
        full = try await control.addExercise(
            userId: "u2", workoutId: other.id, exerciseId: WorkoutsFixtures.curl.id, sets: 1, idempotencyKey: "u2-add-\(index)")
    }
    #expect(full.exercises.count == 50)
    await expectCode(.invalidArgument, "a 51st exercise", details: ["field": "exercise_id"]) {
        _ = try await control.addExercise(userId: "u2", workoutId: other.id, exerciseId: WorkoutsFixtures.curl.id, sets: 1, idempotencyKey: "u2-add-51")
    }
    await expectCode(.invalidArgument, "a split past 50 exercises", details: ["field": "exercise_instance_id"]) {
        _ = try await control.swapExercise(
            userId: "u2", workoutId: other.id, exerciseInstanceId: squat.instanceId, newExerciseId: WorkoutsFixtures.curl.id, idempotencyKey: "u2-swap-2")
    }
    #expect(try await control.activeWorkout(userId: "u2") == full, "refused writes change nothing")
}

@Suite struct ActiveWorkoutControlConformanceTests {
    @Test func fake() async throws {
        let clock = FakeWallClock()
        let control = FakeActiveWorkoutControl(catalog: WorkoutsFixtures.catalog, clock: clock, ids: SequentialIDGenerator())
        try await activeWorkoutControlConformance(
            control,
            fixture: ActiveWorkoutFixture(
                start: { userId in
                    let workout = ActiveWorkout(
                        id: "w-\(userId)", userId: userId, name: nil, sourceTemplateId: nil, sourceRoutineId: nil, status: .inProgress,
                        startTime: clock.now(), version: 1,
                        exercises: [
                            WorkoutExercise(
                                instanceId: "i1", exerciseId: WorkoutsFixtures.squat.id, name: WorkoutsFixtures.squat.name,
                                sets: [
                                    WorkoutSet(id: "s1", setIndex: 0, targetReps: 5, targetWeightKg: 100),
                                    WorkoutSet(id: "s2", setIndex: 1, targetReps: 5, targetWeightKg: 100),
                                ])
                        ],
                        totals: WorkoutTotals(), createdAt: clock.now(), updatedAt: clock.now())
                    await control.seed(workout)
                    return workout
                },
                finish: { _, workoutId in await control.finish(workoutId: workoutId) }))
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await WorkoutsFixtures.withLive(engine) { module in
            try await activeWorkoutControlConformance(
                module.activeWorkoutControl,
                fixture: ActiveWorkoutFixture(
                    start: { userId in
                        let planned = TemplateSet(targetReps: 5, targetWeightKg: 100)
                        let template = try await module.templates.create(
                            userId: userId,
                            draft: TemplateDraft(name: "Squats", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [planned, planned])]))
                        return try await module.active.start(userId: userId, request: .init(templateId: template.id), idempotencyKey: nil).value()
                    },
                    finish: { userId, workoutId in _ = try await module.active.complete(userId: userId, workoutId: workoutId, key: nil) }))
        }
    }
}
