import Foundation

extension WeightUnit {
    /// The heaviest weight that is "light", in kilograms (the analyst's 40 kg, docs/recommendations.md): at or below it the grid is finer, in both
    /// units, so which grid applies never depends on the unit.
    public static let lightKilograms = 40.0

    /// The plate grid a weight is rounded to in this unit, in this unit: kilograms 2.5 (1.25 at or below 40 kg),
    /// pounds 5 (2.5 at or below 40 kg) — the grids the progression rules step on.
    public func plateStep(forKilograms kilograms: Double) -> Double {
        let light = kilograms <= Self.lightKilograms
        switch self {
        case .kilograms: return light ? 1.25 : 2.5
        case .pounds: return light ? 2.5 : 5
        }
    }

    /// A weight in kilograms rounded to the nearest weight of this unit's plate grid (ties up), in kilograms: to the
    /// gram for pounds (135 lb is 61.235 kg, which reads back as 135 lb), exactly for kilograms. Nil when it rounds to
    /// nothing (0 or less, or not a number).
    public func plateWeight(nearestKilograms kilograms: Double) -> Double? {
        guard kilograms.isFinite, kilograms > 0, kilograms <= 100_000 else { return nil }
        let step = plateStep(forKilograms: kilograms)
        let steps = (amount(ofKilograms: kilograms) / step + 0.5).rounded(.down)
        guard steps >= 1 else { return nil }
        let rounded = self.kilograms(steps * step)
        return self == .pounds ? (rounded * 1000).rounded() / 1000 : rounded
    }
}
