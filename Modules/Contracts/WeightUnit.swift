import Foundation

/// The unit a person reads and types weights in: the account's `weight_format`. The API's numbers are kilograms
/// whatever the unit (`weight_kg`, `target_weight_kg`); every text a person reads gives weights in their unit, and a
/// bare number a person types ("8 @ 225") is in their unit.
public enum WeightUnit: String, Sendable, Codable, CaseIterable {
    case kilograms
    case pounds

    /// The international pound, exactly.
    public static let kilogramsPerPound = 0.45359237

    /// The unit of an account's `weight_format` as Auth stores it (`kilograms` or `pounds`; `lb` and `lbs` read as
    /// pounds too); anything else, or none chosen, is kilograms.
    public init(weightFormat: String?) {
        switch weightFormat?.lowercased() {
        case "pounds", "lbs", "lb": self = .pounds
        default: self = .kilograms
        }
    }

    /// `kg` or `lb`, as a weight is written after its number.
    public var symbol: String {
        switch self {
        case .kilograms: "kg"
        case .pounds: "lb"
        }
    }

    /// A weight given in this unit, in kilograms (not rounded).
    public func kilograms(_ value: Double) -> Double {
        switch self {
        case .kilograms: value
        case .pounds: value * Self.kilogramsPerPound
        }
    }

    /// A weight in kilograms, in this unit (not rounded).
    public func amount(ofKilograms kilograms: Double) -> Double {
        switch self {
        case .kilograms: kilograms
        case .pounds: kilograms / Self.kilogramsPerPound
        }
    }

    /// A weight in kilograms as a person reads it in this unit: to one decimal (ties away from zero), without a
    /// trailing `.0`, then the symbol: "102.5 kg", "225 lb". A pound weight stored as kilograms to the gram or to
    /// the hundredth (225 lb as 102.06 kg) reads back as the pounds it was (225 lb).
    public func text(kilograms: Double) -> String {
        "\(Self.oneDecimal(amount(ofKilograms: kilograms))) \(symbol)"
    }

    /// One decimal, without a trailing `.0`: "102.5", "225".
    public static func oneDecimal(_ value: Double) -> String {
        let rounded = value.roundedToTenth
        return Int(exactly: rounded).map { "\($0)" } ?? "\(rounded)"
    }
}

extension AccountSummary {
    /// The unit the user reads and types weights in.
    public var weightUnit: WeightUnit { WeightUnit(weightFormat: weightFormat) }
}
