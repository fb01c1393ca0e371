import Contracts
import Foundation

/// The training facts a user told the coach, kept for every later conversation (erased with the account: docs/product.md):
/// what they train with, how often and how long, what for, how experienced they are, what to spare and what they
/// dislike. Each fact is optional; the user sees them (`getCoachMemory`), changes or forgets them
/// (`updateCoachMemory`), and they go with the account.
public struct CoachMemory: Codable, Sendable, Equatable {
    /// `full_gym`, or the kinds the user has (`barbell`, `dumbbell`, `kettlebells`, `cable`, `machine`, `bands`,
    /// `bodyweight`).
    public var equipment: [String]?
    /// Training days a week, 1–7.
    public var days: Int?
    /// The longest session, 10–240 minutes.
    public var sessionMinutes: Int?
    /// `strength`, `hypertrophy`, `endurance` or `general`.
    public var goal: String?
    /// `beginner`, `intermediate` or `advanced`.
    public var experience: String?
    /// Body areas to spare ("knees", "lower back", "shoulders"), at most `maxItems`.
    public var injuries: [String]?
    /// Exercises the user does not want, in their words, at most `maxItems`.
    public var dislikes: [String]?
    /// When a fact last changed; nil while nothing is kept.
    public var updatedAt: Date?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case equipment, days, goal, experience, injuries, dislikes
        case sessionMinutes = "session_minutes"
        case updatedAt = "updated_at"
    }

    /// The facts a user can name, as the API names them.
    public enum Fact: String, Codable, Sendable, CaseIterable {
        case equipment, days, goal, experience, injuries, dislikes
        case sessionMinutes = "session_minutes"
    }

    static let equipmentValues = ["full_gym"] + EquipmentSet.Kind.allCases.map(\.apiName)
    static let goals = PlanRequest.Goal.allCases.map(\.rawValue)
    static let experiences = ["beginner", "intermediate", "advanced"]
    /// Entries of a list fact, and characters of an entry.
    static let maxItems = 10
    static let maxItemLength = 60

    /// Whether no fact is kept.
    public var isEmpty: Bool { with(updatedAt: nil) == CoachMemory() }

    func with(updatedAt: Date?) -> CoachMemory {
        var copy = self
        copy.updatedAt = updatedAt
        return copy
    }

    /// The facts `changes` names replace these; `forget` clears the named facts. Throws `INVALID_ARGUMENT` naming
    /// the field for a value out of range, so nothing half-changes.
    func applying(_ changes: CoachMemory, forgetting forget: [Fact]) throws -> CoachMemory {
        try changes.check()
        var next = self
        if let value = changes.equipment { next.equipment = value }
        if let value = changes.days { next.days = value }
        if let value = changes.sessionMinutes { next.sessionMinutes = value }
        if let value = changes.goal { next.goal = value }
        if let value = changes.experience { next.experience = value }
        if let value = changes.injuries { next.injuries = value }
        if let value = changes.dislikes { next.dislikes = value }
        for fact in forget {
            switch fact {
            case .equipment: next.equipment = nil
            case .days: next.days = nil
            case .sessionMinutes: next.sessionMinutes = nil
            case .goal: next.goal = nil
            case .experience: next.experience = nil
            case .injuries: next.injuries = nil
            case .dislikes: next.dislikes = nil
            }
        }
        return next
    }

    /// Every fact within its range; `INVALID_ARGUMENT` naming the first that is not.
    func check() throws {
        if let equipment {
            guard !equipment.isEmpty, equipment.count <= Self.equipmentValues.count,
                equipment.allSatisfy(Self.equipmentValues.contains)
            else {
                throw ServiceError.invalidArgument(
                    field: "equipment", reason: "must name some of \(Self.equipmentValues.joined(separator: ", "))")
            }
        }
        if let days, !(1...7).contains(days) { throw ServiceError.invalidArgument(field: "days", reason: "must be from 1 to 7") }
        if let sessionMinutes, !(10...240).contains(sessionMinutes) {
            throw ServiceError.invalidArgument(field: "session_minutes", reason: "must be from 10 to 240")
        }
        if let goal, !Self.goals.contains(goal) {
            throw ServiceError.invalidArgument(field: "goal", reason: "must be one of \(Self.goals.joined(separator: ", "))")
        }
        if let experience, !Self.experiences.contains(experience) {
            throw ServiceError.invalidArgument(field: "experience", reason: "must be one of \(Self.experiences.joined(separator: ", "))")
        }
        for (field, list) in [("injuries", injuries), ("dislikes", dislikes)] {
            guard let list else { continue }
            guard list.count <= Self.maxItems,
                list.allSatisfy({
                    !$0.trimmingCharacters(in: .whitespaces).isEmpty && $0.count <= Self.maxItemLength && !$0.utf8.contains(0)
                })
            else {
                throw ServiceError.invalidArgument(
                    field: field, reason: "at most \(Self.maxItems) entries of 1 to \(Self.maxItemLength) characters")
            }
        }
    }

    /// The equipment as the planner takes it.
    var equipmentSet: EquipmentSet? {
        guard let equipment, !equipment.isEmpty else { return nil }
        if equipment.contains("full_gym") { return .fullGym }
        return EquipmentSet(Set(equipment.compactMap { name in EquipmentSet.Kind.allCases.first { $0.apiName == name } }))
    }

    /// The equipment as memory keeps it.
    static func equipment(_ set: EquipmentSet) -> [String] {
        guard let kinds = set.kinds else { return ["full_gym"] }
        return EquipmentSet.Kind.allCases.filter(kinds.contains).map(\.apiName)
    }

    /// The facts as lines a person (or a model) reads: "Equipment: dumbbell, bodyweight".
    public var lines: [String] {
        var lines: [String] = []
        if let equipment { lines.append("Equipment: \(equipment.joined(separator: ", "))") }
        if let days { lines.append("Training days a week: \(days)") }
        if let sessionMinutes { lines.append("Longest session: \(sessionMinutes) minutes") }
        if let goal { lines.append("Goal: \(goal)") }
        if let experience { lines.append("Experience: \(experience)") }
        if let injuries, !injuries.isEmpty { lines.append("Areas to spare: \(injuries.joined(separator: ", "))") }
        if let dislikes, !dislikes.isEmpty { lines.append("Does not want: \(dislikes.joined(separator: ", "))") }
        return lines
    }
}

extension EquipmentSet.Kind {
    /// The kind as memory and the API name it.
    var apiName: String { self == .bodyOnly ? "bodyweight" : rawValue }
}
