import Contracts

/// An exercise chosen for a session while the routine is being planned: the catalog exercise, the slot it fills
/// and its prescription (which `WeeklyVolume` may still change).
struct DraftExercise: Sendable, Equatable {
    let exercise: Exercise
    var prescription: SetPrescription
    /// The movement slot it fills; nil when unknown.
    var slot: MovementSlot? = nil

    /// The exercise as the routine plan holds it: by reps alone for a move with nothing to load.
    var planned: PlannedExercise {
        PlannedExercise(exerciseId: exercise.id, sets: prescription.templateSets(weighted: LiftVariant.isWeighted(exercise)))
    }
}
