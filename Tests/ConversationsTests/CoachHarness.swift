import Contracts
import Fakes
import Foundation
import Logging
import Platform
import TestSupport
import Workouts

@testable import Conversations

/// A Conversations module composed from its definition on a real database, with the live catalog (its search ranks as users see it) and fakes
/// for the other modules it consumes.
struct CoachHarness {
    let module: ConversationsModule
    let premium: FakePremiumGate
    let workouts: FakeActiveWorkoutControl
    let analytics: FakeTrainingAnalytics
    let plans: FakePlanLibrary
    let events: FakeProductEventSink
    let accounts: FakeAccountDirectory
    let analysis: FakeTrainingAnalysisSummaries
    let clock: FakeWallClock

    static let catalog: [Exercise] = (try? CatalogImport.bundled()) ?? []
    static let bench = "Barbell_Bench_Press_-_Medium_Grip"
    static let squat = "Barbell_Squat"

    /// `analyst`: whether the composition has the training analyst (Recommendations); without it the coach has no
    /// analysis summaries at all. `ids`: where every id comes from (`SequentialIDGenerator` when a script names them).
    static func with(
        _ engine: SQLEngine, model: any CoachModel = RuleBasedCoach(), analyst: Bool = true, ids: any IDGenerator = RandomIDGenerator(),
        _ body: (CoachHarness) async throws -> Void
    ) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let clock = FakeWallClock()
            let premium = FakePremiumGate(premium: ["u1", "u2"])
            let plans = FakePlanLibrary(catalog: catalog, clock: clock, ids: ids)
            let workouts = FakeActiveWorkoutControl(catalog: catalog, clock: clock, ids: ids, plans: plans)
            let analytics = FakeTrainingAnalytics()
            let events = FakeProductEventSink()
            let accounts = FakeAccountDirectory([
                AccountSummary(
                    userId: "u1", email: "u1@example.com", emailVerified: true, providers: [.password], originalProvider: "email",
                    createdAt: clock.now(), timeZone: "Europe/Berlin", name: "Sam", weightFormat: "kg")
            ])
            let analysis = FakeTrainingAnalysisSummaries(clock: clock)
            // The live catalog (Workouts' own, on its tables) so search ranks as users see it; the other neighbours are fakes.
            var neighbours = [
                ProvidedContract(Contract.premiumGate, premium),
                ProvidedContract(Contract.exerciseCatalog, WorkoutsModule(database: db, clock: clock, ids: ids).catalog),
                ProvidedContract(Contract.trainingAnalytics, analytics), ProvidedContract(Contract.planLibrary, plans),
                ProvidedContract(Contract.activeWorkoutControl, workouts), ProvidedContract(Contract.productEvents, events),
                ProvidedContract(Contract.accountDirectory, accounts),
            ]
            if analyst { neighbours.append(ProvidedContract(Contract.trainingAnalysisSummaries, analysis)) }
            let composition = try await TestComposition.build(
                ConversationsModule.definition(settings: try ConversationsSettings(environment: [:]), model: model), neighbours: neighbours,
                platform: TestComposition.platform(db, clock: clock, ids: ids))
            let module = try composition.module(ConversationsModule.self)
            try await body(
                CoachHarness(
                    module: module, premium: premium, workouts: workouts, analytics: analytics, plans: plans, events: events,
                    accounts: accounts, analysis: analysis, clock: clock))
        }
    }

    /// Sends a message and answers the stream's events as JSON (an error that ends it as `{type: error, code}`).
    /// `logger` is the request's (the HTTP layer's carries `request_id`).
    func send(
        _ userId: String, _ message: String, conversationId: String? = nil, workoutId: String? = nil,
        logger: Logger = Logger(label: "test")
    ) async -> [JSONValue] {
        var events: [JSONValue] = []
        var lastId = 0
        do {
            for try await event in module.stream.events(
                userId: userId, input: StreamInput(conversationId: conversationId, message: message, workoutId: workoutId),
                requestLogger: logger)
            {
                precondition(event.id == lastId + 1, "events are numbered in order")
                lastId = event.id
                events.append(try JSONCoding.makeDecoder().decode(JSONValue.self, from: Data(event.data.utf8)))
            }
        } catch let error as ServiceError {
            events.append(["type": "error", "code": .string(error.code.rawValue), "message": .string(error.message)])
        } catch {
            events.append(["type": "error", "code": "INTERNAL"])
        }
        return events
    }

    /// A workout in progress: bench 3 × 8 @ 100 kg, then squat 2 × 5 @ 140 kg.
    func startWorkout(_ userId: String) async -> ActiveWorkout {
        let sets = { (reps: Int, weight: Double, count: Int) in
            (0..<count).map { WorkoutSet(id: "s\($0)", setIndex: $0, targetReps: reps, targetRir: 2, targetWeightKg: weight) }
        }
        let workout = ActiveWorkout(
            id: "w-\(userId)", userId: userId, name: "Push", sourceTemplateId: nil, sourceRoutineId: nil, status: .inProgress,
            startTime: clock.now(), version: 1,
            exercises: [
                WorkoutExercise(instanceId: "i1", exerciseId: Self.bench, name: "Barbell Bench Press - Medium Grip", sets: sets(8, 100, 3)),
                WorkoutExercise(instanceId: "i2", exerciseId: Self.squat, name: "Barbell Squat", sets: sets(5, 140, 2)),
            ], totals: WorkoutTotals(sets: 0, reps: 0, volume: 0), createdAt: clock.now(), updatedAt: clock.now())
        await workouts.seed(workout)
        return workout
    }
}

extension [JSONValue] {
    var types: [String] { compactMap { $0["type"]?.stringValue } }
    var text: String { filter { $0["type"] == "text" }.compactMap { $0["delta"]?.stringValue }.joined() }
    var errorCode: String? { first { $0["type"] == "error" }?["code"]?.stringValue }
    var artifacts: [JSONValue] { filter { $0["type"] == "artifact" } }
}
