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
            throw ServiceError(.notFound, "That template does not exist.", details: ["id": id])
        }
        return template
    }

    public func activeRoutine(userId: String) async throws -> Routine? {
        active[userId].flatMap { id in routines.first { $0.id == id } }
    }

    public func createRoutine(userId: String, plan: RoutinePlan) async throws -> CreatedRoutine {
        guard !plan.name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ServiceError.invalidArgument(field: "name", reason: "must be 1 to 100 characters")
        }
        guard (1...30).contains(plan.templates.count) else {
            throw ServiceError.invalidArgument(field: "templates", reason: "must hold 1 to 30 templates")
        }
        let resolved = try plan.templates.map { try resolve($0.exercises) }
        let now = clock.now()
        let created = zip(plan.templates, resolved).map { template, exercises in
            WorkoutTemplate(
                id: ids.makeID(), userId: userId, name: template.name, description: nil, exercises: exercises, analytics: analytics(exercises),
                version: 1, createdAt: now, updatedAt: now)
        }
        let routine = Routine(
            id: ids.makeID(), userId: userId, name: plan.name, description: plan.description, templateIds: created.map(\.id),
            frequency: plan.frequency, lastCompletedTemplateId: nil, lastCompletedAt: nil, version: 1, createdAt: now, updatedAt: now)
        templates += created
        routines.append(routine)
        active[userId] = routine.id
        return CreatedRoutine(routine: routine, templates: created)
    }

    public func applyTemplateChanges(
        userId: String, templateId: String, expectedVersion: Int, exercises: [PlannedExercise]
    ) async throws -> WorkoutTemplate {
        guard let index = templates.firstIndex(where: { $0.id == templateId && $0.userId == userId }) else {
            throw ServiceError(.notFound, "That template does not exist.", details: ["id": templateId])
        }
        guard templates[index].version == expectedVersion else {
            throw ServiceError(.conflict, details: ["current_version": "\(templates[index].version)", "expected_version": "\(expectedVersion)"])
        }
        let resolved = try resolve(exercises)
        templates[index].exercises = resolved
        templates[index].analytics = analytics(resolved)
        templates[index].version += 1
        templates[index].updatedAt = clock.now()
        return templates[index]
    }

    private func resolve(_ planned: [PlannedExercise]) throws -> [TemplateExercise] {
        try planned.enumerated().map { index, exercise in
            guard let known = catalog[exercise.exerciseId] else {
                throw ServiceError.invalidArgument(field: "exercises[\(index)].exercise_id", reason: "unknown exercise")
            }
            for (setIndex, set) in exercise.sets.enumerated() {
                if let reps = set.targetReps, !(0...1000).contains(reps) {
                    throw ServiceError.invalidArgument(field: "exercises[\(index)].sets[\(setIndex)].target_reps", reason: "must be from 0 to 1000")
                }
                if let rir = set.targetRir, !(0...10).contains(rir) {
                    throw ServiceError.invalidArgument(field: "exercises[\(index)].sets[\(setIndex)].target_rir", reason: "must be from 0 to 10")
                }
            }
            return TemplateExercise(exerciseId: known.id, name: known.name, sets: exercise.sets)
        }
    }

    private func analytics(_ exercises: [TemplateExercise]) -> TemplateAnalytics {
        let sets = exercises.reduce(0) { $0 + $1.sets.count }
        var muscles: [String] = []
        for exercise in exercises {
            for muscle in catalog[exercise.exerciseId]?.primaryMuscles ?? [] where !muscles.contains(muscle) { muscles.append(muscle) }
        }
        return TemplateAnalytics(estimatedDurationMinutes: sets == 0 ? 0 : 5 + Int((Double(sets) * 2.5).rounded(.up)), totalSets: sets, muscles: muscles)
    }
}
