import Contracts

/// An exercise chosen for a session while the routine is being planned: the catalog exercise and its
/// prescription (which `WeeklyVolume` may still trim).
struct DraftExercise: Sendable, Equatable {
    let exercise: Exercise
    var prescription: SetPrescription

    /// The exercise as the routine plan holds it.
    var planned: PlannedExercise {
        PlannedExercise(exerciseId: exercise.id, sets: prescription.templateSets)
    }
}
