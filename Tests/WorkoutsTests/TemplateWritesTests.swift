import Contracts
import Fakes
import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

@Suite struct TemplateWritesTests {
    /// Every write of a template recomputes its analytics, a rename too: analytics stored by an older rule, or
    /// before `import-catalog` changed an exercise's muscles, are put right by the next write.
    @Test(arguments: TestDatabases.engines)
    func aRenameRecomputesStaleAnalytics(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            let module = try await WorkoutsTesting.module(db, clock: SystemClock())
            let created = try await module.templates.create(
                userId: "u",
                draft: TemplateDraft(
                    name: "Legs",
                    exercises: [.init(exerciseId: "Barbell_Squat", sets: [TemplateSet(targetReps: 5), TemplateSet(targetReps: 5)])]))
            var stale = created
            stale.analytics = TemplateAnalytics(estimatedDurationMinutes: 99, totalSets: 7, muscles: ["biceps"])
            try await db.sql.raw(
                "UPDATE workouts_templates SET document = \(bind: try JSONCoding.store(stale)) WHERE id = \(bind: created.id)"
            ).run()
            #expect(try await module.templates.get(userId: "u", id: created.id).analytics == stale.analytics)

            let renamed = try await module.templates.patch(
                userId: "u", id: created.id, expectedVersion: 1, changes: TemplatePatch(name: "Legs A")
            ).value()
            #expect(renamed.name == "Legs A" && renamed.version == 2)
            #expect(renamed.analytics == created.analytics, "\(renamed.analytics)")
            let stored = try await module.templates.get(userId: "u", id: created.id)
            #expect(stored.analytics == created.analytics && stored.version == 2)
        }
    }
}
