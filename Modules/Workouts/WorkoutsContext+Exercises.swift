import Contracts
import Foundation

extension WorkoutsContext {
    /// Every referenced exercise, or `INVALID_ARGUMENT` naming the first unknown one.
    func exercises(_ ids: [(field: String, id: String)]) async throws -> [String: Exercise] {
        let found = try await catalog.exercises(ids: ids.map(\.id))
        for reference in ids where found[reference.id] == nil {
            throw Self.unknownExercise(field: reference.field, id: reference.id)
        }
        return found
    }

    static func unknownExercise(field: String, id: String) -> ServiceError {
        ServiceError.invalidArgument(field: field, reason: Self.unknownExerciseReason, message: "There is no exercise with id '\(id)'.")
    }

    static let unknownExerciseReason = "unknown exercise"

    /// Runs `lookup` (which checks the catalog for the exercises a change names, before the transaction), keeping
    /// an unknown exercise back instead of throwing it: the write reports it once the document it changes is found,
    /// so another user's document is `NOT_FOUND` whatever the body names. Any other refusal is thrown at once.
    static func deferringUnknownExercise<T>(_ lookup: () async throws -> T) async throws -> Result<T, ServiceError> {
        do {
            return .success(try await lookup())
        } catch let error as ServiceError where error.code == .invalidArgument && error.details["reason"] == unknownExerciseReason {
            return .failure(error)
        }
    }
}
