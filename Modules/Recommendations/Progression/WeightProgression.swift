import Contracts
import Platform

/// The seed's progression rules (docs/product.md "Progression rules"), computed in whole grams so no rounding of binary
/// fractions can move a result off its grid:
///
/// - above 40 kg: +2.5 %, rounded to the nearest 2.5 kg, at most +5 kg a step (the heaviest grid weight within 5 kg);
/// - at or below 40 kg: +5 %, rounded to the nearest 1.25 kg, at most +5 kg a step;
/// - deload: −10 %, rounded the same way (the grid of the weight it starts from);
/// - never below 0 kg; a weight of 0 (bodyweight) has nothing to progress.
///
/// One addition to the seed: where the rounding would give the weight back unchanged (45 kg +2.5 % is 46.1,
/// nearest 2.5 is 45; 10 kg +5 % is 10.5, nearest 1.25 is 10), the step is one grid unit (47.5, 11.25), as a deload
/// is one grid unit down: otherwise a lift between 40 and 50 kg, or a light dumbbell, could never move.
/// Ties round up (half away from zero).
///
/// A user who reads pounds progresses on a pound grid (`WeightProgression+Pounds.swift`); these kilogram rules are
/// the `unit: .kilograms` case, unchanged.
public enum WeightProgression {
    /// The heaviest step up, in grams.
    static let capGrams = 5_000

    /// The weight after a successful session on the grid of the user's unit, or nil for a weight that cannot
    /// progress (0 or less).
    public static func progressed(_ weightKg: Double, unit: WeightUnit = .kilograms) -> Double? {
        guard weightKg.isFinite, weightKg > 0 else { return nil }
        if unit == .pounds { return Pounds.progressed(weightKg) }
        let grams = Self.grams(weightKg)
        let (perMille, grid) = rule(grams)
        var next = nearest(grams, perMille: 1000 + perMille, grid: grid)
        if next <= grams { next = snappedUp(grams, grid: grid) }
        // The cap on the grid too: the heaviest grid weight at most 5 kg up (for a weight off the grid, 5 kg up is not on it).
        next = min(next, ((grams + capGrams) / grid) * grid)
        return Double(next) / 1000
    }

    /// The weight after a deload (−10 %) on the grid of the user's unit, or nil for a weight that cannot go down
    /// (0 or less).
    public static func deloaded(_ weightKg: Double, unit: WeightUnit = .kilograms) -> Double? {
        guard weightKg.isFinite, weightKg > 0 else { return nil }
        if unit == .pounds { return Pounds.deloaded(weightKg) }
        let grams = Self.grams(weightKg)
        let (_, grid) = rule(grams)
        var next = nearest(grams, perMille: 900, grid: grid)
        if next >= grams { next = snappedDown(grams, grid: grid) }
        return Double(max(0, next)) / 1000
    }

    /// The step (per mille) and the grid (grams) of a weight: above 40 kg, 2.5 % on 2.5 kg; else 5 % on 1.25 kg.
    static func rule(_ grams: Int) -> (perMille: Int, grid: Int) {
        grams > 40_000 ? (perMille: 25, grid: 2_500) : (perMille: 50, grid: 1_250)
    }

    /// `grams × perMille / 1000` to the nearest multiple of `grid` grams, ties up: exact integer arithmetic.
    static func nearest(_ grams: Int, perMille: Int, grid: Int) -> Int {
        let scaledGrid = 1000 * grid
        return ((grams * perMille + scaledGrid / 2) / scaledGrid) * grid
    }

    /// The next grid weight strictly above `grams`.
    static func snappedUp(_ grams: Int, grid: Int) -> Int { (grams / grid + 1) * grid }

    /// The next grid weight strictly below `grams` (not below 0).
    static func snappedDown(_ grams: Int, grid: Int) -> Int { max(0, ((grams - 1) / grid) * grid) }

    static func grams(_ kilograms: Double) -> Int { Int(saturating: (kilograms * 1000).rounded()) }
}
