import Contracts
import Fakes
import Foundation
import Platform
import TestSupport
import Testing

@testable import Workouts

enum WorkoutsFixtures {
    static let bench = Exercise(
        id: "Barbell_Bench_Press_-_Medium_Grip", name: "Barbell Bench Press - Medium Grip", category: "strength", equipment: "barbell",
        primaryMuscles: ["chest"], secondaryMuscles: ["shoulders", "triceps"])
    static let squat = Exercise(
        id: "Barbell_Squat", name: "Barbell Squat", category: "strength", equipment: "barbell", primaryMuscles: ["quadriceps"],
        secondaryMuscles: ["calves", "glutes", "hamstrings", "lower back"])
    static let curl = Exercise(
        id: "Dumbbell_Bicep_Curl", name: "Dumbbell Bicep Curl", category: "strength", equipment: "dumbbell", primaryMuscles: ["biceps"],
        secondaryMuscles: ["forearms"])

    /// Live Workouts on a fresh database for `engine`.
    static func withLive(_ engine: SQLEngine, _ body: (WorkoutsModule) async throws -> Void) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            try await body(WorkoutsModule(database: db, clock: FakeWallClock(), ids: RandomIDGenerator()))
        }
    }

    /// The real catalog entries of the three fixture exercises, for fakes.
    static var catalog: [Exercise] { (try? CatalogImport.bundled()) ?? [] }
}
