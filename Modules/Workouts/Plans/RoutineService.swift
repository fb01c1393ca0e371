import Contracts
import Foundation
import Platform
import SQLKit

/// Routines, the active routine and the cursor.
struct RoutineService: Sendable {
    let context: WorkoutsContext

    func create(userId: String, draft: RoutineDraft) async throws -> Routine {
        try await create(userId: userId, draft: draft, key: nil).value().routine
    }

    /// Creates a routine; idempotent under `key` (a repeat answers the first routine and creates none). A new
    /// routine is not active (`setActiveRoutine` makes it so).
    func create(userId: String, draft: RoutineDraft, key: String?) async throws -> IdempotentAnswer<RoutineAnswer> {
        let name = try WorkoutsValidation.name(draft.name)
        let description = try WorkoutsValidation.description(draft.description)
        let frequency = try Self.frequency(draft.frequency)
        let context = self.context
        return try await context.idempotency.write(userId: userId, key: key, operation: "createRoutine", request: draft) { tx in
            try await Self.checkTemplates(draft.templateIds, userId: userId, sql: tx.sql, engine: context.database.engine)
            let routine = try await Self.insert(
                userId: userId, name: name, description: description, templateIds: draft.templateIds, frequency: frequency,
                context: context, sql: tx.sql)
            return RoutineAnswer(routine, isActive: false)
        }
    }

    static func insert(
        userId: String, name: String, description: String?, templateIds: [String], frequency: Int?, context: WorkoutsContext,
        sql: any SQLDatabase
    ) async throws -> Routine {
        try await PlanCaps.requireRoom(
            in: "workouts_routines", what: "routine", limit: PlanCaps.routines, userId: userId, engine: context.database.engine, sql: sql)
        let now = context.clock.now()
        let routine = Routine(
            id: context.ids.makeID(), userId: userId, name: name, description: description, templateIds: templateIds, frequency: frequency,
            lastCompletedTemplateId: nil, lastCompletedAt: nil, version: 1, createdAt: now, updatedAt: now)
        try await sql.raw(
            """
            INSERT INTO workouts_routines (id, user_id, version, document, created_at, updated_at)
            VALUES (\(bind: routine.id), \(bind: userId), 1, \(bind: try JSONCoding.store(StoredRoutine(routine: routine))),
                    \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
            """
        ).run()
        return routine
    }

    /// The user's routines, oldest first, each with `is_active` (read in one snapshot with them).
    func list(userId: String) async throws -> [RoutineAnswer] {
        try await list(userId: userId, limit: PlanCaps.routines, cursor: nil).items
    }

    /// The user's routines, oldest first, a page of `limit` (1…100) after `cursor`, each with `is_active` (read in one
    /// snapshot with them).
    func list(userId: String, limit: Int, cursor: String?) async throws -> (items: [RoutineAnswer], nextCursor: String?) {
        try await context.database.readTransaction { sql in
            let active = try await self.activeRoutineId(userId: userId, sql: sql)
            let page = try await PlanCaps.page(
                of: "workouts_routines", userId: userId, limit: limit, maximum: PlanCaps.routines, cursor: cursor, sql: sql)
            let items = try page.documents.map {
                let routine = try JSONCoding.load(StoredRoutine.self, from: $0).routine
                return RoutineAnswer(routine, isActive: routine.id == active)
            }
            return (items, page.nextCursor)
        }
    }

    func get(userId: String, id: String) async throws -> RoutineAnswer {
        try await context.database.readTransaction { sql in
            let routine = try await self.stored(userId: userId, id: id, sql: sql).routine
            return RoutineAnswer(routine, isActive: try await self.activeRoutineId(userId: userId, sql: sql) == id)
        }
    }

    func stored(userId: String, id: String, sql: any SQLDatabase, lock: Bool = false) async throws -> StoredRoutine {
        try await context.document(
            StoredRoutine.self, table: "workouts_routines", id: id, userId: userId, sql: sql, lock: lock, what: "routine")
    }

