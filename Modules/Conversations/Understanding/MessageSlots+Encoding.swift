import Foundation

/// The slots written as the phrasing table writes them: `key=value` pairs separated by `;`, lists comma-separated
/// ("days=3; split=full_body; equipment=dumbbell; without=barbell"). The keys and values are listed in the table's
/// header and in docs/coach.md.
extension MessageSlots {
    /// A table's slot text that names an unknown key or value, or repeats a key.
    public struct EncodingError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The slots written in the table's notation; "" for none.
    public init(encoded: String) throws {
        self.init()
        var seen = Set<String>()
        for pair in encoded.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty, seen.insert(parts[0]).inserted else {
                throw EncodingError(description: "bad or repeated slot \"\(pair)\"")
            }
            try set(parts[0], to: parts[1])
        }
    }

    private mutating func set(_ key: String, to value: String) throws {
        let list = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        func fail() -> EncodingError { EncodingError(description: "bad value \"\(value)\" for \(key)") }
        func one<T>(_ make: (String) -> T?) throws -> T {
            guard let made = make(value) else { throw fail() }
            return made
        }
        func each<T>(_ make: (String) -> T?) throws -> [T] {
            try list.map { item in
                guard let made = make(item) else { throw fail() }
                return made
            }
        }
        switch key {
        case "days": days = try one { Int($0) }
        case "split": split = try one { Self.splitNames[$0] }
        case "program": program = try one(NamedProgram.init(rawValue:))
        case "minutes": minutes = try one { Int($0) }
        case "focus": focus = try one(SessionFocus.init(rawValue:))
        case "equipment":
            if value == "gym" {
                equipment = .fullGym
            } else {
                equipment = EquipmentSet(Set(try each { Self.kindNames[$0] }))
            }
        case "without": withoutEquipment = Set(try each { Self.kindNames[$0] })
        case "goal": goal = try one(PlanRequest.Goal.init(rawValue:))
        case "experience": experience = try one(Experience.init(rawValue:))
        case "exercises": exercises = list
        case "muscles": muscles = try each(MuscleGroup.init(rawValue:))
        case "spare": spare = try each(BodyArea.init(rawValue:))
        case "time": time = try one(TimeReference.init(encoded:))
        case "swap":
            let sides = value.split(separator: ">", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard sides.count == 2 else { throw fail() }
            swap = SwapTarget(from: sides[0].isEmpty ? nil : sides[0], to: sides[1].isEmpty ? nil : sides[1])
        case "edit": edit = try one(RoutineEdit.init(rawValue:))
        default: throw EncodingError(description: "unknown slot \"\(key)\"")
        }
    }

    /// The slots in the table's notation, keys in a fixed order; "" for none.
    public var encoded: String {
        var pairs: [String] = []
        func add(_ key: String, _ value: String?) {
            if let value { pairs.append("\(key)=\(value)") }
        }
        add("days", days.map(String.init))
        add("split", split.flatMap { split in Self.splitNames.first { $0.value == split }?.key })
        add("program", program?.rawValue)
        add("minutes", minutes.map(String.init))
        add("focus", focus?.rawValue)
        add("equipment", equipment.map(Self.name(of:)))
        add("without", withoutEquipment.isEmpty ? nil : Self.names(of: withoutEquipment))
        add("goal", goal?.rawValue)
        add("experience", experience?.rawValue)
        add("exercises", exercises.isEmpty ? nil : exercises.joined(separator: ","))
        add("muscles", muscles.isEmpty ? nil : muscles.map(\.rawValue).joined(separator: ","))
        add("spare", spare.isEmpty ? nil : spare.map(\.rawValue).joined(separator: ","))
        add("time", time?.encoded)
        add("swap", swap.map { "\($0.from ?? "")>\($0.to ?? "")" })
        add("edit", edit?.rawValue)
        return pairs.joined(separator: "; ")
    }

    static let splitNames: [String: PlanRequest.Split] = [
        "full_body": .fullBody, "upper_lower": .upperLower, "ppl": .pushPullLegs, "ulppl": .upperLowerPushPullLegs,
        "body_part": .bodyPart,
    ]
    static let kindNames: [String: EquipmentSet.Kind] = [
        "barbell": .barbell, "dumbbell": .dumbbell, "kettlebell": .kettlebells, "cable": .cable, "machine": .machine,
        "band": .bands, "bodyweight": .bodyOnly,
    ]

    static func names(of kinds: Set<EquipmentSet.Kind>) -> String {
        EquipmentSet.Kind.allCases.filter(kinds.contains).compactMap { kind in kindNames.first { $0.value == kind }?.key }
            .joined(separator: ",")
    }

    static func name(of equipment: EquipmentSet) -> String {
        guard let kinds = equipment.kinds else { return "gym" }
        let named = kinds.subtracting([.bodyOnly])
        return names(of: named.isEmpty ? [.bodyOnly] : named)
    }
}

extension TimeReference {
    /// The table's notation: "today", "last_week", "past_weeks:6".
    public var encoded: String {
        switch self {
        case .today: "today"
        case .tomorrow: "tomorrow"
        case .yesterday: "yesterday"
        case .recent: "recent"
        case .thisWeek: "this_week"
        case .lastWeek: "last_week"
        case .thisMonth: "this_month"
        case .lastMonth: "last_month"
        case .thisYear: "this_year"
        case .lastYear: "last_year"
        case .pastDays(let count): "past_days:\(count)"
        case .pastWeeks(let count): "past_weeks:\(count)"
        case .pastMonths(let count): "past_months:\(count)"
        }
    }

    /// The reference the table's notation names, or nil.
    public init?(encoded: String) {
        let simple: [String: TimeReference] = [
            "today": .today, "tomorrow": .tomorrow, "yesterday": .yesterday, "recent": .recent, "this_week": .thisWeek,
            "last_week": .lastWeek, "this_month": .thisMonth, "last_month": .lastMonth, "this_year": .thisYear,
            "last_year": .lastYear,
        ]
        if let found = simple[encoded] {
            self = found
            return
        }
        let parts = encoded.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[1]), count > 0 else { return nil }
        switch parts[0] {
        case "past_days": self = .pastDays(count)
        case "past_weeks": self = .pastWeeks(count)
        case "past_months": self = .pastMonths(count)
        default: return nil
        }
    }
}
