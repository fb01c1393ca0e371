import Foundation

/// One catalog exercise (facts only).
public struct Exercise: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var category: String
    @ExplicitNull public var equipment: String?
    @ExplicitNull public var force: String?
    @ExplicitNull public var level: String?
    @ExplicitNull public var mechanic: String?
    public var primaryMuscles: [String]
    public var secondaryMuscles: [String]

    public init(
        id: String, name: String, category: String, equipment: String? = nil, force: String? = nil, level: String? = nil,
        mechanic: String? = nil, primaryMuscles: [String], secondaryMuscles: [String] = []
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.equipment = equipment
        self.force = force
        self.level = level
        self.mechanic = mechanic
        self.primaryMuscles = primaryMuscles
        self.secondaryMuscles = secondaryMuscles
    }

    enum CodingKeys: String, CodingKey {
        case id, name, category, equipment, force, level, mechanic
        case primaryMuscles = "primary_muscles"
        case secondaryMuscles = "secondary_muscles"
    }
}

/// A catalog search: free text (prefix- and typo-tolerant), filters, and a page.
public struct ExerciseQuery: Sendable, Equatable {
    public var text: String?
    /// Matches primary or secondary muscles. Each filter left empty or blank is no filter (as an empty cursor is the
    /// first page): clients that hold a filter as a string send "" for none.
    public var muscle: String?
    public var equipment: String?
    public var category: String?
    public var limit: Int
    /// Opaque, from a previous page's `nextCursor`; nil or empty: the first page.
    public var cursor: String?

    public init(
        text: String? = nil, muscle: String? = nil, equipment: String? = nil, category: String? = nil, limit: Int = 20,
        cursor: String? = nil
    ) {
        self.text = text
        let given = { (filter: String?) in filter.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 } }
        self.muscle = given(muscle)
        self.equipment = given(equipment)
        self.category = given(category)
        self.limit = limit
        self.cursor = cursor
    }
}

/// One page of results, best first, in a stable order.
public struct ExercisePage: Sendable, Equatable {
    public var items: [Exercise]
    public var nextCursor: String?

    public init(items: [Exercise], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// The exercise catalog. Provided by Workouts; used by the coach and the analysts.
public protocol ExerciseCatalog: Sendable {
    /// Exercises matching the query, best match first; ties ordered by name then id, so pages never overlap
    /// or skip, even when the catalog changes between two pages (the next page starts after the last exercise
    /// shown). An empty cursor asks for the first page, as none does. Throws `INVALID_ARGUMENT` for a limit
    /// outside 1…100 or a cursor it did not issue.
    func search(_ query: ExerciseQuery) async throws -> ExercisePage
    /// The exercise with this id, or nil.
    func exercise(id: String) async throws -> Exercise?
}
