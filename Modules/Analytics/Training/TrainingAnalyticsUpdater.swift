import Contracts
import Foundation
import Platform

/// Keeps a user's training analytics equal to their history: on each completed, edited or deleted workout the
/// workout's facts are replaced by what the training log holds now, and the weeks it was and is in are
/// recomputed from their facts. Reading the current state (rather than applying the event's change) makes a
/// redelivered or late event harmless: it recomputes the same rows.
///
/// One user's updates run one at a time: in this process by `users`, and across PostgreSQL replicas by an
/// advisory lock taken before the state is read, so a newer edit's update always reads after an older one
/// committed. (SQLite is one process: the in-process lane is enough, and the read stays outside the
/// transaction so the single writer is never held for it.)
struct TrainingAnalyticsUpdater: Sendable {
    let database: Database
    let accounts: any AccountDirectory
    let log: any TrainingLog
    let catalog: any ExerciseCatalog
    let users = KeyedExclusion()

    /// What an update writes, read before its transaction.
    struct Input: Sendable {
        var calendar: CivilCalendar
        var workout: CompletedWorkout?
        var catalog: [String: Exercise]
    }

    /// What a rebuild writes: the user's whole history.
    struct History: Sendable {
        var calendar: CivilCalendar
        var workouts: [CompletedWorkout]
        var catalog: [String: Exercise]
    }

    /// Brings one workout's facts and its weeks up to date.
    func refresh(userId: String, workoutId: String) async throws {
        try await users.run(userId) {
            try await serialized(userId: userId) { () -> Input? in
                guard let account = try await accounts.account(userId: userId) else { return nil }  // being deleted: the eraser's
                let workout = try await log.workout(userId: userId, id: workoutId)
                return Input(
                    calendar: CivilCalendar(timeZoneIdentifier: account.timeZone, weekStartsOnMonday: account.weekStartsOnMonday),
                    workout: workout, catalog: try await exercises(of: workout.map { [$0] } ?? []))
            } write: { (input: Input, tx: Transaction) in
                var weeks = Set<String>()
                if let old = try await TrainingStore.removeWorkout(userId: userId, workoutId: workoutId, sql: tx.sql) { weeks.insert(old) }
                if let workout = input.workout {
                    let facts = TrainingFacts.derive(workout, calendar: input.calendar, catalog: input.catalog)
                    try await TrainingStore.insert(userId: userId, workouts: [facts.workout], sql: tx.sql)
                    try await TrainingStore.insert(userId: userId, sets: facts.sets, sql: tx.sql)
                    weeks.insert(facts.workout.weekStart)
                }
                let affected = weeks.sorted()
                let (workouts, sets) = try await TrainingStore.facts(userId: userId, weeks: affected, sql: tx.sql)
                try await TrainingStore.replaceWeeks(
                    userId: userId, weeks: affected, with: WeeklyAggregates.of(workouts: workouts, sets: sets), sql: tx.sql)
            }
        }
    }

    /// Recomputes all of a user's training analytics from their whole history (read through `TrainingLog`), in one
    /// transaction: readers see the old rows or the new ones, never a mix. `progress` is told the workouts read.
    func rebuild(userId: String, progress: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        try await users.run(userId) {
            try await serialized(userId: userId) { () -> History? in
                guard let account = try await accounts.account(userId: userId) else { return nil }
                var workouts: [CompletedWorkout] = []
                var cursor: String?
                repeat {
                    let page = try await log.completedWorkouts(userId: userId, endedFrom: nil, endedBefore: nil, limit: 500, cursor: cursor)
                    workouts += page.workouts
                    progress(workouts.count)
                    cursor = page.nextCursor
                } while cursor != nil
                return History(
                    calendar: CivilCalendar(timeZoneIdentifier: account.timeZone, weekStartsOnMonday: account.weekStartsOnMonday),
                    workouts: workouts, catalog: try await exercises(of: workouts))
            } write: { (input: History, tx: Transaction) in
                try await TrainingStore.removeUser(userId, sql: tx.sql)
                var workoutFacts: [WorkoutFact] = []
                var setFacts: [SetFact] = []
                workoutFacts.reserveCapacity(input.workouts.count)
                for workout in input.workouts {
                    let facts = TrainingFacts.derive(workout, calendar: input.calendar, catalog: input.catalog)
                    workoutFacts.append(facts.workout)
                    setFacts += facts.sets
                }
                try await TrainingStore.insert(userId: userId, workouts: workoutFacts, sql: tx.sql)
                try await TrainingStore.insert(userId: userId, sets: setFacts, sql: tx.sql)
                try await TrainingStore.insert(userId: userId, WeeklyAggregates.of(workouts: workoutFacts, sets: setFacts), sql: tx.sql)
            }
        }
    }

    /// Reads the input and writes it, one user at a time across replicas (see the type's comment). A nil input
    /// writes nothing.
    private func serialized<I: Sendable>(
        userId: String, read: @escaping @Sendable () async throws -> I?, write: @escaping @Sendable (I, Transaction) async throws -> Void
    ) async throws {
        if database.engine == .postgres {
            try await database.transaction { tx in
                try await TrainingStore.lockUser(userId, tx: tx)
                guard let input = try await read() else { return }
                try await write(input, tx)
            }
        } else {
            guard let input = try await read() else { return }
            try await database.transaction { tx in try await write(input, tx) }
        }
    }

    /// The catalog entries of the exercises the workouts hold.
    private func exercises(of workouts: [CompletedWorkout]) async throws -> [String: Exercise] {
        var ids = Set<String>()
        for workout in workouts { for exercise in workout.exercises { ids.insert(exercise.exerciseId) } }
        var found: [String: Exercise] = [:]
        for id in ids.sorted() {
            if let exercise = try await catalog.exercise(id: id) { found[id] = exercise }
        }
        return found
    }
}
