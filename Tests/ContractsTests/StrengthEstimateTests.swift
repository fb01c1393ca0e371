import Contracts
import Testing

/// The project's one e1RM rule (Epley, as the API states it), a single included, and its inverse for planning.
@Suite struct StrengthEstimateTests {
    @Test func epleyForEverySetWithAWeightAndReps() {
        #expect(StrengthEstimate.epley(weightKg: 100, reps: 5)?.roundedToTenth == 116.7)
        #expect(StrengthEstimate.epley(weightKg: 100, reps: 1)?.roundedToTenth == 103.3, "a single is Epley too, as the API says")
        for (weight, reps) in [(0.0, 5), (100, 0), (-5, 5), (.nan, 5), (.infinity, 5), (100, -1)] {
            #expect(StrengthEstimate.epley(weightKg: weight, reps: reps) == nil, "\(weight) × \(reps)")
        }
    }

    @Test func repsInReserveCountAsRepsToFailureBothWays() {
        // 100 × 5 at RIR 2 is as hard as 7 to failure: 123.3; that e1RM gives 100 back for 5 at RIR 2.
        let e1rm = StrengthEstimate.e1rm(weightKg: 100, reps: 5, rir: 2)
        #expect(e1rm.roundedToTenth == 123.3)
        #expect(abs(StrengthEstimate.weight(e1rmKg: e1rm, reps: 5, rir: 2) - 100) < 1e-9)
        #expect(StrengthEstimate.weight(e1rmKg: e1rm, reps: 8, rir: 2).roundedToTenth == 92.5)
    }

    @Test func tenthsRoundHalvesAwayFromZero() {
        #expect(33.75.roundedToTenth == 33.8 && (-33.75).roundedToTenth == -33.8 && 0.04.roundedToTenth == 0)
    }
}
