import Contracts
import Foundation
import Platform
import SQLKit

/// A routine as a client writes it. Legacy `templateIds` is read as `template_ids`.
public struct RoutineDraft: Codable, Sendable, Equatable {
    public var name: String
    public var description: String?
    public var templateIds: [String]
    public var frequency: Int?

    public init(name: String, description: String? = nil, templateIds: [String], frequency: Int? = nil) {
        self.name = name
        self.description = description
        self.templateIds = templateIds
        self.frequency = frequency
    }

    enum CodingKeys: String, CodingKey {
        case name, description, frequency
        case templateIds = "template_ids"
        case legacyTemplateIds = "templateIds"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        frequency = try container.decodeIfPresent(Int.self, forKey: .frequency)
        templateIds = try container.decode([String].self, forKey: .templateIds, alias: .legacyTemplateIds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(templateIds, forKey: .templateIds)
        try container.encodeIfPresent(frequency, forKey: .frequency)
    }
}

/// The stored form of a routine: the document plus the position of the last completed template, which keeps
/// the cursor meaningful when templates are removed or reordered.
struct StoredRoutine: Codable, Sendable {
    var routine: Routine
    /// The position of the last completed template.
    var lastCompletedIndex: Int?
    /// Set instead of `lastCompletedIndex` once the last completed template's slot is gone (removed from the
    /// list, or done while removed from it): the position of the template that is next. It may hold the same
    /// template as the one completed, listed another time.
    var nextPosition: Int?
    /// The completions that moved the cursor, newest first (at most `recentLimit`): deleting the newest steps the
    /// cursor back to the slot it was done in and to the completion before it.
    var recent: [CursorStep]?

    /// How many completions a routine remembers for stepping back.
    static let recentLimit = 30

    /// A completion that moved the cursor.
    struct CursorStep: Codable, Sendable, Equatable {
        var workoutId: String
        var templateId: String
        var completedAt: Date
        /// The slot it was done in, kept through every change of the list; nil once that slot is gone.
        var slot: Int?

        enum CodingKeys: String, CodingKey {
            case workoutId = "workout_id"
            case templateId = "template_id"
            case completedAt = "completed_at"
            case slot
        }
    }

    enum CodingKeys: String, CodingKey {
        case routine
        case lastCompletedIndex = "last_completed_index"
        case nextPosition = "next_position"
        case recent = "recent_completions"
    }

    /// Gives the routine a new list of templates and moves the cursor with them, so the cycle goes on where it
    /// was. The old list is aligned with the new one (`alignment`): a slot still listed keeps its template's
    /// place in the cycle, wherever it now stands. When the last completed slot is still listed, it stays the
    /// last completed; when it is gone, the first slot that followed it and still is becomes next. So with a
    /// template listed twice, removing the occurrence just done leads on to what followed it, not back to what
    /// followed the other occurrence. The position is kept as it stood after each change, so changes one after
    /// another (a template removed, then another, or a reorder and then a removal) never leave it pointing at a
    /// slot that meant something else.
    mutating func replaceTemplates(with ids: [String]) {
        let old = routine.templateIds
        defer { routine.templateIds = ids }
        let completed = completedSlot(in: old)
        let now = ids.isEmpty ? [Int?](repeating: nil, count: old.count) : Self.alignment(from: old, to: ids, keeping: completed)
        // The remembered completions' slots move with the list too.
        recent = recent?.map { step in
            var step = step
            step.slot = step.slot.flatMap { now.indices.contains($0) ? now[$0] : nil }
            return step
        }
        guard let last = routine.lastCompletedTemplateId, !ids.isEmpty else {
            (lastCompletedIndex, nextPosition) = (nil, nil)
            return
        }
        if let completed, let position = now[completed] {
            (lastCompletedIndex, nextPosition) = (position, nil)
            return
        }
        if completed == nil, !knowsASlot(in: old), let position = ids.firstIndex(of: last) {
            // No slot of the old list is known as done or next (its list was emptied, or it is from before
            // positions were kept, and did not list the template): the template counts from where it now stands.
            (lastCompletedIndex, nextPosition) = (position, nil)
            return
        }
        let survivor = RoutineService.nextIndex(self).flatMap { next in
            (0..<old.count).lazy.map { (next + $0) % old.count }.first { now[$0] != nil }
        }
        (lastCompletedIndex, nextPosition) = (nil, survivor.flatMap { now[$0] } ?? 0)
    }

    /// The slot of `old` (the list the cursor was kept for) that holds the last completed template; nil when
    /// that slot is gone. Without a stored position (a routine from before they were kept), the template's
    /// first occurrence.
    func completedSlot(in old: [String]) -> Int? {
        guard let last = routine.lastCompletedTemplateId else { return nil }
        if let next = nextPosition, old.indices.contains(next) { return nil }
        guard let stored = lastCompletedIndex, old.indices.contains(stored) else { return old.firstIndex(of: last) }
        // Written before `nextPosition` existed, a position that does not hold the template named the next one.
        return old[stored] == last ? stored : nil
    }

