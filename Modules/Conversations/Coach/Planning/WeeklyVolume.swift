import Contracts

/// The week's working sets per major muscle group, and the trim that keeps each group at or under `cap` sets a
/// week (the planner first brings each up towards `floor`: `RoutinePlanner+Volume.swift`).
///
/// A set counts for a group when one of the exercise's primary muscles is in it (once, even for a row whose
/// primary muscles are both the lats and the middle back). Ten to twenty hard sets a muscle a week is the range
/// most lifters grow and get stronger in (Schoenfeld, Ogborn & Krieger 2017, "Dose-response relationship between
/// weekly resistance training volume and increases in muscle mass", J Sports Sci 35(11); Israetel's volume
/// landmarks, *Scientific Principles of Hypertrophy Training*, 2020); a routine of many sessions (seven full-body
/// days, a body-part split that meets the chest twice) would pass twenty, so the trim takes sets away, the session
/// with the most sets of the group first (the later one on a tie): its last exercise of the group goes when the
/// session has another (and more than two exercises), else that exercise loses a set down to two. A session never
/// loses its only exercise of a group, so a week of many short sessions can stay a little over the cap (seven
/// full-body days).
enum WeeklyVolume {
    /// The most sets a week the trim leaves a group when it can.
    static let cap = 20
    /// The fewest sets a week the planner gives a group when the minutes, the equipment and the areas to spare let it.
    static let floor = 10

    /// A major muscle group and the catalog's muscles in it.
    enum Group: String, Sendable, CaseIterable {
        case chest
        case back
        case quadriceps
        /// Hamstrings and glutes, the lower back with them: the hip extensors a hinge, a leg curl and a hip thrust
        /// train (the catalog files the deadlift under the lower back).
        case hamstrings
        case shoulders

        var muscles: Set<String> {
            switch self {
            case .back: ["lats", "middle back"]
            case .hamstrings: ["hamstrings", "glutes", "lower back"]
            default: [rawValue]
            }
        }

        /// The group a slot's movement trains: its first muscle's; nil for arms, calves and core.
        init?(slot: MovementSlot) {
            guard let group = Self.allCases.first(where: { $0.muscles.contains(slot.muscles[0]) }) else { return nil }
            self = group
        }

        /// Whether the exercise's sets count for the group.
        func trains(_ exercise: DraftExercise) -> Bool {
            !muscles.isDisjoint(with: exercise.exercise.primaryMuscles)
        }
    }

    /// The sets a week of each group.
    static func sets(_ sessions: [[DraftExercise]]) -> [Group: Int] {
        Dictionary(uniqueKeysWithValues: Group.allCases.map { group in (group, sets(of: group, in: sessions.joined())) })
    }

    static func sets(of group: Group, in exercises: some Sequence<DraftExercise>) -> Int {
        exercises.filter(group.trains).reduce(0) { $0 + $1.prescription.sets }
    }

    /// Takes sets away until every group is at or under the cap, or nothing more can go.
    static func trim(_ sessions: inout [[DraftExercise]], minimumSets: Int) {
        for group in Group.allCases {
            while sets(of: group, in: sessions.joined()) > cap, trimOne(group, in: &sessions, minimumSets: minimumSets) {}
        }
    }

    /// Takes one exercise or one set of the group away; false when no session can lose any.
    private static func trimOne(_ group: Group, in sessions: inout [[DraftExercise]], minimumSets: Int) -> Bool {
        let order = sessions.indices.sorted { lhs, rhs in
            let (left, right) = (sets(of: group, in: sessions[lhs]), sets(of: group, in: sessions[rhs]))
            return left != right ? left > right : lhs > rhs
        }
        for index in order {
            let trained = sessions[index].indices.filter { group.trains(sessions[index][$0]) }
            guard let last = trained.last else { continue }
            if trained.count > 1 && sessions[index].count > SessionBudget.minimumExercises {
                sessions[index].remove(at: last)
                return true
            }
            if sessions[index][last].prescription.sets > minimumSets {
                sessions[index][last].prescription.sets -= 1
                return true
            }
        }
        return false
    }
}
