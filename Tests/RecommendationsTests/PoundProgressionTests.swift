import Contracts
import Foundation
import Recommendations
import TestSupport
import Testing

/// The progression rules for a user who reads pounds: the seed's percentages and cap on a 5 lb grid (2.5 lb at or
/// below 40 kg), stored in kilograms that read back as the grid weight.
@Suite struct PoundProgressionTests {
    static let pound = WeightUnit.kilogramsPerPound

    /// The kilograms a pound weight is stored as: to the gram, as the progression answers.
    static func stored(_ pounds: Double) -> Double { (pounds * pound * 1000).rounded() / 1000 }

    /// The weight in hundredths of a pound, as the user reads it.
    static func hundredths(_ kilograms: Double) -> Int { Int((kilograms / pound * 100).rounded()) }

    @Test func examplesOnThePoundGrid() {
        let progressions: [(Double, Double)] = [
            (225, 230),  // +2.5 % = 230.6, nearest 5
            (100, 105),  // 102.5: a tie rounds up
            (90, 95),  // 92.25 rounds back to 90: one grid step instead
            (400, 410),  // 410 exactly
            (500, 510),  // 512.5 → 515, capped at the heaviest 5 lb step within 5 kg (11.02 lb)
            (88, 92.5),  // ≤ 40 kg (88.18 lb): +5 % = 92.4, nearest 2.5
            (45, 47.5),  // 47.25, nearest 2.5
            (20, 22.5),  // 21 rounds back to 20: one step of 2.5
        ]
        for (pounds, expected) in progressions {
            let up = WeightProgression.progressed(pounds * Self.pound, unit: .pounds)
            #expect(up == Self.stored(expected), "\(pounds) lb → \(expected) lb")
            #expect(up.map { WeightUnit.pounds.text(kilograms: $0) } == "\(WeightUnit.oneDecimal(expected)) lb")
        }
        // From the kilograms the fast lane stores for "225" (102.06 kg): 230 lb, stored as 104.326 kg.
        #expect(WeightProgression.progressed(102.06, unit: .pounds) == 104.326)
        #expect(WeightUnit.pounds.text(kilograms: 104.326) == "230 lb")
        let deloads: [(Double, Double)] = [(225, 205), (230, 205), (45, 40), (20, 17.5), (5, 2.5), (2.5, 0)]
        for (pounds, expected) in deloads {
            #expect(WeightProgression.deloaded(pounds * Self.pound, unit: .pounds) == Self.stored(expected), "\(pounds) lb deloads")
        }
        #expect(WeightProgression.progressed(0, unit: .pounds) == nil && WeightProgression.deloaded(-1, unit: .pounds) == nil)
        #expect(WeightProgression.progressed(.infinity, unit: .pounds) == nil && WeightProgression.progressed(1e300, unit: .pounds) == nil)
        // A kilogram user's weights are the seed's, as before.
        #expect(WeightProgression.progressed(100, unit: .kilograms) == 102.5 && WeightProgression.progressed(100) == 102.5)
    }

    /// Every weight from 0.25 to 1,000 lb in quarter pounds, every kilogram weight from 0.25 to 450 kg in quarters,
    /// and a thousand random ones: a step up lands on the 5 lb grid (2.5 lb at or below 40 kg) as the user reads it,
    /// goes up by something and by at most the seed's 5 kg, is exactly the seed's rounding in pounds whenever that
    /// moves the weight within the cap, and reads back as the same grid weight for the next step; a deload lands on
    /// the grid too, below the weight and not below 0.
    @Test func propertiesOverTheWholeRange() {
        var generator = SeededRandomNumberGenerator(seed: 43)
        let inPounds: [Double] = (1...4000).map { Double($0) * 0.25 * Self.pound }
        let inKilograms: [Double] = (1...1800).map { Double($0) * 0.25 }
        let random: [Double] = (0..<1000).map { _ in Double.random(in: 0.01...450, using: &generator) }
        let weights = inPounds + inKilograms + random
        for weight in weights {
            let light = (weight * 1000).rounded() <= 40_000
            let grid = light ? 250 : 500
            let up = try! #require(WeightProgression.progressed(weight, unit: .pounds))
            let upHundredths = Self.hundredths(up)
            #expect(upHundredths % grid == 0, "\(weight) kg → \(up) kg = \(Double(upHundredths) / 100) lb, on the \(grid / 100) lb grid")
            #expect(abs(up / Self.pound * 100 - Double(upHundredths)) < 0.25, "\(up) kg is its grid weight to the gram")
            #expect(up == Self.stored(Double(upHundredths) / 100), "stored as the grid weight's kilograms")
            #expect(WeightUnit.pounds.text(kilograms: up) == "\(WeightUnit.oneDecimal(Double(upHundredths) / 100)) lb")
            let step: Double = up - weight
            #expect(up > weight && step <= 5.0005, "\(weight) → \(up): up, by at most 5 kg")
            let from = Self.hundredths(weight)
            let seed = PoundProgressionTests.nearest(Decimal(from) * Decimal(string: light ? "1.05" : "1.025")!, grid: grid)
            // Within the cap with a margin for the input's rounding to hundredths (5 kg is 1,102.3 hundredths).
            if seed > Decimal(from), seed - Decimal(from) <= 1100 {
                #expect(Decimal(upHundredths) == seed, "\(Double(from) / 100) lb: the seed's rule gives \(seed), got \(upHundredths)")
            }
            let down = try! #require(WeightProgression.deloaded(weight, unit: .pounds))
            #expect(Self.hundredths(down) % grid == 0 && down < weight && down >= 0, "\(weight) deloads to \(down)")
            // The next step starts from the grid weight, not from something just below it.
            if let again = WeightProgression.progressed(up, unit: .pounds) {
                #expect(Self.hundredths(again) % 250 == 0 && again > up)
            }
        }
    }

    /// `value` (hundredths of a pound) to the nearest multiple of `grid`, ties up, in decimal.
    static func nearest(_ value: Decimal, grid: Int) -> Decimal {
        var units = value / Decimal(grid)
        var rounded = Decimal()
        NSDecimalRound(&rounded, &units, 0, .plain)
        return rounded * Decimal(grid)
    }
}
