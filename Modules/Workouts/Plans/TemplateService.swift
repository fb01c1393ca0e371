import Contracts
import Foundation
import Platform
import SQLKit

/// A template as a client writes it: exercises by id with planned sets.
public struct TemplateDraft: Codable, Sendable, Equatable {
    public typealias ExerciseDraft = PlannedExercise

    public var name: String
    public var description: String?
    public var exercises: [ExerciseDraft]

    public init(name: String, description: String? = nil, exercises: [ExerciseDraft]) {
        self.name = name
        self.description = description
        self.exercises = exercises
    }
}

/// Changes to a template; absent fields stay as they are.
public struct TemplatePatch: Codable, Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var exercises: [TemplateDraft.ExerciseDraft]?

    public init(name: String? = nil, description: String? = nil, exercises: [TemplateDraft.ExerciseDraft]? = nil) {
        self.name = name
        self.description = description
        self.exercises = exercises
    }
}

extension TemplatePatch: PatchChanges {
    init() { self.init(name: nil) }
}

/// What a repeated patch must match: the document, the version it was sent against and the changes.
struct VersionedChange<Changes: Encodable>: Encodable {
    var id: String
    var expectedVersion: Int?
    var changes: Changes
}

/// Templates: versioned, optimistic concurrency, analytics computed on every write.
struct TemplateService: Sendable {
    let context: WorkoutsContext

    func create(userId: String, draft: TemplateDraft) async throws -> WorkoutTemplate {
        try await create(userId: userId, draft: draft, key: nil).value()
    }

    /// Creates a template; idempotent under `key` (a repeat answers the first template and creates none).
    func create(userId: String, draft: TemplateDraft, key: String?) async throws -> IdempotentAnswer<WorkoutTemplate> {
        let exercises = try await resolve(draft.exercises)
        let name = try WorkoutsValidation.name(draft.name)
        let description = try WorkoutsValidation.description(draft.description)
        let context = self.context
        return try await context.idempotency.write(userId: userId, key: key, operation: "createTemplate", request: draft) { tx in
            try await Self.insert(userId: userId, name: name, description: description, exercises: exercises, context: context, sql: tx.sql)
        }
    }

    /// `createdAt`: when the template counts as created (lists are in that order); now unless given.
    static func insert(
        userId: String, name: String, description: String?, exercises: [TemplateExercise], createdAt: Date? = nil, context: WorkoutsContext,
        sql: any SQLDatabase
    ) async throws -> WorkoutTemplate {
        try await PlanCaps.requireRoom(
            in: "workouts_templates", what: "template", limit: PlanCaps.templates, userId: userId, engine: context.database.engine, sql: sql
        )
        let now = createdAt ?? context.clock.now()
        let catalog = try await context.catalog.exercises(ids: exercises.map(\.exerciseId), sql: sql)
        let template = WorkoutTemplate(
            id: context.ids.makeID(), userId: userId, name: name, description: description, exercises: exercises,
            analytics: TemplateAnalyzer.analyze(exercises, catalog: catalog), version: 1, createdAt: now, updatedAt: now)
        try await sql.raw(
            """
            INSERT INTO workouts_templates (id, user_id, version, document, created_at, updated_at)
            VALUES (\(bind: template.id), \(bind: userId), 1, \(bind: try JSONCoding.store(template)),
                    \(bind: now.millisecondsSince1970), \(bind: now.millisecondsSince1970))
            """
        ).run()
        return template
    }

    func list(userId: String) async throws -> [WorkoutTemplate] {
        try await list(userId: userId, limit: PlanCaps.templates, cursor: nil).items
    }

    /// The user's templates, oldest first, a page of `limit` (1…500) after `cursor`.
    func list(userId: String, limit: Int, cursor: String?) async throws -> (items: [WorkoutTemplate], nextCursor: String?) {
        let page = try await PlanCaps.page(
            of: "workouts_templates", userId: userId, limit: limit, maximum: PlanCaps.templates, cursor: cursor, sql: context.database.sql)
        return (try page.documents.map { try JSONCoding.load(WorkoutTemplate.self, from: $0) }, page.nextCursor)
    }

    func get(userId: String, id: String) async throws -> WorkoutTemplate {
        try await context.document(
            WorkoutTemplate.self, table: "workouts_templates", id: id, userId: userId, sql: context.database.sql, what: "template")
    }