    /// Changes a routine (with `expectedVersion`, a concurrent change is `CONFLICT`). Idempotent under `key`: a retry
    /// gets the first answer rather than a `CONFLICT` with the version its own write made.
    func patch(userId: String, id: String, expectedVersion: Int?, changes: RoutinePatch, key: String? = nil) async throws
        -> IdempotentAnswer<RoutineAnswer>
    {
        // A patch that names no change would still bump the version (see `TemplateService.patch`).
        guard !changes.changesNothing else { throw RoutinePatch.nothingToChange("a new name, description, template_ids or frequency") }
        let name = try changes.name.map { try WorkoutsValidation.name($0) }
        let description = try WorkoutsValidation.description(changes.description)
        let frequency = try Self.frequency(changes.frequency)
        let templateIds = changes.templateIds
        let context = self.context
        let request = VersionedChange(id: id, expectedVersion: expectedVersion, changes: changes)
        return try await context.idempotency.write(userId: userId, key: key, operation: "patchRoutine", request: request) { tx in
            // Templates before the routine: deleteTemplate locks in that order too, so the two never deadlock. A
            // template that is gone is reported after the version check: deleting a template takes it out of the
            // routine and bumps its version, so a client still showing it is told the routine changed (CONFLICT).
            var missingTemplate: String?
            if let templateIds {
                missingTemplate = try await Self.lockTemplates(templateIds, userId: userId, sql: tx.sql, engine: context.database.engine)
            }
            var stored = try await self.stored(userId: userId, id: id, sql: tx.sql, lock: true)
            if let expectedVersion, expectedVersion != stored.routine.version {
                throw ServiceError(
                    .conflict, "This routine was changed elsewhere. Please reload it and try again.",
                    details: ["current_version": "\(stored.routine.version)", "expected_version": "\(expectedVersion)"])
            }
            if let missingTemplate { throw Self.noSuchTemplate(missingTemplate) }
            let before = stored.routine
            if let name { stored.routine.name = name }
            if changes.description != nil { stored.routine.description = description }
            if let frequency { stored.routine.frequency = frequency }
            if let templateIds, templateIds != before.templateIds { stored.cursor.replaceTemplates(with: templateIds) }
            let isActive = try await self.activeRoutineId(userId: userId, sql: tx.sql) == id
            // Repeating what is stored changes nothing: no new version (see `TemplateService.patch`).
            if stored.routine == before { return RoutineAnswer(before, isActive: isActive) }
            stored.routine.version += 1
            stored.routine.updatedAt = context.clock.now()
            try await Self.save(stored, sql: tx.sql)
            return RoutineAnswer(stored.routine, isActive: isActive)
        }
    }

    /// Deletes the routine (and clears it as the active one); answers it as it was, `is_active` included.
    /// Idempotent under `key`.
    @discardableResult
    func delete(userId: String, id: String, key: String? = nil) async throws -> IdempotentAnswer<RoutineAnswer> {
        let context = self.context
        return try await context.idempotency.write(userId: userId, key: key, operation: "deleteRoutine", request: ["routine_id": id]) {
            tx in
            let stored = try await self.stored(userId: userId, id: id, sql: tx.sql, lock: true)
            let wasActive = try await self.activeRoutineId(userId: userId, sql: tx.sql) == id
            try await tx.sql.raw("DELETE FROM workouts_routines WHERE id = \(bind: id) AND user_id = \(bind: userId)").run()
            try await tx.sql.raw(
                "UPDATE workouts_user_settings SET active_routine_id = NULL WHERE user_id = \(bind: userId) AND active_routine_id = \(bind: id)"
            ).run()
            return RoutineAnswer(stored.routine, isActive: wasActive)
        }
    }

    /// Makes `routineId` the user's one active routine (nil clears it). Idempotent under `key`.
    func setActive(userId: String, routineId: String?, key: String? = nil) async throws -> IdempotentAnswer<ActiveRoutineOutput> {
        let context = self.context
        let request = ActiveRoutineOutput(activeRoutineId: routineId)
        return try await context.idempotency.write(userId: userId, key: key, operation: "setActiveRoutine", request: request) { tx in
            // Locked (PostgreSQL), so a concurrent deleteRoutine either runs first (NOT_FOUND here) or waits and
            // then clears the setting this writes.
            if let routineId { _ = try await self.stored(userId: userId, id: routineId, sql: tx.sql, lock: true) }
            try await tx.sql.raw(
                """
                INSERT INTO workouts_user_settings (user_id, active_routine_id, updated_at)
                VALUES (\(bind: userId), \(bind: routineId), \(bind: context.clock.now().millisecondsSince1970))
                ON CONFLICT (user_id) DO UPDATE SET active_routine_id = excluded.active_routine_id, updated_at = excluded.updated_at
                """
            ).run()
            return ActiveRoutineOutput(activeRoutineId: routineId)
        }
    }

