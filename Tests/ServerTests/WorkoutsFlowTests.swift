import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverApp
import PovverClient
import SQLKit
import TestSupport
import Testing

extension TestClientProtocol {
    /// Signs a new user up and returns the access token.
    func newUser(_ email: String) async throws -> String {
        try await api().signUp(body: .json(.init(email: email, password: "secret-password"))).ok.body.json.data.tokens.accessToken
    }
}

@Suite struct WorkoutsFlowTests {
    static let bench = "Barbell_Bench_Press_-_Medium_Grip"
    static let squat = "Barbell_Squat"
    static let curl = "Dumbbell_Bicep_Curl"
    static let pullups = "Pullups"

    /// The issue's "done when": search, two templates, a routine, start from the routine, log every set
    /// (retrying some with the same key), complete, see the archive with analytics, get the next template.
    @Test(arguments: TestDatabases.engines)
    func planRunCompleteAndAdvance(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("lifter@example.com")
            let api = client.api(token)

            let found = try await api.searchExercises(body: .json(.init(limit: 20, query: "bench pres"))).ok.body.json.data.items.map(\.id)
            #expect(found.contains(Self.bench))
            let typo = try await api.searchExercises(body: .json(.init(query: "dumbel curl"))).ok.body.json.data
            #expect(typo.items.contains { $0.id == Self.curl })
            let emptyCursor = try await answer {
                try await api.searchExercises(body: .json(.init(cursor: "", limit: 20, query: "bench pres"))).ok.body.json.data.items.map(
                    \.id)
            }
            #expect(emptyCursor.status == .ok, "an empty cursor is the first page: \(emptyCursor)")
            #expect(emptyCursor.value == found)
            let emptyFilters = try await api.searchExercises(
                body: .json(.init(category: "", equipment: " ", limit: 20, muscle: "", query: "bench pres"))
            ).ok.body.json.data
            #expect(emptyFilters.items.map(\.id) == found, "an empty filter is none")

            let push = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [
                            .init(exerciseId: Self.bench, sets: [.init(targetReps: 5, targetRir: 2), .init(targetReps: 5, targetRir: 1)])
                        ],
                        name: "Push"))
            ).ok.body.json.data
            #expect(push.analytics.totalSets == 2)
            #expect(push.exercises.first?.name == "Barbell Bench Press - Medium Grip")
            let pull = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [
                            .init(exerciseId: Self.pullups, sets: [.init(targetReps: 8)]),
                            .init(exerciseId: Self.curl, sets: [.init(targetReps: 12)]),
                        ],
                        name: "Pull"))
            ).ok.body.json.data
            let (pushId, pullId) = (push.id, pull.id)

            let routine = try await api.createRoutine(
                body: .json(.init(frequency: 3, name: "Push/Pull", legacyTemplateIds: [pushId, pullId]))
            )
            .ok.body.json.data
            #expect(routine.templateIds == [pushId, pullId], "legacy templateIds is read as template_ids")
            let routineId = routine.id
            #expect(try await api.setActiveRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data.activeRoutineId == routineId)
            let next = try await api.getNextWorkout(body: .json(.init())).ok.body.json.data
            #expect(next.template.id == pushId)

            let start = Operations.StartActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "start-1", routineId: routineId)
            let started = try await api.startActiveWorkout(body: .json(start)).ok.body.json.data
            #expect(started.sourceTemplateId == pushId)
            #expect(started.sourceRoutineId == routineId)
            let workoutId = started.id
            let retriedStart = try await api.startActiveWorkout(body: .json(start)).ok.body.json.data
            #expect(retriedStart.id == workoutId, "a retried start returns the same workout")
            let second = try #require(await refused { try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "start-2"))) })
            #expect(second.status == 409)
            #expect(second.details["workout_id"] == workoutId)

            let exercise = try #require(started.exercises.first)
            let instanceId = exercise.instanceId
            let setIds = exercise.sets.map(\.id)
            #expect(setIds.count == 2)
            for (index, setId) in setIds.enumerated() {
                let body = Operations.LogSet.Input.Body.JsonPayload(
                    exerciseInstanceId: instanceId, idempotencyKey: "log-\(index)", reps: 5, rir: 2, setId: setId, weightKg: 100,
                    workoutId: workoutId)
                let logged = try await api.logSet(body: .json(body)).ok.body.json.data
                let retried = try await api.logSet(body: .json(body)).ok.body.json.data
                #expect(retried == logged, "a retry answers exactly as the first call")
            }
            let misuse = try #require(
                await refused {
                    try await api.logSet(
                        body: .json(
                            .init(
                                exerciseInstanceId: instanceId, idempotencyKey: "log-0", reps: 5, setId: setIds[0], weightKg: 90,
                                workoutId: workoutId)))
                })
            #expect(misuse.status == 409, "same key, different body")
            let current = try #require(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data)
            #expect(current.totals.sets == 2)
            #expect(current.totals.volume == 1000)

            let done = Operations.CompleteActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "done-1", workoutId: workoutId)
            let analytics = try await api.completeActiveWorkout(body: .json(done)).ok.body.json.data.analytics
            #expect(analytics.totals.reps == 10)
            #expect(analytics.exercises.first?.bestE1rm == 116.7)
            #expect(analytics.muscles.first?.muscle == "chest")
            #expect(try await api.completeActiveWorkout(body: .json(done)).ok.body.json.data.id == workoutId)
            let late = try #require(
                await refused {
                    try await api.logSet(
                        body: .json(
                            .init(
                                exerciseInstanceId: instanceId, idempotencyKey: "log-late", reps: 1, setId: setIds[0], weightKg: 1,
                                workoutId: workoutId)))
                })
            #expect(late.status == 412)
            #expect(late.code == "FAILED_PRECONDITION")

            let recent = try await api.getRecentWorkouts(body: .json(.init())).ok.body.json.data
            #expect(recent.items.first?.id == workoutId)
            #expect(try await api.getWorkout(body: .json(.init(workoutId: workoutId))).ok.body.json.data.id == workoutId)
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil)

            // The completion moved the cursor on before it answered.
            let advanced = try await api.getNextWorkout(body: .json(.init())).ok.body.json.data
            #expect(advanced.template.id == pullId)
            #expect(advanced.index == 1)
            let routineAfter = try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(routineAfter.lastCompletedTemplateId == pushId)
        }
    }

    /// Another user's template, routine or workout is NOT_FOUND on every endpoint that takes its id.
    @Test(arguments: TestDatabases.engines)
    func anotherUsersResourcesAreNotFound(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let owner = try await client.newUser("owner@example.com")
            let api = client.api(owner)
            let intruder = client.api(try await client.newUser("intruder@example.com"))
            let templateId = try await WorkoutsHTTP.template(client, "Mine", exercise: Self.squat, token: owner)
            let routineId = try await api.createRoutine(body: .json(.init(name: "Mine", templateIds: [templateId]))).ok.body.json.data.id
            let active = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s", templateId: templateId))).ok.body.json.data
            let (instanceId, setIds) = try WorkoutsHTTP.exercise(active)
            _ = try await api.logSet(
                body: .json(
                    .init(
                        exerciseInstanceId: instanceId, idempotencyKey: "l", reps: 5, setId: try #require(setIds.first), weightKg: 50,
                        workoutId: active.id)))
            let archivedId = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c", workoutId: active.id))).ok.body
                .json.data.id
            let live = try await api.startActiveWorkout(body: .json(.init(idempotencyKey: "s2", templateId: templateId))).ok.body.json.data
            let liveId = live.id
            let (liveInstance, liveSets) = try WorkoutsHTTP.exercise(live)
            let liveSet = try #require(liveSets.first)

            typealias Patch = Operations.PatchTemplate.Input.Body.JsonPayload
            typealias Update = Operations.UpdateWorkout.Input.Body.JsonPayload
            let attempts: [SentCall] = [
                try SentCall("getTemplate", Operations.GetTemplate.Input.Body.JsonPayload(templateId: templateId)) {
                    try await intruder.getTemplate(body: .json($0))
                },
                try SentCall("patchTemplate", Patch(name: "Stolen", templateId: templateId)) {
                    try await intruder.patchTemplate(body: .json($0))
                },
                try SentCall("deleteTemplate", Operations.DeleteTemplate.Input.Body.JsonPayload(templateId: templateId)) {
                    try await intruder.deleteTemplate(body: .json($0))
                },
                try SentCall("createRoutine", Operations.CreateRoutine.Input.Body.JsonPayload(name: "Theirs", templateIds: [templateId])) {
                    try await intruder.createRoutine(body: .json($0))
                },
                try SentCall("getRoutine", Operations.GetRoutine.Input.Body.JsonPayload(routineId: routineId)) {
                    try await intruder.getRoutine(body: .json($0))
                },
                try SentCall("patchRoutine", Operations.PatchRoutine.Input.Body.JsonPayload(name: "Stolen", routineId: routineId)) {
                    try await intruder.patchRoutine(body: .json($0))
                },
                try SentCall("deleteRoutine", Operations.DeleteRoutine.Input.Body.JsonPayload(routineId: routineId)) {
                    try await intruder.deleteRoutine(body: .json($0))
                },
                try SentCall("setActiveRoutine", Operations.SetActiveRoutine.Input.Body.JsonPayload(routineId: routineId)) {
                    try await intruder.setActiveRoutine(body: .json($0))
                },
                try SentCall("getNextWorkout", Operations.GetNextWorkout.Input.Body.JsonPayload(routineId: routineId)) {
                    try await intruder.getNextWorkout(body: .json($0))
                },
                try SentCall(
                    "startActiveWorkout", Operations.StartActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "x1", templateId: templateId)
                ) {
                    try await intruder.startActiveWorkout(body: .json($0))
                },
                try SentCall(
                    "startActiveWorkout", Operations.StartActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "x2", routineId: routineId)
                ) {
                    try await intruder.startActiveWorkout(body: .json($0))
                },
                try SentCall(
                    "logSet",
                    Operations.LogSet.Input.Body.JsonPayload(
                        exerciseInstanceId: liveInstance, idempotencyKey: "x3", reps: 1, setId: liveSet, weightKg: 1, workoutId: liveId)
                ) { try await intruder.logSet(body: .json($0)) },
                try SentCall(
                    "patchActiveWorkout",
                    Operations.PatchActiveWorkout.Input.Body.JsonPayload(
                        idempotencyKey: "x4", ops: [.removeExercise(liveInstance)], workoutId: liveId)
                ) { try await intruder.patchActiveWorkout(body: .json($0)) },
                try SentCall(
                    "addExercise",
                    Operations.AddExercise.Input.Body.JsonPayload(exerciseId: Self.curl, idempotencyKey: "x5", workoutId: liveId)
                ) { try await intruder.addExercise(body: .json($0)) },
                try SentCall(
                    "swapExercise",
                    Operations.SwapExercise.Input.Body.JsonPayload(
                        exerciseInstanceId: liveInstance, idempotencyKey: "x6", newExerciseId: Self.curl, workoutId: liveId)
                ) { try await intruder.swapExercise(body: .json($0)) },
                try SentCall(
                    "completeActiveWorkout",
                    Operations.CompleteActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "x7", workoutId: liveId)
                ) { try await intruder.completeActiveWorkout(body: .json($0)) },
                try SentCall(
                    "cancelActiveWorkout", Operations.CancelActiveWorkout.Input.Body.JsonPayload(idempotencyKey: "x8", workoutId: liveId)
                ) { try await intruder.cancelActiveWorkout(body: .json($0)) },
                try SentCall("getWorkout", Operations.GetWorkout.Input.Body.JsonPayload(workoutId: archivedId)) {
                    try await intruder.getWorkout(body: .json($0))
                },
                try SentCall("updateWorkout", Update(name: "Stolen", workoutId: archivedId)) {
                    try await intruder.updateWorkout(body: .json($0))
                },
                try SentCall("deleteWorkout", Operations.DeleteWorkout.Input.Body.JsonPayload(workoutId: archivedId)) {
                    try await intruder.deleteWorkout(body: .json($0))
                },
                // Naming an exercise that does not exist changes nothing of that: the resource is not found first.
                try SentCall(
                    "patchTemplate", Patch(exercises: [.init(exerciseId: "Nope", sets: [.init(targetReps: 5)])], templateId: templateId)
                ) { try await intruder.patchTemplate(body: .json($0)) },
                try SentCall(
                    "updateWorkout",
                    Update(exercises: [.init(exerciseId: "Nope", sets: [.init(reps: 1, weightKg: 1)])], workoutId: archivedId)
                ) { try await intruder.updateWorkout(body: .json($0)) },
                try SentCall(
                    "addExercise",
                    Operations.AddExercise.Input.Body.JsonPayload(exerciseId: "Nope", idempotencyKey: "x9", workoutId: liveId)
                ) { try await intruder.addExercise(body: .json($0)) },
            ]
            for attempt in attempts {
                let refusal = try #require(await refused { try await attempt.send() }, "\(attempt.name) was not refused")
                #expect(refusal.status == 404, "\(attempt.name) answered \(refusal.status)")
                #expect(refusal.code == "NOT_FOUND", "\(attempt.name)")
                // The details name the field sent, with its value (`template_id` for an entry of `template_ids`).
                let named = refusal.details.contains { field, value in
                    attempt.body[field]?.stringValue == value || attempt.body["\(field)s"]?.arrayValue?.contains(.string(value)) == true
                }
                #expect(named, "\(attempt.name): \(refusal)")
            }
            #expect(try await intruder.getTemplates(body: .json(.init())).ok.body.json.data.items.isEmpty)
            #expect(try await intruder.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil)
            // Nothing of the owner's changed.
            #expect(try await api.getTemplate(body: .json(.init(templateId: templateId))).ok.body.json.data.name == "Mine")
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data?.id == liveId)
            #expect(try await count(server, "workouts_history") == 1)
        }
    }

    /// Many clients logging sets of one workout at once: every set lands.
    @Test(arguments: TestDatabases.engines)
    func concurrentLogSetsNeverLoseASet(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("busy@example.com"))
            let template = try await api.createTemplate(
                body: .json(
                    .init(
                        exercises: [Self.squat, Self.bench].map {
                            .init(exerciseId: $0, sets: Array(repeating: .init(targetReps: 10), count: 30))
                        },
                        name: "Volume"))
            ).ok.body.json.data.id
            let started = try await api.startActiveWorkout(body: .json(.init(templateId: template))).ok.body.json.data
            let workoutId = started.id
            let targets = started.exercises.flatMap { exercise in exercise.sets.map { (exercise.instanceId, $0.id) } }
            #expect(targets.count == 60)
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (index, target) in targets.enumerated() {
                    group.addTask {
                        try await answer {
                            try await api.logSet(
                                body: .json(
                                    .init(
                                        exerciseInstanceId: target.0, idempotencyKey: "k\(index)", reps: 10, setId: target.1, weightKg: 20,
                                        workoutId: workoutId))
                            ).ok.body.json.data.version
                        }.status
                    }
                }
                for try await status in group { #expect(status == .ok) }
            }
            let current = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data
            #expect(current?.totals.sets == 60)
            #expect(current?.version == 61)
        }
    }

    /// A client retrying while its first request is still in flight: every copy gets the first answer and
    /// the set is logged once.
    @Test(arguments: TestDatabases.engines)
    func simultaneousRetriesWithOneKeyApplyOnce(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("retry@example.com"))
            let workoutId = try await api.startActiveWorkout(body: .json(.init(name: "R"))).ok.body.json.data.id
            let added = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a", sets: 1, workoutId: workoutId))
            ).ok.body.json.data
            let (instanceId, setIds) = try WorkoutsHTTP.exercise(added)
            let setId = try #require(setIds.first)
            let body = Operations.LogSet.Input.Body.JsonPayload(
                exerciseInstanceId: instanceId, idempotencyKey: "same", reps: 5, setId: setId, weightKg: 100, workoutId: workoutId)
            let versions = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await answer { try await api.logSet(body: .json(body)).ok.body.json.data.version }.value }
                }
                var seen: [Int?] = []
                for try await version in group { seen.append(version) }
                return seen
            }
            #expect(versions.count == 8)
            #expect(Set(versions).count == 1, "every copy answers like the first: \(versions)")
            let current = try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data
            #expect(current?.version == versions.first ?? -1)
            #expect(current?.totals.sets == 1)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func editingTheActiveWorkout(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let api = client.api(try await client.newUser("editor@example.com"))
            let started = try await api.startActiveWorkout(body: .json(.init(name: "Freestyle"))).ok.body.json.data
            let workoutId = started.id
            #expect(started.exercises.isEmpty)

            let added = try await api.addExercise(
                body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a1", sets: 2, workoutId: workoutId))
            ).ok.body.json.data
            let (squatId, squatSets) = try WorkoutsHTTP.exercise(added)
            _ = try await api.addExercise(body: .json(.init(exerciseId: Self.curl, idempotencyKey: "a2", sets: 1, workoutId: workoutId)))

            _ = try await api.logSet(
                body: .json(
                    .init(exerciseInstanceId: squatId, idempotencyKey: "l1", reps: 5, setId: squatSets[0], weight: 80, workoutId: workoutId)
                ))
            let swapped = try await api.swapExercise(
                body: .json(.init(exerciseInstanceId: squatId, idempotencyKey: "w1", newExerciseId: Self.bench, workoutId: workoutId))
            ).ok.body.json.data
            let afterSwap = swapped.exercises
            #expect(
                afterSwap.map(\.exerciseId) == [Self.squat, Self.bench, Self.curl], "logged squat set stays, the rest moves to bench")
            try #require(afterSwap.count == 3)
            #expect(afterSwap[0].sets.count == 1)
            #expect(afterSwap[0].sets.first?.weightKg == 80, "legacy weight read as kg")
            #expect(afterSwap[1].sets.count == 1)

            let ids = afterSwap.map(\.instanceId)
            let version = swapped.version
            let patched = try await api.patchActiveWorkout(
                body: .json(
                    .init(
                        expectedVersion: version, idempotencyKey: "p1",
                        ops: [
                            .reorderExercises([ids[2], ids[0], ids[1]]), .addSet(ids[2], targetReps: 12), .setReps(ids[0], squatSets[0], 6),
                        ],
                        workoutId: workoutId))
            ).ok.body.json.data
            let exercises = patched.exercises
            #expect(exercises.map(\.instanceId) == [ids[2], ids[0], ids[1]])
            #expect(exercises.first?.sets.count == 2)
            #expect(patched.totals.reps == 6)

            let stale = try #require(
                await refused {
                    try await api.patchActiveWorkout(
                        body: .json(
                            .init(expectedVersion: version, idempotencyKey: "p2", ops: [.removeExercise(ids[1])], workoutId: workoutId)))
                })
            #expect(stale.status == 409)
            let atomic = try #require(
                await refused {
                    try await api.patchActiveWorkout(
                        body: .json(
                            .init(idempotencyKey: "p3", ops: [.removeExercise(ids[1]), .removeSet(ids[0], "nope")], workoutId: workoutId)))
                })
            #expect(atomic.status == 404)
            #expect(
                try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data?.exercises.count == 3,
                "a failing op leaves everything as it was")

            let unknown = try #require(
                await refused {
                    try await api.logSet(
                        body: .json(
                            .init(
                                exerciseInstanceId: "nope", idempotencyKey: "l9", reps: 1, setId: "nope", weightKg: 1, workoutId: workoutId)
                        ))
                })
            #expect(unknown.status == 404)
            typealias LogSet = Operations.LogSet.Input.Body.JsonPayload
            let outOfRange: [(field: String, value: String, set: @Sendable (inout LogSet) -> Void)] = [
                ("reps", "1001", { $0.reps = 1001 }), ("rir", "11", { $0.rir = 11 }), ("weight_kg", "-1", { $0.weightKg = -1 }),
                ("weight_kg", "1001", { $0.weightKg = 1001 }),
            ]
            for (field, value, set) in outOfRange {
                var body = LogSet(
                    exerciseInstanceId: ids[0], idempotencyKey: "v-\(field)-\(value)", reps: 5, setId: squatSets[0], weightKg: 50,
                    workoutId: workoutId)
                set(&body)
                let sent = body
                let refusal = try #require(await refused { try await api.logSet(body: .json(sent)) }, "\(field)=\(value)")
                #expect(refusal.code == "INVALID_ARGUMENT", "\(field)=\(value)")
                #expect(refusal.details["field"] == field)
            }
            _ = try await api.cancelActiveWorkout(body: .json(.init(idempotencyKey: "c1", workoutId: workoutId))).ok
            #expect(try await api.getActiveWorkout(body: .json(.init())).ok.body.json.data == nil)
            let afterCancel = try #require(
                await refused {
                    try await api.addExercise(body: .json(.init(exerciseId: Self.squat, idempotencyKey: "a9", workoutId: workoutId)))
                })
            #expect(afterCancel.status == 412)
        }
    }

    @Test(arguments: TestDatabases.engines)
    func templatesVersionAndRoutinesFollowDeletes(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { _, client in
            let token = try await client.newUser("planner@example.com")
            let api = client.api(token)
            let aId = try await WorkoutsHTTP.template(client, "A", exercise: Self.squat, token: token)
            let bId = try await WorkoutsHTTP.template(client, "B", exercise: Self.bench, token: token)
            let unknownExercise = try #require(
                await refused {
                    try await api.createTemplate(
                        body: .json(.init(exercises: [.init(exerciseId: "No_Such_Exercise", sets: [])], name: "X")))
                })
            #expect(unknownExercise.code == "INVALID_ARGUMENT")
            #expect(unknownExercise.details["field"] == "exercises[0].exercise_id")

            let patched = try await api.patchTemplate(body: .json(.init(changes: .init(name: "A2"), expectedVersion: 1, templateId: aId)))
                .ok
                .body.json.data
            #expect(patched.version == 2)
            let stale = try #require(
                await refused { try await api.patchTemplate(body: .json(.init(expectedVersion: 1, name: "A3", templateId: aId))) })
            #expect(stale.status == 409)
            #expect(stale.details["current_version"] == "2")

            let routineId = try await api.createRoutine(body: .json(.init(name: "AB", templateIds: [aId, bId]))).ok.body.json.data.id
            _ = try await api.setActiveRoutine(body: .json(.init(routineId: routineId)))
            let deletedTemplate = try await answer {
                try await api.deleteTemplate(body: .json(.init(templateId: aId))).ok.body.json.data.id
            }
            #expect(deletedTemplate.status == .ok && deletedTemplate.value == aId, "a delete answers what it deleted")
            #expect(try #require(await refused { try await api.deleteTemplate(body: .json(.init(templateId: aId))) }).status == 404)
            let after = try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            #expect(after.templateIds == [bId], "deleting a template removes it from routines")
            #expect(try await api.getNextWorkout(body: .json(.init())).ok.body.json.data.template.id == bId)
            let deletedRoutine = try await answer {
                try await api.deleteRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data
            }
            #expect(deletedRoutine.status == .ok && deletedRoutine.value?.id == routineId)
            #expect(deletedRoutine.value?.templateIds == [bId])
            #expect(try #require(await refused { try await api.getNextWorkout(body: .json(.init())) }).code == "FAILED_PRECONDITION")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func historyEditsRecomputeAndPaginate(engine: SQLEngine) async throws {
        try await TestServer.with(engine) { server, client in
            let api = client.api(try await client.newUser("historian@example.com"))
            var archived: [String] = []
            for index in 0..<3 {
                let workoutId = try await api.startActiveWorkout(body: .json(.init(name: "W\(index)"))).ok.body.json.data.id
                let added = try await api.addExercise(
                    body: .json(.init(exerciseId: Self.curl, idempotencyKey: "a\(index)", sets: 1, workoutId: workoutId))
                ).ok.body.json.data
                let (instanceId, setIds) = try WorkoutsHTTP.exercise(added)
                _ = try await api.logSet(
                    body: .json(
                        .init(
                            exerciseInstanceId: instanceId, idempotencyKey: "l\(index)", reps: 10, setId: try #require(setIds.first),
                            weightKg: 10,
                            workoutId: workoutId)))
                _ = try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "c\(index)", workoutId: workoutId)))
                archived.append(workoutId)
                try await Task.sleep(for: .milliseconds(5))
            }
            let ids = archived
            let first = try await api.getRecentWorkouts(body: .json(.init(limit: 2))).ok.body.json.data
            let firstIds = first.items.map(\.id)
            #expect(firstIds == [ids[2], ids[1]])
            let cursor = try #require(first.nextCursor)
            // An empty cursor is the first page (clients holding the token as a string send "" before they have one).
            let empty = try await answer { try await api.getRecentWorkouts(body: .json(.init(cursor: "", limit: 2))).ok.body.json.data }
            #expect(empty.status == .ok, "\(empty)")
            #expect(empty.value?.items.map(\.id) == firstIds)
            #expect(empty.value?.nextCursor == cursor)
            let second = try await api.getRecentWorkouts(body: .json(.init(cursor: cursor, limit: 2))).ok.body.json.data
            #expect(second.items.map(\.id) == [ids[0]])
            #expect(second.nextCursor == nil)

            let edited = try await api.updateWorkout(
                body: .json(
                    .init(
                        changes: .init(exercises: [.init(exerciseId: Self.bench, sets: [.init(reps: 3, weightKg: 100)])]), workoutId: ids[0]
                    ))
            ).ok.body.json.data
            #expect(edited.analytics.totals.volume == 300)
            #expect(edited.analytics.exercises.first?.exerciseId == Self.bench)

            let deletedWorkout = try await answer { try await api.deleteWorkout(body: .json(.init(workoutId: ids[1]))).ok.body.json.data }
            #expect(deletedWorkout.status == .ok && deletedWorkout.value?.id == ids[1])
            #expect(deletedWorkout.value?.analytics.totals.volume == 100, "the deleted workout as it was")
            #expect(try #require(await refused { try await api.getWorkout(body: .json(.init(workoutId: ids[1]))) }).status == 404)
            // Nothing of it is left: a late write finds no workout, and its rows as it was run are gone too.
            let late = try #require(
                await refused {
                    try await api.completeActiveWorkout(body: .json(.init(idempotencyKey: "late-complete", workoutId: ids[1])))
                })
            #expect(late.code == "NOT_FOUND" && late.details["workout_id"] == ids[1], "\(late)")
            for (table, column) in [
                ("workouts_active", "id"), ("workouts_active_exercises", "workout_id"), ("workouts_active_sets", "workout_id"),
            ] {
                func rows(_ id: String) async throws -> Int {
                    try await server.database.sql.raw(
                        "SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE \(unsafeRaw: column) = \(bind: id)"
                    )
                    .first(decodingColumn: "n", as: Int.self) ?? -1
                }
                #expect(try await rows(ids[1]) == 0, "\(table): the deleted workout")
                #expect(try await rows(ids[0]) > 0, "\(table): a workout still in the history")
            }
            let events = try await server.database.sql.raw("SELECT type FROM platform_outbox ORDER BY seq").all(
                decodingColumn: "type", as: String.self)
            #expect(events.filter { $0 == WorkoutCompleted.eventType }.count == 3)
            #expect(events.contains(WorkoutEdited.eventType))
            #expect(events.contains(WorkoutDeleted.eventType))
        }
    }
}
