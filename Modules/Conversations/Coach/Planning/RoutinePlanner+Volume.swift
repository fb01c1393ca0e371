/// The week's volume: each major muscle group brought up towards `WeeklyVolume.floor` working sets.
extension RoutinePlanner {
    /// Adds sets to the group furthest under the floor, one step at a time, until every group is at the floor or
    /// cannot gain more: a set more of one of its exercises (up to `SetPrescription.maximumSets`), else a new exercise
    /// of one of its slots, in a session whose kind trains it (the one training it least first, so the week meets it
    /// more often). The step must fit the session's minutes and exercises (a new exercise may be one more than
    /// `SessionBudget` fills a session with, so a short full-body day of three lifts can take a fourth, never more);
    /// to make it fit, it takes sets from the session's other work (`VolumeFitter`): arms, calves and core first (down
    /// to two sets, then the exercise), then the busiest group's (down to two sets, never the exercise), and only when
    /// the week's shortfall under the floor shrinks. So a short week shares its time among the major groups evenly,
    /// and an essential lift (a full-body day's pull) stays.
    func balanceVolume(_ week: inout [PlannedDay], request: PlanRequest, budget: SessionBudget, pool: inout ExercisePool)
        async throws
    {
        var stuck = Set<WeeklyVolume.Group>()
        while true {
            let weekly = WeeklyVolume.sets(week.map(\.exercises))
            let short = WeeklyVolume.Group.allCases.filter { !stuck.contains($0) && weekly[$0, default: 0] < WeeklyVolume.floor }
            guard let group = short.min(by: { weekly[$0, default: 0] < weekly[$1, default: 0] }) else { return }
            if try await addSet(of: group, to: &week, weekly: weekly, request: request, budget: budget, pool: &pool) { continue }
            stuck.insert(group)
        }
    }

    /// One step for the group; false when no session can take one.
    private func addSet(
        of group: WeeklyVolume.Group, to week: inout [PlannedDay], weekly: [WeeklyVolume.Group: Int], request: PlanRequest,
        budget: SessionBudget, pool: inout ExercisePool
    ) async throws -> Bool {
        let trained = { (day: PlannedDay) in WeeklyVolume.sets(of: group, in: day.exercises) }
        let days = week.indices.filter { week[$0].kind.trains(group) }
            .sorted { trained(week[$0]) != trained(week[$1]) ? trained(week[$0]) < trained(week[$1]) : $0 < $1 }
        let fitter = VolumeFitter(budget: budget, weekly: weekly)
        for index in days {
            let day = week[index]
            let positions = day.exercises.indices.filter {
                group.trains(day.exercises[$0]) && day.exercises[$0].prescription.sets < SetPrescription.maximumSets
            }
            for position in positions.sorted(by: { day.exercises[$0].prescription.sets < day.exercises[$1].prescription.sets }) {
                var trial = day.exercises
                trial[position].prescription.sets += 1
                if let fitted = fitter.fit(
                    trial, replacing: day.exercises, keeping: position, exercises: max(budget.exercises, day.exercises.count))
                {
                    week[index].exercises = fitted
                    return true
                }
            }
            let slots = day.kind.slotLists.joined().filter { WeeklyVolume.Group(slot: $0) == group }
            let taken = Set(day.exercises.compactMap(\.slot))
            var tried = Set<MovementSlot>()
            for slot in slots.filter({ !taken.contains($0) }) + slots.filter(taken.contains) where tried.insert(slot).inserted {
                guard let draft = try await draft(slot, day: day, session: day.exercises, goal: request.goal, pool: &pool),
                    group.trains(draft)
                else { continue }
                var trial = day.exercises
                let at = (trial.lastIndex { !VolumeFitter.groups(of: $0).isEmpty } ?? -1) + 1
                trial.insert(draft, at: at)
                if let fitted = fitter.fit(
                    trial, replacing: day.exercises, keeping: at, exercises: max(budget.exercises + 1, day.exercises.count))
                {
                    week[index].exercises = fitted
                    return true
                }
            }
        }
        return false
    }
}

/// Makes room in a session for a step of `RoutinePlanner.balanceVolume`.
struct VolumeFitter {
    let budget: SessionBudget
    /// The week's sets per group before the step.
    let weekly: [WeeklyVolume.Group: Int]

    /// The session with sets taken from its other work until it fits the minutes and at most `exercises` exercises,
    /// the exercise at `keeping` untouched: arms, calves and core first, then the exercise of the group with the most
    /// sets this week; nil when it cannot, or when the step would not shrink the week's shortfall (the squares of each
    /// group's sets under the floor, so a step never moves sets from a group to one with as many).
    func fit(_ session: [DraftExercise], replacing original: [DraftExercise], keeping: Int, exercises: Int) -> [DraftExercise]? {
        var session = session
        var keeping = keeping
        let fewest = SetPrescription.shortSessionSets
        while !budget.fits(session.map(\.prescription)) || session.count > exercises {
            let others = session.indices.reversed().filter { $0 != keeping }
            if let donor = others.first(where: { Self.groups(of: session[$0]).isEmpty }) {
                if session[donor].prescription.sets > fewest && session.count <= exercises {
                    session[donor].prescription.sets -= 1
                } else {
                    session.remove(at: donor)
                    if donor < keeping { keeping -= 1 }
                }
                continue
            }
            let now = week(with: session, replacing: original)
            let busiest = others.filter { session[$0].prescription.sets > fewest }.max { lhs, rhs in
                let (left, right) = (
                    Self.groups(of: session[lhs]).map { now[$0, default: 0] }.min() ?? 0,
                    Self.groups(of: session[rhs]).map { now[$0, default: 0] }.min() ?? 0
                )
                return left != right ? left < right : lhs < rhs
            }
            guard let busiest, session.count <= exercises else { return nil }
            session[busiest].prescription.sets -= 1
        }
        guard session.count >= SessionBudget.minimumExercises else { return nil }
        return Self.shortfall(week(with: session, replacing: original)) < Self.shortfall(weekly) ? session : nil
    }

    /// The week's sets per group with the session in place of the original.
    private func week(with session: [DraftExercise], replacing original: [DraftExercise]) -> [WeeklyVolume.Group: Int] {
        var week = weekly
        for group in WeeklyVolume.Group.allCases {
            week[group, default: 0] += WeeklyVolume.sets(of: group, in: session) - WeeklyVolume.sets(of: group, in: original)
        }
        return week
    }

    /// The sum of the squares of each group's sets under the floor.
    static func shortfall(_ week: [WeeklyVolume.Group: Int]) -> Int {
        week.values.reduce(0) { $0 + max(0, WeeklyVolume.floor - $1) * max(0, WeeklyVolume.floor - $1) }
    }

    /// The major groups an exercise trains: by its primary muscles, or by its slot (a deadlift, whose catalog muscle
    /// is the lower back, is a day's hinge, never arms-and-core work to take time from).
    static func groups(of exercise: DraftExercise) -> [WeeklyVolume.Group] {
        WeeklyVolume.Group.allCases.filter { $0.trains(exercise) || exercise.slot.flatMap(WeeklyVolume.Group.init(slot:)) == $0 }
    }
}