    func activeRoutineId(userId: String, sql: any SQLDatabase) async throws -> String? {
        try await sql.raw("SELECT active_routine_id FROM workouts_user_settings WHERE user_id = \(bind: userId)")
            .first(decodingColumn: "active_routine_id", as: String?.self) ?? nil
    }

    /// The template after the cursor, in O(1): the position after the last completed one, wrapping around.
    /// `lock`: in a write transaction, the routine is locked (PostgreSQL) before its template is read, so a
    /// concurrent `deleteTemplate` (which locks the routines it changes) either ran first, and the routine read
    /// here no longer lists the template, or waits for this transaction: the template found next always exists.
    func next(userId: String, routineId: String?, sql: any SQLDatabase, lock: Bool = false) async throws -> NextWorkout {
        let id: String
        if let routineId {
            id = routineId
        } else if let active = try await activeRoutineId(userId: userId, sql: sql) {
            id = active
        } else {
            throw ServiceError(.failedPrecondition, "You have no active routine. Choose one first.")
        }
        let stored = try await self.stored(userId: userId, id: id, sql: sql, lock: lock)
        let index = stored.cursor.nextIndex
        guard let index else {
            throw ServiceError(.failedPrecondition, "This routine has no templates yet.", details: ["routine_id": id])
        }
        let template = try await context.document(
            WorkoutTemplate.self, table: "workouts_templates", id: stored.routine.templateIds[index], userId: userId, sql: sql,
            what: "template")
        return NextWorkout(template: template, index: index, routineId: id)
    }

    static func save(_ stored: StoredRoutine, sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE workouts_routines SET version = \(bind: stored.routine.version), document = \(bind: try JSONCoding.store(stored)),
                updated_at = \(bind: stored.routine.updatedAt.millisecondsSince1970)
            WHERE id = \(bind: stored.routine.id)
            """
        ).run()
    }

    /// Requires every id to be one of the user's templates. On PostgreSQL the rows are share-locked until the
    /// transaction ends, so a concurrent deleteTemplate either comes first (NOT_FOUND here) or waits and then
    /// removes the template from the routine this transaction writes.
    static func checkTemplates(_ ids: [String], userId: String, sql: any SQLDatabase, engine: SQLEngine) async throws {
        if let missing = try await lockTemplates(ids, userId: userId, sql: sql, engine: engine) { throw noSuchTemplate(missing) }
    }

    /// Locks (on PostgreSQL, for share) those of `ids` that are the user's templates, and answers the first that
    /// is not, if any.
    static func lockTemplates(_ ids: [String], userId: String, sql: any SQLDatabase, engine: SQLEngine) async throws -> String? {
        guard ids.count <= 30 else { throw ServiceError.invalidArgument(field: "template_ids", reason: "at most 30 templates") }
        guard !ids.isEmpty else { return nil }
        let binds: [any Encodable & Sendable] = Array(Set(ids))
        let lock: SQLQueryString = engine == .postgres ? " FOR SHARE" : ""
        let owned = Set(
            try await sql.raw("SELECT id FROM workouts_templates WHERE user_id = \(bind: userId) AND id IN (\(binds: binds))\(lock)")
                .all(decodingColumn: "id", as: String.self))
        return ids.first(where: { !owned.contains($0) })
    }

    static func noSuchTemplate(_ id: String) -> ServiceError {
        ServiceError(.notFound, "That template does not exist.", details: ["template_id": id])
    }

    static func frequency(_ value: Int?) throws -> Int? {
        guard let value else { return nil }
        guard (1...14).contains(value) else { throw ServiceError.invalidArgument(field: "frequency", reason: "must be from 1 to 14") }
        return value
    }
}
