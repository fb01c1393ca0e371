import Contracts
import Foundation
import Platform

/// The tools that propose changes the user then accepts or not (docs/product.md: they return artifacts and never write):
/// a session to train, changes to a template, changes to a routine. Each is checked first, so what the user
/// accepts can be applied; a change is stated against the version it was made from, so accepting it after the
/// template or routine changed elsewhere is `CONFLICT` rather than a silent overwrite. Every planned set's weight is
/// the server's (`StartingWeights`), whatever weight the arguments carried.
extension CoachTools {
    static let proposalTools: [CoachToolDefinition] = [
        CoachToolDefinition(
            name: "propose_workout",
            description:
                "Proposes one session as a session_plan artifact the user can start or save: a template of theirs (template_id), "
                + "or exercises with planned sets.",
            parameters: Schema.object(["template_id": Schema.string, "name": Schema.string, "exercises": exercisesSchema]),
            workoutOnly: false),
        CoachToolDefinition(
            name: "update_template",
            description:
                "Proposes new exercises for one of the user's templates (the whole list, in order); accepting the artifact applies it.",
            parameters: Schema.object(
                ["template_id": Schema.string, "exercises": exercisesSchema], required: ["template_id", "exercises"]),
            workoutOnly: false),
        CoachToolDefinition(
            name: "update_routine",
            description:
                "Proposes changes to one of the user's routines: name, description, sessions per week, or its templates (ids, in order); "
                + "accepting the artifact applies them.",
            parameters: Schema.object(
                [
                    "routine_id": Schema.string, "name": Schema.string, "description": Schema.string,
                    "frequency": Schema.integer(minimum: 1, maximum: 14), "template_ids": Schema.array(Schema.string),
                ], required: ["routine_id"]), workoutOnly: false),
    ]

    struct SessionArguments: Decodable {
        var templateId: String?
        var name: String?
        var exercises: [PlannedExercise]?
        enum CodingKeys: String, CodingKey {
            case templateId = "template_id"
            case name, exercises
        }
    }

    struct TemplateUpdateArguments: Decodable {
        var templateId: String
        var exercises: [PlannedExercise]
        enum CodingKeys: String, CodingKey {
            case templateId = "template_id"
            case exercises
        }
    }

    struct RoutineUpdateArguments: Decodable {
        var routineId: String
        var name: String?
        var description: String?
        var frequency: Int?
        var templateIds: [String]?
        enum CodingKeys: String, CodingKey {
            case routineId = "routine_id"
            case name, description, frequency
            case templateIds = "template_ids"
        }
    }

    static func runProposal(_ name: String, arguments: JSONValue, in box: CoachToolbox) async throws -> JSONValue {
        let services = box.services
        let critic = RoutineCritic(catalog: services.catalog)
        switch name {
        case "propose_workout":
            let input = try arguments.decode(SessionArguments.self)
            let artifact: Artifact
            if let templateId = input.templateId {
                let template = try await services.plans.template(userId: box.userId, id: templateId)
                let routine = try await services.plans.activeRoutine(userId: box.userId)
                artifact = try await box.propose(
                    .sessionPlan, title: template.name,
                    data: SessionPlanData.make(
                        name: template.name, exercises: template.exercises.map { ($0.exerciseId, $0.name, $0.sets) },
                        extra: [
                            "template_id": .string(template.id),
                            "routine_id": routine.flatMap { $0.templateIds.contains(template.id) ? .string($0.id) : nil } ?? .null,
                        ]))
            } else {
                guard let exercises = input.exercises else {
                    throw ServiceError.invalidArgument(field: "exercises", reason: "give a template_id or the exercises of the session")
                }
                var plan = TemplatePlan(name: input.name ?? "Workout", exercises: exercises)
                try await critic.checkDay(plan, field: "")
                try await critic.checkEquipment([plan], equipment: box.requestedEquipment, field: { _ in "" })
                plan.exercises = try await box.startingWeights().weighed(plan.exercises)
                let names = try await critic.names(of: plan.exercises)
                artifact = try await box.propose(
                    .sessionPlan, title: plan.name,
                    data: SessionPlanData.make(
                        name: plan.name, exercises: plan.exercises.map { ($0.exerciseId, names[$0.exerciseId] ?? $0.exerciseId, $0.sets) }))
            }
            return ["artifact_id": .string(artifact.id)]
        case "update_template":
            let input = try arguments.decode(TemplateUpdateArguments.self)
            let template = try await services.plans.template(userId: box.userId, id: input.templateId)
            // Not held to the equipment the message names: the template's other exercises are the user's already.
            var plan = TemplatePlan(name: template.name, exercises: input.exercises)
            try await critic.checkDay(plan, field: "")
            // The template's exercises keep its weights; new ones start from the user's history, or calibrate.
            plan.exercises = try await box.startingWeights().weighed(plan.exercises, keeping: template.exercises)
            let names = try await critic.names(of: plan.exercises)
            let artifact = try await box.propose(
                .templateUpdate, title: "\(template.name): changes",
                data: SessionPlanData.make(
                    name: template.name, exercises: plan.exercises.map { ($0.exerciseId, names[$0.exerciseId] ?? $0.exerciseId, $0.sets) },
                    extra: [
                        "template_id": .string(template.id), "expected_version": .int(template.version),
                        "previous_exercises": .array(template.exercises.map { .string($0.name) }),
                    ]))
            return ["artifact_id": .string(artifact.id)]
        case "update_routine":
            let input = try arguments.decode(RoutineUpdateArguments.self)
            let routine = try await services.plans.routine(userId: box.userId, id: input.routineId)
            let changes = RoutineChanges(
                name: input.name, description: input.description, frequency: input.frequency, templateIds: input.templateIds)
            let artifact = try await box.propose(
                .routineUpdate, title: input.name ?? routine.name,
                data: try await RoutineUpdateData.make(
                    routine: routine, expectedVersion: routine.version, changes: changes, userId: box.userId, plans: services.plans))
            return ["artifact_id": .string(artifact.id)]
        default:
            throw ServiceError.invalidArgument(field: "tool", reason: "no tool named \(name)")
        }
    }
}
