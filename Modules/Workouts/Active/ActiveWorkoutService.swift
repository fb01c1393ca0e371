import Contracts
import Foundation
import Platform
import SQLKit

/// The in-progress workout: start, edit set by set, complete or cancel. Every write runs in one transaction
/// that locks the workout (so concurrent writers queue, never lose a set) and is idempotent under its key.
struct ActiveWorkoutService: Sendable {
    let context: WorkoutsContext
    let routines: RoutineService
    let cache = ActiveWorkoutCache()
    /// PostgreSQL: this process's writes to one workout, one at a time (see `mutate`).
    let writers = KeyedExclusion()

    struct StartRequest: Codable, Sendable {
        var templateId: String?
        var routineId: String?
        var name: String?
        /// An inline plan (the coach's session plan), in place of a template.
        var exercises: [PlannedExercise]?
    }

    func start(userId: String, request: StartRequest, idempotencyKey: String?) async throws -> IdempotentAnswer<ActiveWorkout> {
        let context = self.context
        let routines = self.routines
        let name = try request.name.map { try WorkoutsValidation.name($0) }
        if request.exercises != nil, request.templateId != nil || request.routineId != nil {
            throw ServiceError.invalidArgument(field: "exercises", reason: "a plan starts without a template or routine")
        }
        var planned: [TemplateExercise]?
        if let exercises = request.exercises { planned = try await TemplateService(context: context).resolve(exercises) }
        let resolved = planned
        let key = try IdempotencyStore.checkKey(idempotencyKey)
        let fingerprint = try IdempotencyStore.requestFingerprint(operation: "startActiveWorkout", request: request)
        return try await context.database.transaction { tx in
            if context.database.engine == .postgres {
                // Starts of one user run one after another (SQLite's single writer already does this): with no
                // workout in progress there is no row to lock, and two concurrent starts would both insert, the
                // loser seeing a bare unique violation instead of the CONFLICT with the id, or a retry of the
                // same key instead of the first answer.
                try await tx.sql.run(Self.lockStarts(SQLValue(userId)))
            }
            return try await context.idempotency.run(
                in: tx, userId: userId, key: key, operation: "startActiveWorkout", fingerprint: fingerprint
            ) {
                if let existing = try await tx.sql.raw(
                    "SELECT id FROM workouts_active WHERE user_id = \(bind: userId) AND status = 'in_progress'\(context.forUpdate)"
                ).first(decodingColumn: "id", as: String.self) {
                    throw ServiceError(
                        .conflict, "You already have a workout in progress. Finish or cancel it first.", details: ["workout_id": existing])
                }
                var template: WorkoutTemplate?
                if let templateId = request.templateId {
                    template = try await context.document(
                        WorkoutTemplate.self, table: "workouts_templates", id: templateId, userId: userId, sql: tx.sql, what: "template")
                    if let routineId = request.routineId {
                        // The routine's cursor will record this template as done: it must be one of the routine's.
                        let routine = try await routines.stored(userId: userId, id: routineId, sql: tx.sql)
                        guard routine.routine.templateIds.contains(templateId) else {
                            throw ServiceError.invalidArgument(
                                field: "template_id", reason: "not in the routine",
                                message: "That template is not part of this routine.")
                        }
                    }
                } else if let routineId = request.routineId {
                    template = try await routines.next(userId: userId, routineId: routineId, sql: tx.sql, lock: true).template
                }
                let now = context.clock.now()
                let exercises = (resolved ?? template?.exercises ?? []).map { planned in
                    WorkoutExercise(
                        instanceId: context.ids.makeID(), exerciseId: planned.exerciseId, name: planned.name,
                        sets: planned.sets.enumerated().map { index, set in
                            WorkoutSet(
                                id: context.ids.makeID(), setIndex: index, targetReps: set.targetReps, targetRir: set.targetRir,
                                targetWeightKg: set.targetWeightKg)
                        })
                }
                let workout = ActiveWorkout(
                    id: context.ids.makeID(), userId: userId, name: name ?? template?.name, sourceTemplateId: template?.id,
                    sourceRoutineId: request.routineId, status: .inProgress, startTime: now, version: 1, exercises: exercises,
                    totals: WorkoutTotals(), createdAt: now, updatedAt: now)
                try await ActiveWorkoutStorage.insert(workout, sql: tx.sql)
                let source: WorkoutStarted.Source = request.routineId != nil ? .routine : template != nil ? .template : .freeform
                try await tx.publish(
                    WorkoutStarted(userId: userId, workoutId: workout.id, source: source, startedAt: now),
                    id: "workout-started:\(workout.id)", occurredAt: now)
                return workout
            }
        }
    }

