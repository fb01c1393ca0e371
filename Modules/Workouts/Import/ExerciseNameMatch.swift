import Contracts
import Foundation

/// Matches an exercise name from another app's export to the catalog, refusing to guess: the catalog id itself,
/// else the catalog's resolver (the alias table of names Strong and Hevy export, then a search hit only when it is
/// sure; see `CatalogIndex.resolve(exportedName:)`). Anything else is unmatched and reported to the user.
struct ExerciseNameMatch: Sendable {
    let catalog: SQLExerciseCatalog

    func id(for name: String) async throws -> String? {
        if let exact = try await catalog.exercise(id: name) { return exact.id }
        return try await catalog.resolveExerciseName(name)?.id
    }
}
