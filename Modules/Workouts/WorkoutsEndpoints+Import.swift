import Contracts
import Foundation
import Platform

extension WorkoutsModule {
    /// Imports one user may start over the API in an hour.
    static let importRate = RateLimit(name: "workouts.import", limit: ImportCaps.importsPerHour, window: 3600)

    /// `importWorkouts`: a Strong or Hevy export in, its workouts archived (see `WorkoutImport`).
    func importEndpoints() -> [Endpoint] {
        let importer = self.importer.base
        let limiter = RateLimiter(database: context.database, clock: context.clock)
        let skipped = Schema.object(["row": Schema.integer, "reason": Schema.string], required: ["row", "reason"])
        let unmatched = Schema.object(["name": Schema.string, "rows": Schema.integer], required: ["name", "rows"])
        return [
            .rpc(
                "importWorkouts", access: .user, tag: "Workouts",
                summary: """
                    Import a history exported from Strong or Hevy (CSV text in `content`) as completed workouts. Rows that are not \
                    sets or cannot be read are skipped with their row and reason (the first \(ImportCaps.skippedListed) listed, \
                    `skipped_total` counts all); unmatched exercise names are listed, never guessed. Importing the same workouts \
                    again adds nothing, also after an import that was cut short. Body limit 16 MiB; at most \
                    \(ImportCaps.workoutsPerFile) workouts and \(ImportCaps.distinctNames) exercise names a file, \
                    \(ImportCaps.importsPerHour) imports an hour.
                    """,
                request: Schema.object(
                    [
                        "format": Schema.enumeration(["strong_csv", "hevy_csv"]),
                        "content": Schema.string(maxLength: WorkoutImport.maxContentBytes),
                        "weight_unit": Schema.enumeration(["kg", "lb", "lbs"]), "time_zone": Schema.timeZone,
                    ], required: ["format", "content"]),
                response: Schema.object(
                    [
                        "imported": Schema.integer, "sets": Schema.integer,
                        "skipped": Schema.array(skipped, maxItems: ImportCaps.skippedListed), "skipped_total": Schema.integer,
                        "unmatched_exercises": Schema.array(unmatched, maxItems: ImportCaps.distinctNames),
                        "workout_ids": Schema.array(Schema.string, maxItems: ImportCaps.workoutsPerFile),
                    ], required: ["imported", "sets", "skipped", "skipped_total", "unmatched_exercises", "workout_ids"]),
                input: WorkoutImport.Request.self, maxBodyBytes: WorkoutImport.maxContentBytes
            ) { input, call in
                let userId = try call.userId()
                try await limiter.hit(Self.importRate, key: userId)
                return try await importer.run(userId: userId, request: input)
            }
        ]
    }
}