    /// The workout in progress, or nil. Read in one transaction so the header and its rows agree.
    func active(userId: String) async throws -> ActiveWorkout? {
        try await context.database.readTransaction { sql in
            guard
                let row = try await sql.raw(
                    "SELECT \(ActiveWorkoutStorage.headerColumns) FROM workouts_active WHERE user_id = \(bind: userId) AND status = 'in_progress'"
                ).first()
            else { return nil }
            return try await ActiveWorkoutStorage.load(try ActiveWorkoutStorage.Header(row: row), sql: sql)
        }
    }

    /// One of the user's workouts, in any status while its rows are kept (`EndedWorkoutRetention`), or `NOT_FOUND`.
    func workout(userId: String, id: String) async throws -> ActiveWorkout {
        try await context.database.readTransaction { sql in
            guard
                let row = try await sql.raw(
                    "SELECT \(ActiveWorkoutStorage.headerColumns) FROM workouts_active WHERE id = \(bind: id) AND user_id = \(bind: userId)"
                ).first()
            else { throw ServiceError(.notFound, "That workout does not exist.", details: ["workout_id": id]) }
            return try await ActiveWorkoutStorage.load(try ActiveWorkoutStorage.Header(row: row), sql: sql)
        }
    }

    /// A transaction-scoped PostgreSQL advisory lock on one user's workout starts (the first key names them).
    static let lockStarts = FixedSQL("SELECT pg_advisory_xact_lock(74101, hashtext(?))")
    static let lockWorkout = FixedSQL("SELECT id FROM workouts_active WHERE id = ? AND user_id = ? FOR UPDATE")

    /// Loads the workout locked, requires it in progress, lets `change` edit it, then saves it with totals
    /// recomputed and a new version. Idempotent under `key`. The body reads and writes only through its
    /// transaction, so it may share a commit with other writes (`batchable`).
    func mutate<R: Codable & Sendable>(
        userId: String, workoutId: String, key: String?, operation: String, request: some Encodable & Sendable,
        expectedVersion: Int? = nil, _ change: @escaping @Sendable (inout ActiveWorkout, Transaction) async throws -> R
    ) async throws -> IdempotentAnswer<R> {
        let key = try IdempotencyStore.checkKey(key)
        guard WorkoutsValidation.couldBeStored(workoutId) else {
            throw ServiceError(.notFound, "That workout does not exist.", details: ["workout_id": workoutId])
        }
        let fingerprint = try IdempotencyStore.requestFingerprint(operation: operation, request: request)
        guard context.database.engine == .postgres else {
            return try await write(
                userId: userId, workoutId: workoutId, key: key, operation: operation, fingerprint: fingerprint,
                expectedVersion: expectedVersion, change)
        }
        // Writes to one workout queue on its row lock, each holding a pooled connection while it waits: a burst of
        // sets logged at once would take every connection of the process. They queue here first, so one
        // workout uses one connection at a time and the rest of the process is served meanwhile.
        return try await writers.run(workoutId) {
            try await write(
                userId: userId, workoutId: workoutId, key: key, operation: operation, fingerprint: fingerprint,
                expectedVersion: expectedVersion, change)
        }
    }

