import Contracts
import Fakes
import Foundation
import Logging
import Testing

@testable import Conversations

/// A proposal's starting weights: from the lift's own e1RM or a close variant's, brought to the set's reps and RIR on
/// the user's grid; none for a bodyweight move or a lift with no history (its first session calibrates); a template's
/// own weights kept.
@Suite struct StartingWeightsTests {
    static let catalog = FakeExerciseCatalog(CoachHarness.catalog)

    static func weights(_ bests: [String: Double], unit: WeightUnit = .kilograms) async throws -> StartingWeights {
        let analytics = FakeTrainingAnalytics()
        for (id, e1rm) in bests {
            await analytics.set(
                userId: "u", exerciseId: id,
                weeks: [
                    ExerciseWeek(
                        weekStart: "2026-11-16", e1rmKg: e1rm, topWeightKg: e1rm * 0.8, bestSet: .init(weightKg: e1rm * 0.8, reps: 8),
                        volumeKg: 1000, sets: 3, reps: 24)
                ])
        }
        return try await StartingWeights.load(
            userId: "u", analytics: analytics, catalog: catalog, unit: unit, logger: Logger(label: "test"))
    }

    static func planned(_ id: String, reps: Int?, rir: Int?, count: Int = 3) -> PlannedExercise {
        PlannedExercise(exerciseId: id, sets: Array(repeating: TemplateSet(targetReps: reps, targetRir: rir), count: count))
    }

    @Test func aLiftsOwnE1rmGivesTheWeightForTheSetsRepsAndRirOnTheGrid() async throws {
        // e1RM 120: 5 reps at RIR 2 is 7 to failure, 120 / (1 + 7/30) = 97.3 → 97.5 kg; 10 at RIR 2: 85.7 → 85 kg.
        let weights = try await Self.weights(["Barbell_Squat": 120])
        let weighed = try await weights.weighed([
            Self.planned("Barbell_Squat", reps: 5, rir: 2), Self.planned("Barbell_Squat", reps: 10, rir: nil, count: 1),
        ])
        #expect(weighed[0].sets.map(\.targetWeightKg) == [97.5, 97.5, 97.5])
        #expect(weighed[1].sets.map(\.targetWeightKg) == [85], "RIR 2 when none is planned")
    }

    @Test func aPoundUserStartsOnTheFivePoundGrid() async throws {
        // 97.3 kg is 214.5 lb → 215 lb, stored as its kilograms to the gram.
        let weights = try await Self.weights(["Barbell_Squat": 120], unit: .pounds)
        let weighed = try await weights.weighed([Self.planned("Barbell_Squat", reps: 5, rir: 2, count: 1)])
        #expect(weighed[0].sets.map(\.targetWeightKg) == [97.522])
        #expect(WeightUnit.pounds.text(kilograms: 97.522) == "215 lb")
    }

    @Test func aCloseVariantCountsForNinetyPercent() async throws {
        // Front squat from the back squat: 120 × 0.9 = 108; 5 at RIR 2 → 87.6 → 87.5 kg.
        let weights = try await Self.weights(["Barbell_Squat": 120])
        let weighed = try await weights.weighed([Self.planned("Front_Barbell_Squat", reps: 5, rir: 2, count: 1)])
        #expect(weighed[0].sets.map(\.targetWeightKg) == [87.5])
        // A lift of another movement (a bench press) says nothing about the squat.
        let bench = try await weights.weighed([Self.planned("Barbell_Bench_Press_-_Medium_Grip", reps: 5, rir: 2, count: 1)])
        #expect(bench[0].sets.map(\.targetWeightKg) == [nil], "no history: the first session calibrates")
    }

    @Test func bodyweightMovesAndUnknownLiftsGetNoWeightWhateverTheModelSent() async throws {
        let weights = try await Self.weights(["Pullups": 100])
        var pullups = Self.planned("Pullups", reps: 8, rir: 2, count: 2)
        pullups.sets[0].targetWeightKg = 40
        var curl = Self.planned("Dumbbell_Bicep_Curl", reps: 10, rir: 2, count: 1)
        curl.sets[0].targetWeightKg = 300
        let weighed = try await weights.weighed([pullups, curl])
        #expect(weighed.map { $0.sets.map(\.targetWeightKg) } == [[nil, nil], [nil]], "the server's weights, never a model's")
    }

    @Test func aTemplatesExercisesKeepTheirWeightsBroughtToNewReps() async throws {
        let weights = try await Self.weights([:])
        let template = [
            TemplateExercise(
                exerciseId: "Barbell_Squat", name: "Barbell Squat", sets: [TemplateSet(targetReps: 5, targetRir: 2, targetWeightKg: 100)])
        ]
        let same = try await weights.weighed([Self.planned("Barbell_Squat", reps: 5, rir: 2, count: 2)], keeping: template)
        #expect(same[0].sets.map(\.targetWeightKg) == [100, 100], "its last set's weight for a set it did not have")
        // 100 × 5 at RIR 2 is an e1RM of 123.3; 8 at RIR 2 → 92.5 kg.
        let more = try await weights.weighed([Self.planned("Barbell_Squat", reps: 8, rir: 2, count: 1)], keeping: template)
        #expect(more[0].sets.map(\.targetWeightKg) == [92.5])
    }

    @Test func plateWeightsRoundToTheUnitsGridAndRefuseNothing() {
        #expect(WeightUnit.kilograms.plateWeight(nearestKilograms: 61.3) == 62.5)
        #expect(WeightUnit.kilograms.plateWeight(nearestKilograms: 36.9) == 37.5)
        #expect(WeightUnit.kilograms.plateWeight(nearestKilograms: 0.2) == nil)
        #expect(WeightUnit.pounds.plateWeight(nearestKilograms: 61.3) == 61.235, "135 lb")
        #expect(WeightUnit.pounds.plateWeight(nearestKilograms: 20) == 20.412, "44.1 lb → 45 lb on the 2.5 lb grid")
        for value in [Double.nan, .infinity, -.infinity, -5, 0, 1e300] {
            #expect(WeightUnit.kilograms.plateWeight(nearestKilograms: value) == nil)
            #expect(WeightUnit.pounds.plateWeight(nearestKilograms: value) == nil)
        }
    }
}
