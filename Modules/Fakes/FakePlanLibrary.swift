import Contracts
import Foundation

/// Templates and routines in memory, validated against a fixed catalog.
public actor FakePlanLibrary: PlanLibrary {
    private let catalog: [String: Exercise]
    private let clock: any WallClock
    private let ids: any IDGenerator
    private var templates: [WorkoutTemplate] = []
    private var routines: [Routine] = []
    private var active: [String: String] = [:]
    private var keyed: [String: (plan: RoutinePlan, created: CreatedRoutine)] = [:]
    private var keyedTemplates: [String: (plan: TemplatePlan, template: WorkoutTemplate)] = [:]
    private var keyedChanges: [String: (request: String, answer: any Sendable)] = [:]

    public init(catalog: [Exercise], clock: any WallClock, ids: any IDGenerator) {
        self.catalog = Dictionary(catalog.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.clock = clock
        self.ids = ids
    }

    public func templates(userId: String) async throws -> [WorkoutTemplate] {
        templates.filter { $0.userId == userId }
    }

    public func template(userId: String, id: String) async throws -> WorkoutTemplate {
        guard let template = templates.first(where: { $0.id == id && $0.userId == userId }) else {
            throw ServiceError(.notFound, "That template does not exist.", details: ["template_id": id])
        }
        return template
    }

    public func routines(userId: String) async throws -> [Routine] {
        routines.filter { $0.userId == userId }
    }

    public func routine(userId: String, id: String) async throws -> Routine {
        guard let routine = routines.first(where: { $0.id == id && $0.userId == userId }) else {
            throw ServiceError(.notFound, "That routine does not exist.", details: ["routine_id": id])
        }
        return routine
    }

    public func activeRoutine(userId: String) async throws -> Routine? {
        active[userId].flatMap { id in routines.first { $0.id == id } }
    }

    public func createRoutine(userId: String, plan: RoutinePlan, activate: Bool, idempotencyKey: String?) async throws -> CreatedRoutine {
        if let key = idempotencyKey, let first = keyed[userId + "\n" + key] {
            guard first.plan == plan else {
                throw ServiceError(
                    .conflict, "This idempotency key was already used for a different request.", details: ["idempotency_key": key])
            }
            return first.created
        }
        let name = try Self.name(plan.name, field: "name")
        if let description = plan.description {
            if description.utf8.contains(0) {
                throw ServiceError.invalidArgument(field: "description", reason: "must not contain the NUL character")
            }
            if description.unicodeScalars.count > 2000 {
                throw ServiceError.invalidArgument(field: "description", reason: "longer than 2000 characters")
            }
        }
        if let frequency = plan.frequency, !(1...14).contains(frequency) {
            throw ServiceError.invalidArgument(field: "frequency", reason: "must be from 1 to 14")
        }
        guard (1...30).contains(plan.templates.count) else {
            throw ServiceError.invalidArgument(field: "templates", reason: "must hold 1 to 30 templates")
        }
        // As the live library: template by template, its name then its exercises, fields named within it.
        var drafts: [(name: String, exercises: [TemplateExercise])] = []
        for (index, template) in plan.templates.enumerated() {
            let name = try Self.name(template.name, field: "templates[\(index)].name")
            do {
                drafts.append((name, try resolve(template.exercises)))
            } catch let error as ServiceError {
                throw error.nested(under: "templates[\(index)].")
            }
        }
        let now = clock.now()
        // A millisecond apart, as live, so the user's templates list in the plan's order.
        let created = drafts.enumerated().map { index, draft in
            let createdAt = now.addingTimeInterval(Double(index) / 1000)
            return WorkoutTemplate(
                id: ids.makeID(), userId: userId, name: draft.name, description: nil, exercises: draft.exercises,
                analytics: analytics(draft.exercises), version: 1, createdAt: createdAt, updatedAt: createdAt)
        }
        let routine = Routine(
            id: ids.makeID(), userId: userId, name: name,
            description: plan.description.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 },
            templateIds: created.map(\.id), frequency: plan.frequency, lastCompletedTemplateId: nil, lastCompletedAt: nil, version: 1,
            createdAt: now, updatedAt: now)
        templates += created
        routines.append(routine)
        if activate { active[userId] = routine.id }
        let answer = CreatedRoutine(routine: routine, templates: created)
        if let key = idempotencyKey { keyed[userId + "\n" + key] = (plan, answer) }
        return answer
    }

    public func createTemplate(userId: String, plan: TemplatePlan, idempotencyKey: String?) async throws -> WorkoutTemplate {
        if let key = idempotencyKey, let first = keyedTemplates[userId + "\n" + key] {
            guard first.plan == plan else {
                throw ServiceError(
                    .conflict, "This idempotency key was already used for a different request.", details: ["idempotency_key": key])
            }
            return first.template
        }
        let name = try Self.name(plan.name, field: "name")
        let exercises = try resolve(plan.exercises)
        let now = clock.now()
        let template = WorkoutTemplate(
            id: ids.makeID(), userId: userId, name: name, description: nil, exercises: exercises, analytics: analytics(exercises),
            version: 1,
            createdAt: now, updatedAt: now)
        templates.append(template)
        if let key = idempotencyKey { keyedTemplates[userId + "\n" + key] = (plan, template) }
        return template
    }

    /// Checks the exercises before the version, as the live library does (a stale version with an unknown
    /// exercise is INVALID_ARGUMENT).
    public func applyTemplateChanges(
        userId: String, templateId: String, expectedVersion: Int, exercises: [PlannedExercise], idempotencyKey: String?
    ) async throws -> WorkoutTemplate {
        try keyed(userId: userId, key: idempotencyKey, request: "\(templateId)|\(expectedVersion)|\(exercises)") {
            try replaceExercises(userId: userId, templateId: templateId, expectedVersion: expectedVersion, exercises: exercises)
        }
    }

    public func updateRoutine(userId: String, routineId: String, expectedVersion: Int, changes: RoutineChanges, idempotencyKey: String?)
        async throws -> Routine
    {
        try keyed(userId: userId, key: idempotencyKey, request: "\(routineId)|\(expectedVersion)|\(changes)") {
            guard changes != RoutineChanges() else {
                throw ServiceError.invalidArgument(
                    field: "changes", reason: "name at least one of name, description, frequency, template_ids")
            }
            let name = try changes.name.map { try Self.name($0, field: "name") }
            if let frequency = changes.frequency, !(1...14).contains(frequency) {
                throw ServiceError.invalidArgument(field: "frequency", reason: "must be from 1 to 14")
            }
            guard let index = routines.firstIndex(where: { $0.id == routineId && $0.userId == userId }) else {
                throw ServiceError(.notFound, "That routine does not exist.", details: ["routine_id": routineId])
            }
            guard routines[index].version == expectedVersion else {
                throw ServiceError(
                    .conflict, details: ["current_version": "\(routines[index].version)", "expected_version": "\(expectedVersion)"])
            }
            for id in changes.templateIds ?? [] where !templates.contains(where: { $0.id == id && $0.userId == userId }) {
                throw ServiceError(.notFound, "That template does not exist.", details: ["template_id": id])
            }
            let before = routines[index]
            if let name { routines[index].name = name }
            if let description = changes.description {
                routines[index].description = description.allSatisfy(\.isWhitespace) ? nil : description
            }
            if let frequency = changes.frequency { routines[index].frequency = frequency }
            if let ids = changes.templateIds { routines[index].templateIds = ids }
            // Repeating what is stored makes no new version, as live.
            guard routines[index] != before else { return before }
            routines[index].version += 1
            routines[index].updatedAt = clock.now()
            return routines[index]
        }
    }

    /// Runs a change once per idempotency key: a repeat with the same request answers the first answer, another
    /// request under the key is CONFLICT.
    private func keyed<Answer: Sendable>(userId: String, key: String?, request: String, _ change: () throws -> Answer) throws -> Answer {
        guard let key else { return try change() }
        if let first = keyedChanges[userId + "\n" + key] {
            guard first.request == request, let answer = first.answer as? Answer else {
                throw ServiceError(
                    .conflict, "This idempotency key was already used for a different request.", details: ["idempotency_key": key])
            }
            return answer
        }
        let answer = try change()
        keyedChanges[userId + "\n" + key] = (request, answer)
        return answer
    }

    private func replaceExercises(
        userId: String, templateId: String, expectedVersion: Int, exercises: [PlannedExercise]
    ) throws -> WorkoutTemplate {
        // An unknown exercise is reported once the template is found, as the live library does: another user's
        // template is NOT_FOUND whatever the changes name. Other bad values are refused first.
        let resolved: Result<[TemplateExercise], ServiceError>
        do {
            resolved = .success(try resolve(exercises))
        } catch let error as ServiceError where error.details["reason"] == "unknown exercise" {
            resolved = .failure(error)
        }
        guard let index = templates.firstIndex(where: { $0.id == templateId && $0.userId == userId }) else {
            throw ServiceError(.notFound, "That template does not exist.", details: ["template_id": templateId])
        }
        let exercises = try resolved.get()
        guard templates[index].version == expectedVersion else {
            throw ServiceError(
                .conflict, details: ["current_version": "\(templates[index].version)", "expected_version": "\(expectedVersion)"])
        }
        // Repeating what is stored makes no new version, as live.
        guard templates[index].exercises != exercises || templates[index].analytics != analytics(exercises) else { return templates[index] }
        templates[index].exercises = exercises
        templates[index].analytics = analytics(exercises)
        templates[index].version += 1
        templates[index].updatedAt = clock.now()
        return templates[index]
    }

    /// A name trimmed of spaces and line breaks, 1 to 100 code points (as live), without the NUL character.
    private static func name(_ value: String, field: String) throws -> String {
        if value.utf8.contains(0) { throw ServiceError.invalidArgument(field: field, reason: "must not contain the NUL character") }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.count <= 100 else {
            throw ServiceError.invalidArgument(field: field, reason: "must be 1 to 100 characters")
        }
        return trimmed
    }

    /// Up to 50 exercises of the catalog, each with up to 30 sets of reps 0-1000, RIR 0-10 and 0-1000 kg.
    private func resolve(_ planned: [PlannedExercise]) throws -> [TemplateExercise] {
        guard planned.count <= 50 else { throw ServiceError.invalidArgument(field: "exercises", reason: "at most 50 exercises") }
        // Every exercise id first, as the live library looks them all up before checking sets.
        for (index, exercise) in planned.enumerated() where catalog[exercise.exerciseId] == nil {
            throw ServiceError.invalidArgument(field: "exercises[\(index)].exercise_id", reason: "unknown exercise")
        }
        return try planned.enumerated().map { index, exercise in
            guard let known = catalog[exercise.exerciseId] else {
                throw ServiceError.invalidArgument(field: "exercises[\(index)].exercise_id", reason: "unknown exercise")
            }
            guard exercise.sets.count <= 30 else {
                throw ServiceError.invalidArgument(field: "exercises[\(index)].sets", reason: "at most 30 sets")
            }
            for (setIndex, set) in exercise.sets.enumerated() {
                let field = "exercises[\(index)].sets[\(setIndex)]"
                if let reps = set.targetReps, !(0...1000).contains(reps) {
                    throw ServiceError.invalidArgument(field: "\(field).target_reps", reason: "must be from 0 to 1000")
                }
                if let rir = set.targetRir, !(0...10).contains(rir) {
                    throw ServiceError.invalidArgument(field: "\(field).target_rir", reason: "must be from 0 to 10")
                }
                if let weight = set.targetWeightKg, !weight.isFinite || !(0...1000).contains(weight) {
                    throw ServiceError.invalidArgument(field: "\(field).target_weight_kg", reason: "must be from 0 to 1000 kg")
                }
            }
            // -0 kg is 0, as the live library stores it.
            let sets = exercise.sets.map { set in
                var set = set
                if set.targetWeightKg == 0 { set.targetWeightKg = 0 }
                return set
            }
            return TemplateExercise(exerciseId: known.id, name: known.name, sets: sets)
        }
    }

    /// Duration as the live library estimates it; muscles most-trained first (by sets), then by name.
    private func analytics(_ exercises: [TemplateExercise]) -> TemplateAnalytics {
        let sets = exercises.reduce(0) { $0 + $1.sets.count }
        var setsPerMuscle: [String: Int] = [:]
        for exercise in exercises where !exercise.sets.isEmpty {  // an exercise with no sets planned trains nothing
            for muscle in catalog[exercise.exerciseId]?.primaryMuscles ?? [] { setsPerMuscle[muscle, default: 0] += exercise.sets.count }
        }
        let muscles = setsPerMuscle.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
        return TemplateAnalytics(
            estimatedDurationMinutes: SessionDurationEstimate.minutes(exercises.lazy.flatMap(\.sets)), totalSets: sets,
            muscles: muscles)
    }
}
