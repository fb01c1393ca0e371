import Contracts

extension RoutinePlanner {
    /// One session of a kind ("a 45-minute push workout"), planned as a routine's first day of that kind is: its
    /// slots filled with the request's equipment, sparing the request's areas as `AreaLoad` says, cut to its minutes.
    /// Throws `FAILED_PRECONDITION` when the catalog has nothing for it.
    func plan(session kind: TrainingDay, request: PlanRequest) async throws -> [DraftExercise] {
        var pool = ExercisePool(
            catalog: catalog, equipment: request.equipment ?? .fullGym, sparing: request.avoid, dislikes: request.dislikes)
        let session = try await self.session(
            PlannedDay(kind: kind, rotation: 0), request: request, budget: SessionBudget(minutes: request.minutes), pool: &pool)
        guard !session.isEmpty else {
            throw ServiceError(.failedPrecondition, "The exercise catalog has nothing for a \(kind.title) session with this equipment.")
        }
        return session
    }
}

extension TrainingDay {
    /// The session kind a named focus asks for ("push workout", "leg day", "upper body").
    init(focus: SessionFocus) {
        switch focus {
        case .push: self = .push
        case .pull: self = .pull
        case .legs: self = .legs
        case .upper: self = .upper
        case .lower: self = .lower
        }
    }
}
