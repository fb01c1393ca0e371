import Contracts

/// Plans a training routine from a `PlanRequest` and the exercise catalog, with no model and no randomness: the
/// same request and catalog always give the same routine.
///
/// 1. The split: the one asked for, or one chosen from the days (`SplitSchedule`).
/// 2. Each day: its kind's slots (`TrainingDay`), each filled from the slot's curated catalog ids the equipment
///    allows (`ExercisePool`: no expert move, no move hanging from a bar the user lacks, none loading an area the
///    user asked to spare, by `AreaLoad`'s table; a slot left empty by the sparing takes one of the table's
///    alternatives), rotating through them so "Upper B" differs from "Upper A", never one exercise twice in a day.
///    The day's first slots (`TrainingDay.essentials`: a full-body day's lower-body lift, push and pull) are always
///    kept, with fewer sets when the minutes are short; the others while the session's estimated minutes
///    (`SessionBudget`, `SessionDurationEstimate`) fit the minutes asked for. A day left with fewer than two
///    exercises is topped up from its kind's backup slots.
/// 3. Sets, reps and RIR by goal and role (`SetPrescription`); then the week's sets per major muscle group are
///    brought up towards ten (`RoutinePlanner+Volume.swift`) and trimmed to about twenty (`WeeklyVolume`).
/// 4. The name ("4-day Upper/Lower (dumbbells)") and a description of the goal, the order of the days and
///    their length.
public struct RoutinePlanner: Sendable {
    public let catalog: any ExerciseCatalog

    public init(catalog: any ExerciseCatalog) {
        self.catalog = catalog
    }

    /// The routine for the request: one template per training day, `frequency` the days a week. Throws
    /// `INVALID_ARGUMENT` when the days (named or implied by the split) are unknown or outside 1…7, or the
    /// equipment is unknown (ask first: `PlanQuestions.missing(_:)`); `FAILED_PRECONDITION` when the catalog has
    /// no exercise at all for one of the days; and what the catalog throws.
    public func plan(_ request: PlanRequest) async throws -> RoutinePlan {
        guard let days = request.plannedDays, (1...7).contains(days) else {
            throw ServiceError.invalidArgument(field: "days", reason: "must be from 1 to 7")
        }
        guard let equipment = request.equipment else {
            throw ServiceError.invalidArgument(field: "equipment", reason: "is required")
        }
        var schedule = SplitSchedule(requested: request.split, days: days)
        let budget = SessionBudget(minutes: request.minutes)
        var pool = ExercisePool(catalog: catalog, equipment: equipment, sparing: request.avoid, dislikes: request.dislikes)
        var planned = try await self.week(schedule, request: request, budget: budget, pool: &pool, fewest: SessionBudget.minimumExercises)
        if case .failure(let empty) = planned, schedule.split != .fullBody {
            let spared = request.avoid.isEmpty ? "" : " sparing your \(request.avoid.joined(separator: " and "))"
            schedule = SplitSchedule(
                fullBody: days,
                note: "With \(equipment.label)\(spared), a \(empty.title) day would have next to nothing to train, so every session "
                    + "trains the whole body.")
            planned = try await self.week(schedule, request: request, budget: budget, pool: &pool, fewest: 1)
        } else if case .failure = planned {
            planned = try await self.week(schedule, request: request, budget: budget, pool: &pool, fewest: 1)
        }
        var week = try planned.mapError { empty in
            ServiceError(.failedPrecondition, "The exercise catalog has nothing for a \(empty.title) day with this equipment.")
        }.get()
        try await balanceVolume(&week, request: request, budget: budget, pool: &pool)
        var sessions = week.map(\.exercises)
        WeeklyVolume.trim(&sessions, minimumSets: SetPrescription.shortSessionSets)
        let names = Self.sessionNames(schedule.days)
        return RoutinePlan(
            name: Self.name(days: days, split: schedule.split, equipment: equipment),
            description: Self.description(request: request, schedule: schedule, names: names, sessions: sessions),
            frequency: days,
            templates: zip(names, sessions).map { TemplatePlan(name: $0, exercises: $1.map(\.planned)) })
    }

    /// The week's sessions, each filled (`session`); the kind of the first day with fewer than `fewest` exercises
    /// when one has (the equipment and the areas to spare leave a "Chest & Back" day at home one exercise).
    private func week(_ schedule: SplitSchedule, request: PlanRequest, budget: SessionBudget, pool: inout ExercisePool, fewest: Int)
        async throws -> Result<[PlannedDay], EmptyDay>
    {
        var seen: [TrainingDay: Int] = [:]
        var week: [PlannedDay] = []
        for kind in schedule.days {
            let rotation = seen[kind, default: 0] + (kind.follows.map { seen[$0, default: 0] } ?? 0)
            seen[kind, default: 0] += 1
            let day = PlannedDay(kind: kind, rotation: rotation)
            let session = try await self.session(day, request: request, budget: budget, pool: &pool)
            guard session.count >= fewest else { return .failure(EmptyDay(kind: kind)) }
            week.append(day.with(session))
        }
        return .success(week)
    }

    /// A day of the split the catalog has too few exercises for with the user's equipment.
    struct EmptyDay: Error {
        let kind: TrainingDay
        var title: String { kind.title }
    }
}