    /// Whether a stored position names a slot of `old`.
    private func knowsASlot(in old: [String]) -> Bool {
        [nextPosition, lastCompletedIndex].contains { $0.map(old.indices.contains) ?? false }
    }

    /// Where each slot of `old` stands in `new`, nil for a slot that is no longer listed. Slots are matched as
    /// an edit would have kept them: the longest run of templates left in the same order (removals and
    /// insertions), then the templates that moved, each leftover slot with the next leftover occurrence of its
    /// template. Where two matchings keep as many slots, the one that keeps `keeping` (the last completed slot)
    /// is taken: removing one of two identical templates cannot tell which was meant, and the one just done is
    /// taken to stay.
    static func alignment(from old: [String], to new: [String], keeping: Int?) -> [Int?] {
        // best[i][j]: the best score for old[i...] against new[j...]; a kept slot scores 2, the completed slot 3.
        func kept(_ slot: Int) -> Int { slot == keeping ? 3 : 2 }
        var best = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                var score = max(best[i + 1][j], best[i][j + 1])
                if old[i] == new[j] { score = max(score, best[i + 1][j + 1] + kept(i)) }
                best[i][j] = score
            }
        }
        var result = [Int?](repeating: nil, count: old.count)
        var taken = [Bool](repeating: false, count: new.count)
        var (i, j) = (0, 0)
        while i < old.count, j < new.count {
            if old[i] == new[j], best[i][j] == best[i + 1][j + 1] + kept(i) {
                result[i] = j
                taken[j] = true
                (i, j) = (i + 1, j + 1)
            } else if best[i][j] == best[i + 1][j] {
                i += 1
            } else {
                j += 1
            }
        }
        for slot in old.indices where result[slot] == nil {
            if let moved = new.indices.first(where: { !taken[$0] && new[$0] == old[slot] }) {
                result[slot] = moved
                taken[moved] = true
            }
        }
        return result
    }

    /// Where `id` stands in `ids`: at `hint` if it is there, else its first occurrence.
    static func position(of id: String, in ids: [String], near hint: Int?) -> Int? {
        if let hint, hint < ids.count, ids[hint] == id { return hint }
        return ids.firstIndex(of: id)
    }
}

/// The next workout of a routine.
public struct NextWorkout: Codable, Sendable, Equatable {
    public var template: WorkoutTemplate
    public var index: Int
    public var routineId: String

    enum CodingKeys: String, CodingKey {
        case template, index
        case routineId = "routine_id"
    }
}

/// Changes to a routine; absent fields stay as they are. Legacy `templateIds` is read as `template_ids`.
struct RoutinePatch: Codable, Sendable, Equatable {
    var name: String?
    var description: String?
    var templateIds: [String]?
    var frequency: Int?

    enum CodingKeys: String, CodingKey {
        case name, description, frequency
        case templateIds = "template_ids"
        case legacyTemplateIds = "templateIds"
    }

    init(name: String? = nil, description: String? = nil, templateIds: [String]? = nil, frequency: Int? = nil) {
        self.name = name
        self.description = description
        self.templateIds = templateIds
        self.frequency = frequency
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        frequency = try container.decodeIfPresent(Int.self, forKey: .frequency)
        templateIds = try container.decodeIfPresent([String].self, forKey: .templateIds, alias: .legacyTemplateIds)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(templateIds, forKey: .templateIds)
        try container.encodeIfPresent(frequency, forKey: .frequency)
    }
}

extension RoutinePatch: PatchChanges {
    init() { self.init(name: nil) }
}

/// A routine as the routine endpoints answer it: the document and `is_active`, whether it is the user's active
/// routine (the original app's `isActive`), so every device can show which one is without asking elsewhere.
/// The flag is read with the routine, not stored in it: it belongs to the user's settings.
struct RoutineAnswer: Codable, Sendable, Equatable {
    var routine: Routine
    var isActive: Bool

    enum CodingKeys: String, CodingKey { case isActive = "is_active" }

    init(_ routine: Routine, isActive: Bool) {
        self.routine = routine
        self.isActive = isActive
    }

