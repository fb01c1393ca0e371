import Foundation
import Recommendations
import TestSupport
import Testing

/// The seed's progression rules, by example and as properties over the whole weight range.
@Suite struct WeightProgressionTests {
    /// The seed's rule computed independently, in decimal: `weight × factor` to the nearest `grid`, ties up.
    static func reference(_ weight: Double, factor: Decimal, grid: Decimal) -> Decimal {
        let exact = Decimal(string: String(format: "%.3f", weight))! * factor / grid
        var rounded = Decimal()
        var value = exact
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded * grid
    }

    static func decimal(_ value: Double) -> Decimal { Decimal(string: String(format: "%.3f", value))! }

    static func onGrid(_ value: Double, _ grid: Double) -> Bool {
        let units = value / grid
        return abs(units - units.rounded()) < 1e-9
    }

    @Test func examplesFromTheSeedsRules() {
        let progressions: [(Double, Double)] = [
            (100, 102.5),  // +2.5 % = 102.5, on the 2.5 grid
            (60, 62.5),  // 61.5 to the nearest 2.5
            (41, 42.5),  // 42.025 to the nearest 2.5
            (200, 205),  // +5 exactly: the cap
            (300, 305),  // 307.5 capped at +5
            (301, 305),  // 308.525 → 307.5, capped at the heaviest grid weight within 5 kg
            (40, 42.5),  // ≤ 40 kg: +5 % = 42, to the nearest 1.25
            (20, 21.25),
            (45, 47.5),  // 46.125 rounds back to 45: one grid step instead
            (10, 11.25),  // 10.5 rounds back to 10: one grid step instead
            (2.5, 3.75),
        ]
        for (weight, expected) in progressions {
            #expect(WeightProgression.progressed(weight) == expected, "progress \(weight)")
        }
        let deloads: [(Double, Double)] = [
            (100, 90), (102.5, 92.5), (40, 36.25), (20, 17.5), (45, 40), (1.25, 0), (2.5, 1.25),
        ]
        for (weight, expected) in deloads {
            #expect(WeightProgression.deloaded(weight) == expected, "deload \(weight)")
        }
        #expect(WeightProgression.progressed(0) == nil && WeightProgression.deloaded(0) == nil, "bodyweight has nothing to step")
        #expect(WeightProgression.progressed(-5) == nil && WeightProgression.progressed(.nan) == nil)
    }

    /// Every weight from 0.25 to 500 kg in quarter kilograms, and a thousand random ones: up by at most 5 kg and by
    /// something, on the grid of the weight's rule, exactly the seed's rounding whenever that moves the weight
    /// within the cap; down by the seed's rounding, never below 0.
    @Test func propertiesOverTheWholeRange() {
        var generator = SeededRandomNumberGenerator(seed: 39)
        let weights = (1...2000).map { Double($0) * 0.25 } + (0..<1000).map { _ in Double.random(in: 0.01...500, using: &generator) }
        for weight in weights {
            let heavy = (weight * 1000).rounded() > 40_000
            let grid = heavy ? 2.5 : 1.25
            let up = try! #require(WeightProgression.progressed(weight))
            #expect(up > weight && up - weight <= 5 + 1e-9, "\(weight) → \(up)")
            #expect(Self.onGrid(up, grid), "\(weight) → \(up) is on the \(grid) grid")
            let seed = Self.reference(
                weight, factor: heavy ? Decimal(string: "1.025")! : Decimal(string: "1.05")!, grid: Self.decimal(grid))
            if seed > Self.decimal(weight), seed - Self.decimal(weight) <= 5 {
                #expect(Self.decimal(up) == seed, "\(weight): the seed's rule gives \(seed), got \(up)")
            }
            let down = try! #require(WeightProgression.deloaded(weight))
            #expect(down < weight && down >= 0, "\(weight) → \(down)")
            #expect(Self.onGrid(down, grid), "\(weight) deloads to \(down), on the \(grid) grid")
            let seedDown = Self.reference(weight, factor: Decimal(string: "0.9")!, grid: Self.decimal(grid))
            if seedDown < Self.decimal(weight) {
                #expect(Self.decimal(down) == max(0, seedDown), "\(weight): the seed's deload gives \(seedDown), got \(down)")
            }
        }
    }
}
