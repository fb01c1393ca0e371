import Contracts

/// A catalog that remembers each answer of the one it wraps. The property tests plan well over a thousand
/// routines, each reading a few hundred ids and running a few searches, and `FakeExerciseCatalog` scans its 873
/// exercises (folding every name and muscle) on every call; the answers are the fake's, only computed once.
actor MemoizingCatalog: ExerciseCatalog {
    private let catalog: any ExerciseCatalog
    private var exercises: [String: Exercise?] = [:]
    private var pages: [String: ExercisePage] = [:]

    init(_ catalog: any ExerciseCatalog) {
        self.catalog = catalog
    }

    func search(_ query: ExerciseQuery) async throws -> ExercisePage {
        let key = String(describing: query)
        if let page = pages[key] { return page }
        let page = try await catalog.search(query)
        pages[key] = page
        return page
    }

    func exercise(id: String) async throws -> Exercise? {
        if let known = exercises[id] { return known }
        let exercise = try await catalog.exercise(id: id)
        exercises[id] = .some(exercise)
        return exercise
    }
}