    private func write<R: Codable & Sendable>(
        userId: String, workoutId: String, key: String?, operation: String, fingerprint: String, expectedVersion: Int?,
        _ change: @escaping @Sendable (inout ActiveWorkout, Transaction) async throws -> R
    ) async throws -> IdempotentAnswer<R> {
        let context = self.context
        let cache = self.cache
        return try await context.database.transaction(batchable: true) { tx in
            if context.database.engine == .postgres {
                // SQLite's single writer already orders all of this. First the key, as every keyed write of
                // Workouts does before any row: requests with one key wait for each other whatever they are, so a
                // key reused at the same moment for another write is answered CONFLICT naming it (not a failure on
                // the key's row). Then the workout, before looking the key up: a retry racing its original waits
                // for it and then finds its answer, and writes with other keys queue on the row.
                if let key { try await context.idempotency.lockKey(in: tx, userId: userId, key: key) }
                try await tx.sql.run(Self.lockWorkout(SQLValue(workoutId), SQLValue(userId)))
            }
            // The header comes with the key's stored answer, if any, in one read; without the workout (or a key)
            // the key is looked up alone, so a repeat is still answered as first.
            var headerRow: (any SQLRow)?
            if let key {
                headerRow = try await tx.sql.first(
                    ActiveWorkoutStorage.headerAndStoredAnswer(SQLValue(key), SQLValue(workoutId), SQLValue(userId)))
            }
            return try await context.idempotency.run(
                in: tx, userId: userId, key: key, operation: operation, fingerprint: fingerprint, prefetched: headerRow, keyLocked: true
            ) {
                var workout = try await Self.load(
                    workoutId, userId: userId, header: try headerRow.map(ActiveWorkoutStorage.Header.init(row:)), cache: cache,
                    context: context,
                    sql: tx.sql)
                guard workout.status == .inProgress else { throw Self.ended(workout.status) }
                if let expectedVersion, expectedVersion != workout.version {
                    throw ServiceError(
                        .conflict, "This workout was changed elsewhere. Please reload it and try again.",
                        details: ["current_version": "\(workout.version)", "expected_version": "\(expectedVersion)"])
                }
                let original = workout
                // The time of this write is set first, so an answer built from the workout carries it.
                workout.updatedAt = context.clock.now()
                let result = try await change(&workout, tx)
                workout.totals = WorkoutAnalyzer.totals(workout.exercises)
                workout.version += 1
                // SQLite: the cache holds what this write leaves at once, so the next write of this workout in a
                // shared transaction finds it under the version it reads; should this write be rolled back, the
                // entry goes before the single writer runs anything else. PostgreSQL: only once committed. A
                // COMMIT that fails late (a dropped connection, the server aborting the transaction) lets another
                // replica commit the same version number with other sets, which this process would otherwise
                // take from its cache until it noticed the failure.
                cache.remove(workoutId)
                tx.onRollback { cache.remove(workoutId) }
                try await ActiveWorkoutStorage.save(from: original, to: workout, sql: tx.sql)
                if context.database.engine == .postgres {
                    let saved = workout
                    tx.afterCommit { cache.put(saved) }
                } else {
                    cache.put(workout)
                }
                return result
            }
        }
    }

    /// A write to a workout no longer in progress.
    static func ended(_ status: WorkoutStatus) -> ServiceError {
        ServiceError(
            .failedPrecondition, "This workout is \(status == .completed ? "already finished" : "cancelled").",
            details: ["status": status.rawValue])
    }

    static let archived = FixedSQL("SELECT id FROM workouts_history WHERE id = ? AND user_id = ?")

    /// The workout, locked for this transaction (its `header` may already have been read in it). Its exercise
    /// and set rows are read only when this process does not already hold its current version.
    static func load(
        _ workoutId: String, userId: String, header headerRead: ActiveWorkoutStorage.Header? = nil, cache: ActiveWorkoutCache,
        context: WorkoutsContext,
        sql: any SQLDatabase
    ) async throws -> ActiveWorkout {
        let header: ActiveWorkoutStorage.Header
        if let known = headerRead {
            header = known
        } else {
            guard let row = try await sql.first(ActiveWorkoutStorage.lockedHeader(SQLValue(workoutId), SQLValue(userId))) else {
                // A completed workout whose rows were purged (`EndedWorkoutRetention`) is still finished.
                if try await sql.first(Self.archived(SQLValue(workoutId), SQLValue(userId))) != nil {
                    throw Self.ended(.completed)
                }
                throw ServiceError(.notFound, "That workout does not exist.", details: ["workout_id": workoutId])
            }
            header = try ActiveWorkoutStorage.Header(row: row)
        }
        if let cached = cache.get(workoutId), cached.version == header.version, cached.userId == userId, cached.status == header.status {
            return cached
        }
        return try await ActiveWorkoutStorage.load(header, sql: sql)
    }

