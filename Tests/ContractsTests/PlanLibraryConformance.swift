import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Workouts

func planLibraryConformance(_ library: some PlanLibrary) async throws {
    let plan = RoutinePlan(
        name: "Upper/Lower", frequency: 4,
        templates: [
            TemplatePlan(
                name: "Upper",
                exercises: [
                    PlannedExercise(exerciseId: WorkoutsFixtures.bench.id, sets: [TemplateSet(targetReps: 5), TemplateSet(targetReps: 5)])
                ]),
            TemplatePlan(
                name: "Lower", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [TemplateSet(targetReps: 5)])]),
        ])
    let created = try await library.createRoutine(userId: "u1", plan: plan)
    #expect(created.templates.map(\.name) == ["Upper", "Lower"])
    #expect(created.routine.templateIds == created.templates.map(\.id))
    #expect(created.templates[0].exercises[0].name == WorkoutsFixtures.bench.name)
    #expect(created.templates[0].analytics.totalSets == 2)
    // Two heavy sets of 5: 5 minutes to warm up and 3.5 minutes a set with its rest, in the fake as in the library.
    #expect(created.templates.map(\.analytics.estimatedDurationMinutes) == [12, 9])
    #expect(try await library.activeRoutine(userId: "u1")?.id == created.routine.id)
    #expect(try await library.activeRoutine(userId: "u2") == nil)
    #expect(try await library.templates(userId: "u1").count == 2)
    #expect(try await library.templates(userId: "u2").isEmpty)
    #expect(created.routine.description == nil)
    // Under a key, a repeat creates nothing more and answers the first routine; another plan under it is CONFLICT.
    let keyed = try await library.createRoutine(userId: "u7", plan: plan, idempotencyKey: "accept-1")
    let repeated = try await library.createRoutine(userId: "u7", plan: plan, idempotencyKey: "accept-1")
    #expect(repeated.routine.id == keyed.routine.id && repeated.templates.map(\.id) == keyed.templates.map(\.id))
    #expect(try await library.templates(userId: "u7").count == 2)
    let saved = try await library.createTemplate(userId: "u9", plan: plan.templates[0], idempotencyKey: "save-1")
    #expect(saved.name == "Upper" && saved.exercises.map(\.name) == [WorkoutsFixtures.bench.name] && saved.analytics.totalSets == 2)
    #expect(try await library.createTemplate(userId: "u9", plan: plan.templates[0], idempotencyKey: "save-1").id == saved.id, "a repeat")
    await expectCode(.invalidArgument, "an unknown exercise") {
        _ = try await library.createTemplate(
            userId: "u9", plan: TemplatePlan(name: "X", exercises: [PlannedExercise(exerciseId: "Moon_Press", sets: [])]),
            idempotencyKey: nil)
    }
    #expect(try await library.templates(userId: "u9").map(\.id) == [saved.id])
    await expectCode(.conflict, "a key reused for another plan") {
        _ = try await library.createRoutine(
            userId: "u7", plan: RoutinePlan(name: "Other", templates: plan.templates), idempotencyKey: "accept-1")
    }
    #expect(try await library.templates(userId: "u7").count == 2)
    // A blank description is none, as through HTTP.
    let blank = try await library.createRoutine(
        userId: "u5",
        plan: RoutinePlan(name: "Blank", description: " ", templates: [TemplatePlan(name: "A", exercises: plan.templates[0].exercises)]))
    #expect(blank.routine.description == nil)
    let described = try await library.createRoutine(
        userId: "u6",
        plan: RoutinePlan(
            name: "Described", description: "Heavy", templates: [TemplatePlan(name: "A", exercises: plan.templates[0].exercises)]))
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
            userId: "u2", templateId: upper.id, expectedVersion: changed.version, exercises: [PlannedExercise(exerciseId: "Nope", sets: [])]
        )
    }
    await expectCode(.invalidArgument, "an unknown exercise for one's own template", details: ["field": "exercises[0].exercise_id"]) {
        _ = try await library.applyTemplateChanges(
            userId: "u1", templateId: upper.id, expectedVersion: changed.version, exercises: [PlannedExercise(exerciseId: "Nope", sets: [])]
        )
    }
    await expectCode(
        .invalidArgument, "bad values are refused before anything is looked up", details: ["field": "exercises[0].sets[0].target_reps"]
    ) {
        _ = try await library.applyTemplateChanges(
            userId: "u2", templateId: upper.id, expectedVersion: changed.version,
            exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: [TemplateSet(targetReps: 1001)])])
    }
    await expectCode(.notFound, "reading another user's template", details: ["template_id": upper.id]) {
        _ = try await library.template(userId: "u2", id: upper.id)
    }
    await expectCode(.invalidArgument, "an unknown exercise") {
        _ = try await library.createRoutine(
            userId: "u1",
            plan: RoutinePlan(name: "Bad", templates: [TemplatePlan(name: "X", exercises: [PlannedExercise(exerciseId: "Nope", sets: [])])])
        )
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
            userId: "u1",
            plan: RoutinePlan(
                name: "Bad", templates: [TemplatePlan(name: "X", exercises: [PlannedExercise(exerciseId: "a\u{0}", sets: [])])]))
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
                    exercises: [
                        PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: sets(1)),
                        PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: sets(3)),
                    ])
            }))
    #expect(try await library.templates(userId: "u3").map(\.name) == names)
    #expect(ordered.templates.first?.analytics.muscles == ["quadriceps", "biceps"])
    // An exercise with no sets planned trains no muscle.
    let unplanned = try await library.applyTemplateChanges(
        userId: "u3", templateId: ordered.templates[0].id, expectedVersion: ordered.templates[0].version,
        exercises: [
            PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: sets(2)),
            PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: []),
        ])
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
            "a 101-character template name",
            RoutinePlan(name: "P", templates: [TemplatePlan(name: String(repeating: "n", count: 101), exercises: one)]),
            "templates[0].name"
        ),
        (
            // Lengths are code points, as the OpenAPI document's maxLength: 60 characters, 120 code points.
            "a name of 120 code points",
            RoutinePlan(name: String(repeating: "👍🏽", count: 60), templates: [TemplatePlan(name: "A", exercises: one)]),
            "name"
        ),
        (
            "a 2000 kg target",
            RoutinePlan(
                name: "P",
                templates: [
                    TemplatePlan(name: "A", exercises: one),
                    TemplatePlan(
                        name: "B",
                        exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [TemplateSet(targetWeightKg: 2000)])]),
                ]),
            "templates[1].exercises[0].sets[0].target_weight_kg"
        ),
        (
            "51 exercises", RoutinePlan(name: "P", templates: [TemplatePlan(name: "A", exercises: Array(repeating: one[0], count: 51))]),
            "templates[0].exercises"
        ),
        // NUL, which PostgreSQL cannot store in a text column, is refused in every name and the description.
        ("NUL in the plan name", RoutinePlan(name: "P\u{0}", templates: [TemplatePlan(name: "A", exercises: one)]), "name"),
        (
            "NUL in the description", RoutinePlan(name: "P", description: "d\u{0}", templates: [TemplatePlan(name: "A", exercises: one)]),
            "description"
        ),
        (
            "NUL in a template name",
            RoutinePlan(name: "P", templates: [TemplatePlan(name: "A", exercises: one), TemplatePlan(name: "B\u{0}B", exercises: one)]),
            "templates[1].name"
        ),
        (
            "31 sets",
            RoutinePlan(
                name: "P",
                templates: [TemplatePlan(name: "A", exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: sets(31))])]),
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

