import Contracts
import Foundation
import Platform

/// What the lifter did in an exercise the last time they trained it, as the workout copilot says it between sets:
/// "Last time (2024-03-04): 3 × 5 @ 100 kg, RIR 2". Read from the training analytics (the coach's `TrainingAnalytics`),
/// leaving out the workout in progress; nil when the exercise was never logged.
enum LastSession {
    static func sentence(
        exerciseId: String, excluding workoutId: String?, userId: String, analytics: any TrainingAnalytics, unit: WeightUnit
    ) async throws -> String? {
        let page = try await analytics.trainingSets(userId: userId, query: TrainingSetQuery(exerciseId: exerciseId, limit: 30))
        guard let last = page.items.first(where: { $0.workoutId != workoutId }) else { return nil }
        // Newest first: the sets of that workout, back in the order they were done.
        let sets = page.items.filter { $0.workoutId == last.workoutId }.reversed()
        return "Last time (\(last.date)): " + describe(Array(sets), unit: unit)
    }

    /// "3 × 5 @ 100 kg, RIR 2" when every set was alike; else each set: "5 @ 100 kg, 5 @ 100 kg, 4 @ 100 kg".
    static func describe(_ sets: [TrainingSet], unit: WeightUnit) -> String {
        guard let first = sets.first else { return "" }
        let weight = { (set: TrainingSet) in set.weightKg > 0 ? " @ \(unit.text(kilograms: set.weightKg))" : "" }
        var text: String
        if sets.allSatisfy({ $0.reps == first.reps && $0.weightKg == first.weightKg }) {
            text = "\(sets.count) × \(first.reps)\(weight(first))"
        } else {
            text = sets.prefix(8).map { "\($0.reps)\(weight($0))" }.joined(separator: ", ")
        }
        if let rir = first.rir, sets.allSatisfy({ $0.rir == rir }) { text += ", RIR \(rir)" }
        return text
    }
}
