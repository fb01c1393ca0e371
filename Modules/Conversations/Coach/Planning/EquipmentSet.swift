/// What a user has to train with: a full gym, or a few kinds of equipment.
///
/// The body is always there, so a set of kinds always holds `.bodyOnly`: `EquipmentSet([.dumbbell])` is
/// dumbbells and bodyweight moves. A set is strict: a dumbbell plan never holds a barbell, machine, cable,
/// bench-only ("other") or e-z bar exercise. A catalog exercise with no equipment given counts as bodyweight (in
/// the free-exercise-db the strength moves without one are the bodyweight lunge, inverted row, decline push-up and
/// the like). Moves that hang from a bar (pull-ups, chin-ups, hanging leg raises, inverted rows, dips) need one:
/// a gym has them, a home has them when `pullUpBar` says so (`EquipmentSet+Bars.swift`).
public struct EquipmentSet: Sendable, Hashable {
    /// The kinds a user can name, with the catalog's equipment values as raw values.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case barbell
        case dumbbell
        case kettlebells
        case cable
        case machine
        case bands
        case bodyOnly = "body only"

        /// The kind as a routine's name shows it.
        var label: String {
            switch self {
            case .barbell: "barbell"
            case .dumbbell: "dumbbells"
            case .kettlebells: "kettlebells"
            case .cable: "cables"
            case .machine: "machines"
            case .bands: "bands"
            case .bodyOnly: "bodyweight"
            }
        }
    }

    /// The kinds available, `.bodyOnly` among them; nil for a full gym (everything in the catalog).
    public let kinds: Set<Kind>?
    /// Whether there is a bar to hang from (a pull-up bar, a dip station); always for a full gym.
    public let pullUpBar: Bool

    /// A few kinds of equipment, with bodyweight added, and a pull-up bar or not.
    public init(_ kinds: Set<Kind>, pullUpBar: Bool = false) {
        self.kinds = kinds.union([.bodyOnly])
        self.pullUpBar = pullUpBar
    }

    private init(fullGym: Void) {
        kinds = nil
        pullUpBar = true
    }

    /// A commercial gym: every exercise of the catalog is possible.
    public static let fullGym = EquipmentSet(fullGym: ())

    /// Nothing but the body.
    public static let bodyOnly = EquipmentSet([])

    /// Whether this is a full gym.
    public var isFullGym: Bool { kinds == nil }

    /// Whether an exercise with this catalog equipment value can be done with this equipment.
    public func allows(catalogEquipment: String?) -> Bool {
        guard let kinds else { return true }
        guard let catalogEquipment else { return true }
        return kinds.contains { $0.rawValue == catalogEquipment }
    }

    /// The catalog equipment values to search for a movement with this equipment, in the kinds' order; nil
    /// for a full gym (search without an equipment filter).
    var catalogValues: [String]? {
        kinds.map { kinds in Kind.allCases.filter(kinds.contains).map(\.rawValue) }
    }

    /// The equipment as a routine's name shows it: "full gym", "bodyweight", "dumbbells", "barbell and dumbbells",
    /// "dumbbells and pull-up bar".
    public var label: String {
        guard let kinds else { return "full gym" }
        let named = Kind.allCases.filter { $0 != .bodyOnly && kinds.contains($0) }.map(\.label) + (pullUpBar ? ["pull-up bar"] : [])
        switch named.count {
        case 0: return Kind.bodyOnly.label
        case 1: return named[0]
        default: return named.dropLast().joined(separator: ", ") + " and " + named[named.count - 1]
        }
    }
}