    /// Changes a template (with `expectedVersion`, a concurrent change is `CONFLICT`). Idempotent under `key`: a
    /// retry gets the first answer rather than a `CONFLICT` with the version its own write made.
    func patch(
        userId: String, id: String, expectedVersion: Int?, changes: TemplatePatch, key: String? = nil
    ) async throws -> IdempotentAnswer<WorkoutTemplate> {
        // A patch that names no change would still bump the version, and every other holder of it would then
        // get a needless CONFLICT.
        guard !changes.changesNothing else { throw TemplatePatch.nothingToChange("a new name, description or exercises") }
        let name = try changes.name.map { try WorkoutsValidation.name($0) }
        let description = try WorkoutsValidation.description(changes.description)
        var resolved: Result<[TemplateExercise], ServiceError>?
        if let drafts = changes.exercises {
            resolved = try await WorkoutsContext.deferringUnknownExercise { try await self.resolve(drafts) }
        }
        let exercisesResolved = resolved
        let context = self.context
        let request = VersionedChange(id: id, expectedVersion: expectedVersion, changes: changes)
        return try await context.idempotency.write(userId: userId, key: key, operation: "patchTemplate", request: request) { tx in
            var template = try await context.document(
                WorkoutTemplate.self, table: "workouts_templates", id: id, userId: userId, sql: tx.sql, lock: true, what: "template")
            let exercises = try exercisesResolved?.get()
            if let expectedVersion, expectedVersion != template.version {
                throw ServiceError(
                    .conflict, "This template was changed elsewhere. Please reload it and try again.",
                    details: ["current_version": "\(template.version)", "expected_version": "\(expectedVersion)"])
            }
            let before = template
            if let name { template.name = name }
            if changes.description != nil { template.description = description }
            if let exercises { template.exercises = exercises }
            // On every write, not only when the exercises change: the catalog's muscles may have changed since
            // (`import-catalog`), and so may the rules of the analysis.
            let catalog = try await context.catalog.exercises(ids: template.exercises.map(\.exerciseId), sql: tx.sql)
            template.analytics = TemplateAnalyzer.analyze(template.exercises, catalog: catalog)
            // A patch that repeats what is stored changes nothing, so it makes no new version (which would give every
            // other holder of this one a needless CONFLICT).
            if template == before { return template }
            template.version += 1
            template.updatedAt = context.clock.now()
            try await tx.sql.raw(
                """
                UPDATE workouts_templates SET version = \(bind: template.version), document = \(bind: try JSONCoding.store(template)),
                    updated_at = \(bind: template.updatedAt.millisecondsSince1970)
                WHERE id = \(bind: id) AND user_id = \(bind: userId)
                """
            ).run()
            return template
        }
    }

    /// Deletes a template and takes it out of every routine of the user that lists it (those routines get a
    /// new version, and a cursor on it moves on to the template that followed it); answers it as it was.
    /// Idempotent under `key`.
    @discardableResult
    func delete(userId: String, id: String, key: String? = nil) async throws -> IdempotentAnswer<WorkoutTemplate> {
        let context = self.context
        return try await context.idempotency.write(userId: userId, key: key, operation: "deleteTemplate", request: ["template_id": id]) {
            tx in
            let template = try await context.document(
                WorkoutTemplate.self, table: "workouts_templates", id: id, userId: userId, sql: tx.sql, lock: true, what: "template")
            try await tx.sql.raw("DELETE FROM workouts_templates WHERE id = \(bind: id) AND user_id = \(bind: userId)").run()
            // Locked in id order, as every write that locks more than one routine must, so two never deadlock.
            let routines = try await tx.sql.raw(
                "SELECT document FROM workouts_routines WHERE user_id = \(bind: userId) ORDER BY id\(context.forUpdate)"
            )
            .all(decodingColumn: "document", as: String.self).map { try JSONCoding.load(StoredRoutine.self, from: $0) }
            for var routine in routines where routine.routine.templateIds.contains(id) {
                routine.cursor.replaceTemplates(with: routine.routine.templateIds.filter { $0 != id })
                routine.routine.version += 1
                routine.routine.updatedAt = context.clock.now()
                try await RoutineService.save(routine, sql: tx.sql)
            }
            return template
        }
    }

    /// Validates planned sets and resolves exercise names from the catalog.
    func resolve(_ drafts: [TemplateDraft.ExerciseDraft]) async throws -> [TemplateExercise] {
        guard drafts.count <= WorkoutsValidation.maxExercises else {
            throw ServiceError.invalidArgument(field: "exercises", reason: "at most 50 exercises")
        }
        let catalog = try await context.exercises(
            drafts.enumerated().map { ("exercises[\($0.offset)].exercise_id", $0.element.exerciseId) })
        return try drafts.enumerated().map { index, draft in
            guard draft.sets.count <= 30 else {
                throw ServiceError.invalidArgument(field: "exercises[\(index)].sets", reason: "at most 30 sets")
            }
            let sets = try draft.sets.enumerated().map { setIndex, set in
                let field = "exercises[\(index)].sets[\(setIndex)]"
                return TemplateSet(
                    targetReps: try WorkoutsValidation.reps(set.targetReps, field: "\(field).target_reps"),
                    targetRir: try WorkoutsValidation.rir(set.targetRir, field: "\(field).target_rir"),
                    targetWeightKg: try WorkoutsValidation.weight(set.targetWeightKg, field: "\(field).target_weight_kg"))
            }
            return TemplateExercise(exerciseId: draft.exerciseId, name: catalog[draft.exerciseId]?.name ?? draft.exerciseId, sets: sets)
        }
    }
}

/// Template analytics, computed on write.
enum TemplateAnalyzer {
    /// Duration: `SessionDurationEstimate` (5 minutes to warm up, then each set with its rest, longer for heavy sets).
    static func analyze(_ exercises: [TemplateExercise], catalog: [String: Exercise]) -> TemplateAnalytics {
        let totalSets = exercises.reduce(0) { $0 + $1.sets.count }
        var setsPerMuscle: [String: Int] = [:]
        for exercise in exercises where !exercise.sets.isEmpty {  // an exercise with no sets planned trains nothing
            for muscle in catalog[exercise.exerciseId]?.primaryMuscles ?? [] { setsPerMuscle[muscle, default: 0] += exercise.sets.count }
        }
        let muscles = setsPerMuscle.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        let minutes = SessionDurationEstimate.minutes(exercises.lazy.flatMap(\.sets))
        return TemplateAnalytics(estimatedDurationMinutes: minutes, totalSets: totalSets, muscles: muscles)
    }
}
