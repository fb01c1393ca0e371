import Contracts
import Platform

extension WeightProgression {
    /// The seed's rules on a pound grid, for a user who reads pounds (`weight_format` `pounds`), computed in whole
    /// hundredths of a pound:
    ///
    /// - above 40 kg (88.18 lb): +2.5 %, rounded to the nearest 5 lb;
    /// - at or below 40 kg ("light": dumbbells, isolation work, a beginner's lifts): +5 %, rounded to the nearest 2.5 lb;
    /// - at most 5 kg (11.02 lb) a step, from the weight as stored: the heaviest grid weight within it, so +10 lb at
    ///   most;
    /// - deload −10 % on the grid of the weight it starts from; one grid unit where the rounding would not move the
    ///   weight; never below 0 — as in kilograms.
    ///
    /// Light is the seed's 40 kg, not a round number of pounds, so which rule applies never depends on the unit. The
    /// result is stored, as every weight is, in kilograms to the gram: 230 lb is 104.326 kg, which reads back as
    /// 230 lb (a gram is 0.0022 lb) and converts back to the same grid weight for the next step.
    enum Pounds {
        /// The heaviest step up, in kilograms (the seed's cap).
        static let capKilograms = 5.0
        /// Above this a lift is heavy, in grams (the seed's 40 kg).
        static let lightGrams = 40_000
        /// The heaviest weight the pound rules take, in kilograms (so the integer arithmetic cannot overflow).
        static let maxKilograms = 100_000.0

        static func progressed(_ weightKg: Double) -> Double? {
            guard weightKg <= maxKilograms else { return nil }
            let pounds = hundredths(weightKg)
            let (perMille, grid) = rule(weightKg)
            var next = WeightProgression.nearest(pounds, perMille: 1000 + perMille, grid: grid)
            if next <= pounds { next = WeightProgression.snappedUp(pounds, grid: grid) }
            let cap = Int(saturating: ((weightKg + capKilograms) / WeightUnit.kilogramsPerPound * 100).rounded(.down))
            next = min(next, (cap / grid) * grid)
            return kilograms(next)
        }

        static func deloaded(_ weightKg: Double) -> Double? {
            guard weightKg <= maxKilograms else { return nil }
            let pounds = hundredths(weightKg)
            let (_, grid) = rule(weightKg)
            var next = WeightProgression.nearest(pounds, perMille: 900, grid: grid)
            if next >= pounds { next = WeightProgression.snappedDown(pounds, grid: grid) }
            return kilograms(max(0, next))
        }

        /// The step (per mille) and the grid (hundredths of a pound): above 40 kg, 2.5 % on 5 lb; else 5 % on 2.5 lb.
        static func rule(_ weightKg: Double) -> (perMille: Int, grid: Int) {
            WeightProgression.grams(weightKg) > lightGrams ? (perMille: 25, grid: 500) : (perMille: 50, grid: 250)
        }

        /// A weight in kilograms as whole hundredths of a pound.
        static func hundredths(_ kilograms: Double) -> Int {
            Int(saturating: (kilograms / WeightUnit.kilogramsPerPound * 100).rounded())
        }

        /// Hundredths of a pound in kilograms, to the gram (as the kilogram rules answer).
        static func kilograms(_ hundredths: Int) -> Double {
            (Double(hundredths) * WeightUnit.kilogramsPerPound * 10).rounded() / 1000
        }
    }
}
