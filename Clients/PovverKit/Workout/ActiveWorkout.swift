import Foundation

/// The workout in progress, as `getActiveWorkout` answers it (docs/workouts.md "Active workout"); the active
/// workout service applies a queued write to it at once, so the app shows a set logged offline as logged.
public struct ActiveWorkout: Codable, Equatable, Sendable, Identifiable {
    public struct WorkoutSet: Codable, Equatable, Sendable, Identifiable {
        public var id: String
        public var setIndex: Int
        /// What was done; null until logged.
        public var weightKg: Double?
        public var reps: Int?
        public var rir: Int?
        /// The plan, for a workout started from a template.
        public var targetReps: Int?
        public var targetRir: Int?
        public var targetWeightKg: Double?
        public var completedAt: Date?

        public var isLogged: Bool { completedAt != nil }
    }

    public struct Exercise: Codable, Equatable, Sendable, Identifiable {
        public var instanceId: String
        public var exerciseId: String
        public var name: String
        public var sets: [WorkoutSet]

        public var id: String { instanceId }
    }

    public struct Totals: Codable, Equatable, Sendable {
        public var sets: Int
        public var reps: Int
        public var volume: Double
    }

    public var id: String
    public var name: String?
    /// `in_progress`, `completed` or `cancelled`.
    public var status: String
    public var startTime: Date
    public var sourceTemplateId: String?
    public var sourceRoutineId: String?
    public var exercises: [Exercise]
    public var totals: Totals
    /// The server's version of the workout, as of the last answer applied.
    public var version: Int

    /// Marks a set done with what was lifted, as the server will (a queued write, shown before it is sent).
    mutating func log(exerciseInstanceId: String, setId: String, weightKg: Double, reps: Int, rir: Int?, at date: Date) {
        guard let e = exercises.firstIndex(where: { $0.instanceId == exerciseInstanceId }),
            let s = exercises[e].sets.firstIndex(where: { $0.id == setId })
        else { return }
        let wasLogged = exercises[e].sets[s].isLogged
        exercises[e].sets[s].weightKg = weightKg
        exercises[e].sets[s].reps = reps
        exercises[e].sets[s].rir = rir
        exercises[e].sets[s].completedAt = exercises[e].sets[s].completedAt ?? date
        if !wasLogged {
            totals.sets += 1
            totals.reps += reps
            totals.volume += weightKg * Double(reps)
        }
    }
}

/// A finished workout, as `completeActiveWorkout` answers it.
public struct CompletedWorkout: Codable, Equatable, Sendable, Identifiable {
    public struct Analytics: Codable, Equatable, Sendable {
        public var totals: ActiveWorkout.Totals
    }

    public var id: String
    public var endTime: Date
    public var analytics: Analytics
}