    init(from decoder: any Decoder) throws {
        routine = try Routine(from: decoder)
        // Answers stored under a key before the flag was answered have none.
        isActive = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Bool.self, forKey: .isActive) ?? false
    }

    func encode(to encoder: any Encoder) throws {
        try routine.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isActive, forKey: .isActive)
    }
}

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
        try await context.database.readTransaction { sql in
            let active = try await self.activeRoutineId(userId: userId, sql: sql)
            return try await sql.raw(
                "SELECT document FROM workouts_routines WHERE user_id = \(bind: userId) ORDER BY created_at, id"
            ).all(decodingColumn: "document", as: String.self).map {
                let routine = try JSONCoding.load(StoredRoutine.self, from: $0).routine
                return RoutineAnswer(routine, isActive: routine.id == active)
            }
        }
    }

    func get(userId: String, id: String) async throws -> RoutineAnswer {
        try await context.database.readTransaction { sql in
            let routine = try await self.stored(userId: userId, id: id, sql: sql).routine
            return RoutineAnswer(routine, isActive: try await self.activeRoutineId(userId: userId, sql: sql) == id)
        }
    }

    func stored(userId: String, id: String, sql: any SQLDatabase, lock: Bool = false) async throws -> StoredRoutine {
        try await context.document(StoredRoutine.self, table: "workouts_routines", id: id, userId: userId, sql: sql, lock: lock, what: "routine")
    }

    /// Changes a routine (with `expectedVersion`, a concurrent change is `CONFLICT`). Idempotent under `key`: a retry
    /// gets the first answer rather than a `CONFLICT` with the version its own write made.
    func patch(userId: String, id: String, expectedVersion: Int?, changes: RoutinePatch, key: String? = nil) async throws -> IdempotentAnswer<RoutineAnswer> {
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
            if let templateIds, templateIds != before.templateIds { stored.replaceTemplates(with: templateIds) }
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
        return try await context.idempotency.write(userId: userId, key: key, operation: "deleteRoutine", request: ["routine_id": id]) { tx in
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
        let index = Self.nextIndex(stored)
        guard let index else {
            throw ServiceError(.failedPrecondition, "This routine has no templates yet.", details: ["routine_id": id])
        }
        let template = try await context.document(
            WorkoutTemplate.self, table: "workouts_templates", id: stored.routine.templateIds[index], userId: userId, sql: sql, what: "template")
        return NextWorkout(template: template, index: index, routineId: id)
    }

    /// Where the cycle continues. Every change of the list and every completion keep the stored position (see
    /// `StoredRoutine.replaceTemplates`): the slot of the last completed template, and the one after it is next,
    /// or, once that slot is gone, the slot that is next. A routine without a valid position (from before
    /// positions were kept) goes on after the template's first occurrence.
    static func nextIndex(_ stored: StoredRoutine) -> Int? {
        let ids = stored.routine.templateIds
        guard !ids.isEmpty else { return nil }
        guard let last = stored.routine.lastCompletedTemplateId else { return 0 }
        if let next = stored.nextPosition, ids.indices.contains(next) { return next }
        if let position = stored.lastCompletedIndex, ids.indices.contains(position) {
            // Before `nextPosition`, a position that does not hold the template named the next one.
            return ids[position] == last ? (position + 1) % ids.count : position
        }
        if let position = ids.firstIndex(of: last) { return (position + 1) % ids.count }
        return max(0, stored.lastCompletedIndex ?? 0) % ids.count
    }

    /// Advances the cursor for a completed workout. Idempotent, and an older completion never moves the
    /// cursor back.
    func advanceCursor(_ event: WorkoutCompleted) async throws {
        guard let routineId = event.sourceRoutineId, let templateId = event.sourceTemplateId else { return }
        let context = self.context
        try await context.database.transaction { tx in
            guard var stored = try await Self.lockedForCursor(routineId, userId: event.userId, context: context, sql: tx.sql) else { return }
            if let last = stored.routine.lastCompletedAt, last >= event.completedAt { return }
            // A workout deleted before its completion reached the cursor never moves it (its deletion found the
            // cursor elsewhere, and had nothing to step back).
            guard try await Self.archived(event.workoutId, userId: event.userId, sql: tx.sql) else { return }
            let ids = stored.routine.templateIds
            let previous = Self.nextIndex(stored)
            // With the same template twice in a routine, prefer the occurrence right after the previous cursor.
            let position = StoredRoutine.position(of: templateId, in: ids, near: previous)
            stored.routine.lastCompletedTemplateId = templateId
            stored.routine.lastCompletedAt = event.completedAt
            let step = StoredRoutine.CursorStep(
                workoutId: event.workoutId, templateId: templateId, completedAt: event.completedAt, slot: position ?? previous)
            stored.recent = Array(([step] + (stored.recent ?? [])).prefix(StoredRoutine.recentLimit))
            // A template removed from the routine while its workout ran was done in the slot the cursor pointed
            // at: recorded there, `nextIndex` continues with the template that took that slot.
            if let position {
                (stored.lastCompletedIndex, stored.nextPosition) = (position, nil)
            } else if let previous {
                (stored.lastCompletedIndex, stored.nextPosition) = (nil, previous)
            }
            try await Self.save(stored, sql: tx.sql)
        }
    }

    /// Steps the cursor back when the workout that last moved it is deleted, as if it had never been done: the
    /// slot it was done in is next again (when that slot has left the list, what is next stays next), and the
    /// completion before it, of a workout still archived, is the routine's last (with none remembered, the newest
    /// of the routine's workouts among the user's latest in the history). With none at all, the routine starts
    /// over at its first template. An older workout deleted is only forgotten, so that stepping back never
    /// lands on it. Idempotent.
    func rewindCursor(_ event: WorkoutDeleted) async throws {
        guard let routineId = event.sourceRoutineId else { return }
        let context = self.context
        try await context.database.transaction { tx in
            guard var stored = try await Self.lockedForCursor(routineId, userId: event.userId, context: context, sql: tx.sql) else { return }
            guard var recent = stored.recent, let index = recent.firstIndex(where: { $0.workoutId == event.workoutId }) else { return }
            let deleted = recent.remove(at: index)
            guard index == 0 else {
                stored.recent = recent
                try await Self.save(stored, sql: tx.sql)
                return
            }
            let ids = stored.routine.templateIds
            let next = deleted.slot.flatMap { ids.indices.contains($0) ? $0 : nil } ?? Self.nextIndex(stored)
            // A completion whose workout was deleted meanwhile (its event not handled yet) is passed over.
            while let newest = recent.first, try await !Self.archived(newest.workoutId, userId: event.userId, sql: tx.sql) {
                recent.removeFirst()
            }
            // With none remembered (completions from before they were kept, or one whose event came after a newer
            // one's), the newest of the routine's workouts in the recent history.
            if recent.isEmpty,
                let found = try await Self.newestArchived(of: routineId, userId: event.userId, before: deleted.completedAt, sql: tx.sql)
            {
                // Remembered from now on, so that deleting it steps back in turn.
                recent = [found]
            }
            stored.recent = recent
            if let previous = recent.first {
                stored.routine.lastCompletedTemplateId = previous.templateId
                stored.routine.lastCompletedAt = previous.completedAt
                (stored.lastCompletedIndex, stored.nextPosition) = (nil, next ?? 0)
            } else {
                stored.routine.lastCompletedTemplateId = nil
                stored.routine.lastCompletedAt = nil
                (stored.lastCompletedIndex, stored.nextPosition) = (nil, nil)
            }
            try await Self.save(stored, sql: tx.sql)
        }
    }

    /// How many of a user's newest archived workouts `newestArchived` looks through.
    static let historyLookback = 200

    /// The newest of the user's `historyLookback` newest workouts archived before `before` that was started from
    /// the routine from one of its templates, as a remembered completion whose slot is unknown, or nil. (A newer
    /// one is a completion still on its way to the cursor, which moves it when it arrives.)
    static func newestArchived(of routineId: String, userId: String, before: Date, sql: any SQLDatabase) async throws -> StoredRoutine.CursorStep? {
        struct Origin: Decodable {
            var id: String
            var sourceTemplateId: String?
            var sourceRoutineId: String?
            var endTime: Date
            enum CodingKeys: String, CodingKey {
                case id
                case sourceTemplateId = "source_template_id"
                case sourceRoutineId = "source_routine_id"
                case endTime = "end_time"
            }
        }
        let documents = try await sql.raw(
            """
            SELECT document FROM workouts_history WHERE user_id = \(bind: userId) AND end_time < \(bind: before.millisecondsSince1970)
            ORDER BY end_time DESC, id DESC LIMIT \(bind: Self.historyLookback)
            """
        ).all(decodingColumn: "document", as: String.self)
        for document in documents {
            let origin = try JSONCoding.load(Origin.self, from: document)
            if origin.sourceRoutineId == routineId, let templateId = origin.sourceTemplateId {
                return StoredRoutine.CursorStep(workoutId: origin.id, templateId: templateId, completedAt: origin.endTime, slot: nil)
            }
        }
        return nil
    }

    /// The routine, locked (PostgreSQL) for its cursor to move, or nil when it is gone (an event handler then has
    /// nothing to do).
    static func lockedForCursor(_ routineId: String, userId: String, context: WorkoutsContext, sql: any SQLDatabase) async throws -> StoredRoutine? {
        try await sql.raw("SELECT document FROM workouts_routines WHERE id = \(bind: routineId) AND user_id = \(bind: userId)\(context.forUpdate)")
            .first(decodingColumn: "document", as: String.self)
            .map { try JSONCoding.load(StoredRoutine.self, from: $0) }
    }

    /// Whether the workout is still archived.
    static func archived(_ workoutId: String, userId: String, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw("SELECT 1 AS found FROM workouts_history WHERE id = \(bind: workoutId) AND user_id = \(bind: userId)").first() != nil
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