    struct WorkoutRequest: Codable, Sendable {
        var workoutId: String
    }

    /// Archives the workout with its analytics, moves on the cursor of the routine it was started from and
    /// publishes `WorkoutCompleted`, all in one transaction.
    func complete(userId: String, workoutId: String, key: String?) async throws -> IdempotentAnswer<CompletedWorkout> {
        let context = self.context
        let routines = self.routines
        return try await mutate(
            userId: userId, workoutId: workoutId, key: key, operation: "completeActiveWorkout",
            request: WorkoutRequest(workoutId: workoutId)
        ) {
            workout, tx in
            let now = workout.updatedAt  // this write's time: the archive ends when the active row last changed
            // What was done, numbered 0, 1, … as every edit of the archive numbers it (sets skipped leave no gap).
            let logged = workout.exercises.compactMap { exercise -> WorkoutExercise? in
                var sets = exercise.sets.filter { $0.completedAt != nil }
                for index in sets.indices { sets[index].setIndex = index }
                return sets.isEmpty
                    ? nil
                    : WorkoutExercise(instanceId: exercise.instanceId, exerciseId: exercise.exerciseId, name: exercise.name, sets: sets)
            }
            // Nothing done is no training: it would go into the history as an empty workout, move the routine on
            // past a session never trained and start the analysis of a workout that did not happen.
            guard !logged.isEmpty else {
                throw ServiceError(
                    .failedPrecondition, "Log at least one set to finish this workout, or cancel it.", details: ["logged_sets": "0"])
            }
            let catalog = try await context.catalog.exercises(ids: logged.map(\.exerciseId), sql: tx.sql)
            let archived = CompletedWorkout(
                id: workout.id, userId: userId, name: workout.name, sourceTemplateId: workout.sourceTemplateId,
                sourceRoutineId: workout.sourceRoutineId, startTime: workout.startTime, endTime: now, exercises: logged,
                analytics: WorkoutAnalyzer.analyze(logged, catalog: catalog), createdAt: now, updatedAt: now)
            try await tx.sql.raw(
                """
                INSERT INTO workouts_history (id, user_id, end_time, document, created_at, updated_at)
                VALUES (\(bind: archived.id), \(bind: userId), \(bind: now.millisecondsSince1970), \(bind: try JSONCoding.store(archived)),
                        \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
                """
            ).run()
            try await routines.advanceCursor(after: archived, sql: tx.sql)
            try await tx.publish(
                WorkoutCompleted(
                    userId: userId, workoutId: archived.id, sourceTemplateId: archived.sourceTemplateId,
                    sourceRoutineId: archived.sourceRoutineId,
                    completedAt: now, durationMinutes: max(0, now.timeIntervalSince(archived.startTime) / 60),
                    exerciseCount: logged.count, setCount: logged.reduce(0) { $0 + $1.sets.count }),
                id: "workout-completed:\(archived.id)", occurredAt: now)
            workout.status = .completed
            return archived
        }
    }

    /// Ends the workout without archiving it and publishes `WorkoutCancelled`, in one transaction.
    func cancel(userId: String, workoutId: String, key: String?) async throws -> IdempotentAnswer<EmptyResult> {
        try await mutate(
            userId: userId, workoutId: workoutId, key: key, operation: "cancelActiveWorkout", request: WorkoutRequest(workoutId: workoutId)
        ) {
            workout, tx in
            try await tx.publish(
                WorkoutCancelled(userId: userId, workoutId: workout.id, startedAt: workout.startTime, cancelledAt: workout.updatedAt),
                id: "workout-cancelled:\(workout.id)", occurredAt: workout.updatedAt)
            workout.status = .cancelled
            return EmptyResult()
        }
    }
}

/// An empty `data` object.
struct EmptyResult: Codable, Sendable, Equatable {}