/// Routines listed and read, saved without activating, changed against their version; template changes replayed
/// under a key.
func routineChangesConformance(_ library: some PlanLibrary) async throws {
    let day = { (name: String) in
        TemplatePlan(name: name, exercises: [PlannedExercise(exerciseId: WorkoutsFixtures.squat.id, sets: [TemplateSet(targetReps: 5)])])
    }
    let first = try await library.createRoutine(userId: "r1", plan: RoutinePlan(name: "First", templates: [day("A"), day("B")]))
    let saved = try await library.createRoutine(
        userId: "r1", plan: RoutinePlan(name: "Saved", templates: [day("C")]), activate: false, idempotencyKey: "save-r")
    #expect(try await library.activeRoutine(userId: "r1")?.id == first.routine.id, "saving does not activate")
    // Both made in one millisecond of the test's clock: their order is the ids', so only what is listed is checked.
    #expect(Set(try await library.routines(userId: "r1").map(\.name)) == ["First", "Saved"])
    #expect(try await library.routines(userId: "r2").isEmpty)
    #expect(try await library.routine(userId: "r1", id: saved.routine.id) == saved.routine)
    await expectCode(.notFound, "another user's routine", details: ["routine_id": saved.routine.id]) {
        _ = try await library.routine(userId: "r2", id: saved.routine.id)
    }

    let reordered = try await library.updateRoutine(
        userId: "r1", routineId: first.routine.id, expectedVersion: 1,
        changes: RoutineChanges(name: "First, reordered", frequency: 3, templateIds: first.templates.map(\.id).reversed()),
        idempotencyKey: "reorder-1")
    #expect(reordered.version == 2 && reordered.name == "First, reordered" && reordered.frequency == 3)
    #expect(reordered.templateIds == first.templates.map(\.id).reversed())
    #expect(try await library.routine(userId: "r1", id: first.routine.id) == reordered)
    let replayed = try await library.updateRoutine(
        userId: "r1", routineId: first.routine.id, expectedVersion: 1,
        changes: RoutineChanges(name: "First, reordered", frequency: 3, templateIds: first.templates.map(\.id).reversed()),
        idempotencyKey: "reorder-1")
    #expect(replayed == reordered, "a repeat under the key answers the first change")
    await expectCode(.conflict, "a stale routine version") {
        _ = try await library.updateRoutine(
            userId: "r1", routineId: first.routine.id, expectedVersion: 1, changes: RoutineChanges(name: "Late"), idempotencyKey: nil)
    }
    await expectCode(.notFound, "changing another user's routine", details: ["routine_id": first.routine.id]) {
        _ = try await library.updateRoutine(
            userId: "r2", routineId: first.routine.id, expectedVersion: 2, changes: RoutineChanges(name: "Mine"), idempotencyKey: nil)
    }
    await expectCode(.notFound, "a template that is not the user's", details: ["template_id": "nope"]) {
        _ = try await library.updateRoutine(
            userId: "r1", routineId: first.routine.id, expectedVersion: 2, changes: RoutineChanges(templateIds: ["nope"]),
            idempotencyKey: nil)
    }
    await expectCode(.invalidArgument, "no change at all", details: ["field": "changes"]) {
        _ = try await library.updateRoutine(
            userId: "r1", routineId: first.routine.id, expectedVersion: 2, changes: RoutineChanges(), idempotencyKey: nil)
    }
    await expectCode(.invalidArgument, "a bad frequency", details: ["field": "frequency"]) {
        _ = try await library.updateRoutine(
            userId: "r1", routineId: first.routine.id, expectedVersion: 2, changes: RoutineChanges(frequency: 15), idempotencyKey: nil)
    }
    #expect(try await library.routine(userId: "r1", id: first.routine.id) == reordered, "refused changes change nothing")

    let template = first.templates[0]
    let curls = [PlannedExercise(exerciseId: WorkoutsFixtures.curl.id, sets: [TemplateSet(targetReps: 12)])]
    let changed = try await library.applyTemplateChanges(
        userId: "r1", templateId: template.id, expectedVersion: 1, exercises: curls, idempotencyKey: "swap-1")
    let again = try await library.applyTemplateChanges(
        userId: "r1", templateId: template.id, expectedVersion: 1, exercises: curls, idempotencyKey: "swap-1")
    #expect(changed.version == 2 && again == changed, "a repeat under the key answers the first change, not CONFLICT")
}

@Suite struct PlanLibraryConformanceTests {
    @Test func fake() async throws {
        try await planLibraryConformance(
            FakePlanLibrary(catalog: WorkoutsFixtures.catalog, clock: FakeWallClock(), ids: SequentialIDGenerator()))
        try await routineChangesConformance(
            FakePlanLibrary(catalog: WorkoutsFixtures.catalog, clock: FakeWallClock(), ids: SequentialIDGenerator()))
    }

    @Test(arguments: TestDatabases.engines)
    func live(engine: SQLEngine) async throws {
        try await WorkoutsFixtures.withLive(engine) { module in
            try await planLibraryConformance(module.planLibrary)
            try await routineChangesConformance(module.planLibrary)
        }
    }
}
