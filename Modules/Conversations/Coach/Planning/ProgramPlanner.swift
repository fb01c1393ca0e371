import Contracts

/// Builds a named program (`NamedProgram`) as its author wrote it (`ProgramLibrary`): its sessions, lifts, sets and
/// reps, run `days` a week (the program's own by default: the sessions are trained in turn, so StrongLifts' two
/// workouts alternate over three days). A lift the equipment does not allow is replaced by the first exercise of
/// its movement the equipment does (`ExercisePool`: a dumbbell squat for the back squat), and the description says
/// so.
struct ProgramPlanner {
    let catalog: any ExerciseCatalog

    /// The routine, and each lift replaced for the equipment (the program's exercise, the one in its place).
    func plan(_ program: NamedProgram, days: Int?, equipment: EquipmentSet) async throws -> (
        plan: RoutinePlan, replaced: [(from: String, to: String)]
    ) {
        var pool = ExercisePool(catalog: catalog, equipment: equipment)
        var templates: [TemplatePlan] = []
        var replaced: [(from: String, to: String)] = []
        for session in ProgramLibrary.sessions(program) {
            var used = Set<String>()
            var exercises: [PlannedExercise] = []
            for lift in session.lifts {
                var chosen = try await catalog.exercise(id: lift.id)
                if let written = chosen, !equipment.allows(catalogEquipment: written.equipment) || used.contains(written.id) {
                    chosen = try await pool.pick(lift.slot, rotation: 0, excluding: used)
                    if let chosen, !replaced.contains(where: { $0.from == written.name }) { replaced.append((written.name, chosen.name)) }
                } else if chosen == nil {
                    chosen = try await pool.pick(lift.slot, rotation: 0, excluding: used)
                }
                guard let chosen else { continue }
                exercises.append(PlannedExercise(exerciseId: chosen.id, sets: lift.sets))
                used.insert(chosen.id)
            }
            guard !exercises.isEmpty else {
                throw ServiceError(
                    .failedPrecondition, "The exercise catalog has nothing for \(program.title) \(session.name) with this equipment.")
            }
            templates.append(TemplatePlan(name: session.name, exercises: exercises))
        }
        let frequency = min(max(days ?? program.days, 1), 7)
        var description = [program.scheme]
        if frequency != program.days {
            description.append("Written for \(program.days) days a week; at \(frequency), train the sessions in turn.")
        } else if templates.count != frequency {
            description.append("Train the sessions in turn, \(frequency) days a week.")
        }
        if !replaced.isEmpty {
            description.append(
                "With \(equipment.label): " + replaced.map { "\($0.to) in place of \($0.from)" }.joined(separator: ", ") + ".")
        }
        description.append("Start light, with 2–3 reps to spare: the steady additions do the work.")
        let name = equipment.isFullGym ? program.title : "\(program.title) (\(equipment.label))"
        return (
            RoutinePlan(name: name, description: description.joined(separator: " "), frequency: frequency, templates: templates), replaced
        )
    }
}
