import Contracts
import Foundation
import Platform
import Testing
@testable import Workouts

@Suite struct ActiveWorkoutStorageTests {
    static func randomWorkout(_ generator: inout some RandomNumberGenerator) -> ActiveWorkout {
        let names = ["Bench \"Press\"", "Squat\\Deep", "Curl\nline", "Ünïcødé 🏋️", "tab\there", "ctl\u{1}x", ""]
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &generator) ? value : nil }
        let start = Date(millisecondsSince1970: Int64.random(in: 1_600_000_000_000...1_900_000_000_000, using: &generator))
        let exercises = (0..<Int.random(in: 0...5, using: &generator)).map { index in
            WorkoutExercise(
                instanceId: "i\(index)", exerciseId: "e\(index)", name: names.randomElement(using: &generator)!,
                sets: (0..<Int.random(in: 0...6, using: &generator)).map { setIndex in
                    WorkoutSet(
                        id: "s\(index)-\(setIndex)", setIndex: setIndex, targetReps: maybe(Int.random(in: 0...20, using: &generator)),
                        targetRir: maybe(Int.random(in: 0...10, using: &generator)),
                        weightKg: maybe((Double.random(in: 0...300, using: &generator) * 4).rounded() / 4),
                        reps: maybe(Int.random(in: 0...30, using: &generator)), rir: maybe(Int.random(in: 0...10, using: &generator)),
                        completedAt: maybe(start.addingTimeInterval(Double(setIndex) * 61.5)))
                })
        }
        return ActiveWorkout(
            id: "w", userId: "u", name: maybe(names.randomElement(using: &generator)!), sourceTemplateId: maybe("t"), sourceRoutineId: maybe("r"),
            status: [.inProgress, .completed, .cancelled].randomElement(using: &generator)!, startTime: start,
            version: Int.random(in: 1...500, using: &generator), exercises: exercises,
            totals: WorkoutAnalyzer.totals(exercises), createdAt: start, updatedAt: start.addingTimeInterval(3600))
    }

    /// The hand-written document reads back exactly as the generic encoder's would.
    @Test func serializedDocumentsRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let workout = Self.randomWorkout(&generator)
            let text = ActiveWorkoutStorage.serialize(workout)
            let viaHand = try JSONCoding.load(ActiveWorkout.self, from: text)
            let viaEncoder = try JSONCoding.load(ActiveWorkout.self, from: try JSONCoding.store(workout))
            #expect(viaHand == viaEncoder)
            #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
        }
    }
}
