import AsyncHTTPClient
import Contracts
import Fakes
import Foundation
import NIOPosix
import Platform
import TestSupport

@testable import Recommendations

/// The live Recommendations module on a fresh database, with fakes for what it consumes.
enum LiveRecommendations {
    static func with(
        _ engine: SQLEngine, clock: FakeWallClock = FakeWallClock(), _ body: (RecommendationsModule, Database) async throws -> Void
    ) async throws {
        try await TestDatabases.with(engine, migrate: [("recommendations", RecommendationsMigrations.all)]) { database in
            let platform = TestComposition.platform(database, clock: clock)
            let module = RecommendationsModule(
                platform: platform, settings: RecommendationsSettings(), log: FakeTrainingLog(), analytics: FakeTrainingAnalytics(),
                plans: FakePlanLibrary(catalog: [], clock: clock, ids: SequentialIDGenerator()), accounts: FakeAccountDirectory(),
                premium: FakePremiumGate(), events: FakeProductEventSink())
            try await body(module, database)
        }
    }

    /// Stores one row of every Recommendations table for the user.
    static func seed(_ module: RecommendationsModule, _ database: Database, userId: String, now: Date) async throws {
        let note = AnalysisNote(
            id: "pw-\(userId)", section: .insights, period: "2026-01-01", headline: "h", findings: ["f"], createdAt: now)
        let item = Recommendation(
            id: "rec-\(userId)", scope: .exercise, target: RecommendationTarget(exerciseId: "Barbell_Squat", exerciseName: "Squat"),
            changes: [], status: .pendingReview, workoutId: "w-\(userId)", createdAt: now, expiresAt: now.addingTimeInterval(86_400))
        let session = ExerciseSession(exerciseId: "Barbell_Squat", name: "Squat", verdict: .met, topWeightKg: 100, rirDrift: nil)
        try await database.transaction { tx in
            try await module.notes.write(note, userId: userId, expiresAt: now.addingTimeInterval(86_400), in: tx)
            try await module.store.insert(item, userId: userId, proposed: nil, in: tx)
            try await module.store.recordSessions(userId: userId, workoutId: "w-\(userId)", endedAt: now, [session], in: tx)
        }
        try await module.store.setAutoPilot(userId: userId, enabled: true, now: now)
    }
}
