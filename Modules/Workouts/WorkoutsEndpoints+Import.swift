import Contracts
import Foundation
import Platform

extension WorkoutsModule {
    /// `importWorkouts`: a Strong or Hevy export in, its workouts archived (see `WorkoutImport`).
    func importEndpoints() -> [Endpoint] {
        let importer = self.importer.base
        let skipped = Schema.object(["row": Schema.integer, "reason": Schema.string], required: ["row", "reason"])
        let unmatched = Schema.object(["name": Schema.string, "rows": Schema.integer], required: ["name", "rows"])
        return [
            .rpc(
                "importWorkouts", access: .user, tag: "Workouts",
                summary: """
                    Import a history exported from Strong or Hevy (CSV text in `content`) as completed workouts. Rows that are not \
                    sets or cannot be read are skipped with their row and reason; unmatched exercise names are listed, never guessed. \
                    Importing the same workouts again adds nothing. Body limit 16 MiB.
                    """,
                request: Schema.object(
                    [
                        "format": Schema.enumeration(["strong_csv", "hevy_csv"]),
                        "content": Schema.string(maxLength: WorkoutImport.maxContentBytes),
                        "weight_unit": Schema.enumeration(["kg", "lb", "lbs"]), "time_zone": Schema.timeZone,
                    ], required: ["format", "content"]),
                response: Schema.object(
                    [
                        "imported": Schema.integer, "sets": Schema.integer, "skipped": Schema.array(skipped),
                        "unmatched_exercises": Schema.array(unmatched), "workout_ids": Schema.array(Schema.string),
                    ], required: ["imported", "sets", "skipped", "unmatched_exercises", "workout_ids"]),
                input: WorkoutImport.Request.self, maxBodyBytes: WorkoutImport.maxContentBytes
            ) { input, call in
                try await importer.run(userId: try call.userId(), request: input)
            }
        ]
    }
}
