import Contracts
import Foundation
import Platform

/// The coach's tools (the permissions of docs/product.md "The coach"): reads of the user's training data and the
/// catalog, proposals that become artifacts (checked first: every exercise exists, values in range), and in
/// workout mode the workout's state and set logging.
enum CoachTools {
    static let all: [CoachToolDefinition] = core + profileTools + memoryTools + cardTools + proposalTools

    /// A day's exercises as proposals give them: catalog ids and planned sets.
    static let exercisesSchema = Schema.array(
        Schema.object(
            [
                "exercise_id": Schema.string,
                "sets": Schema.array(
                    Schema.object([
                        "target_reps": Schema.integer(minimum: 1, maximum: 50), "target_rir": Schema.integer(minimum: 0, maximum: 5),
                        "target_weight_kg": Schema.number,
                    ])),
            ], required: ["exercise_id", "sets"]))

    static let core: [CoachToolDefinition] = [
        CoachToolDefinition(
            name: "get_training_context",
            description: "The user's recent training: workouts per week, last workouts, muscles this week, main lifts' e1RM trends.",
            parameters: Schema.object([:]), workoutOnly: false),
        CoachToolDefinition(
            name: "search_exercises", description: "Searches the exercise catalog by text, muscle and equipment.",
            parameters: Schema.object(
                [
                    "query": Schema.string, "muscle": Schema.string, "equipment": Schema.string,
                    "limit": Schema.integer(minimum: 1, maximum: 20),
                ]), workoutOnly: false),
        CoachToolDefinition(
            name: "get_exercise_progress", description: "An exercise's weekly best e1RM, top weight, sets and volume.",
            parameters: Schema.object(
                ["exercise_id": Schema.string, "weeks": Schema.integer(minimum: 1, maximum: 260)], required: ["exercise_id"]),
            workoutOnly: false),
        CoachToolDefinition(
            name: "get_muscle_progress",
            description:
                "A muscle's weekly working sets (secondary muscles count half) and volume; a group (chest, back, legs, arms, shoulders, core) "
                + "sums its muscles.",
            parameters: Schema.object(["muscle": Schema.string, "weeks": Schema.integer(minimum: 1, maximum: 260)], required: ["muscle"]),
            workoutOnly: false),
        CoachToolDefinition(
            name: "query_training_sets", description: "The user's logged sets, newest first, filtered by exercise, muscle or days.",
            parameters: Schema.object(
                [
                    "exercise_id": Schema.string, "muscle": Schema.string, "from": Schema.string, "to": Schema.string,
                    "limit": Schema.integer(minimum: 1, maximum: 50),
                ]), workoutOnly: false),
        CoachToolDefinition(
            name: "get_planning_context",
            description:
                "The user's routines, the active one, and their templates (ids, versions, exercises and planned sets), for planning changes.",
            parameters: Schema.object([:]), workoutOnly: false),
        CoachToolDefinition(
            name: "show_progress_chart",
            description: "Shows the user a chart of an exercise's weekly best e1RM (a visualization artifact, drawn from their data).",
            parameters: Schema.object(
                ["exercise_id": Schema.string, "weeks": Schema.integer(minimum: 1, maximum: 260)], required: ["exercise_id"]),
            workoutOnly: false),
        CoachToolDefinition(
            name: "propose_routine",
            description:
                "Proposes a routine (one template per training day) as a routine_summary artifact the user can accept. "
                + "The server sets each set's weight from the user's history (none where there is none: the first session calibrates).",
            parameters: Schema.object(
                [
                    "name": Schema.string, "description": Schema.string, "frequency": Schema.integer(minimum: 1, maximum: 14),
                    "templates": Schema.array(
                        Schema.object(
                            [
                                "name": Schema.string,
                                "exercises": exercisesSchema,
                            ], required: ["name", "exercises"])),
                ], required: ["name", "templates"]), workoutOnly: false),
        CoachToolDefinition(
            name: "ask_clarifying_questions", description: "Asks the user questions with answer options (a clarify_questions artifact).",
            parameters: Schema.object(
                [
                    "questions": Schema.array(
                        Schema.object(
                            ["id": Schema.string, "text": Schema.string, "options": Schema.array(Schema.string)], required: ["id", "text"]))
                ], required: ["questions"]), workoutOnly: false),
        CoachToolDefinition(
            name: "get_workout_state", description: "The workout in progress: exercises, logged and remaining sets, the next set.",
            parameters: Schema.object([:]), workoutOnly: true),
        CoachToolDefinition(
            name: "log_set", description: "Logs the next unlogged set of the workout in progress.",
            parameters: Schema.object(
                [
                    "reps": Schema.integer(minimum: 0, maximum: 100), "weight_kg": Schema.number,
                    "rir": Schema.integer(minimum: 0, maximum: 10),
                ], required: ["reps"]), workoutOnly: true),
        CoachToolDefinition(
            name: "add_exercise", description: "Adds an exercise with empty sets to the workout in progress.",
            parameters: Schema.object(
                ["exercise_id": Schema.string, "sets": Schema.integer(minimum: 1, maximum: 10)], required: ["exercise_id"]),
            workoutOnly: true),
        CoachToolDefinition(
            name: "swap_exercise", description: "Replaces an exercise of the workout in progress; logged sets stay with the old one.",
            parameters: Schema.object(
                ["exercise_instance_id": Schema.string, "new_exercise_id": Schema.string],
                required: ["exercise_instance_id", "new_exercise_id"]), workoutOnly: true),
        CoachToolDefinition(
            name: "prescribe_set", description: "Sets the next unlogged set's targets (reps, weight, RIR).",
            parameters: Schema.object(
                [
                    "target_reps": Schema.integer(minimum: 1, maximum: 50), "target_weight_kg": Schema.number,
                    "target_rir": Schema.integer(minimum: 0, maximum: 5),
                ]), workoutOnly: true),
        CoachToolDefinition(
            name: "complete_workout", description: "Finishes the workout in progress (at least one set must be logged).",
            parameters: Schema.object([:]), workoutOnly: true),
        CoachToolDefinition(
            name: "cancel_workout",
            description:
                "Cancels the workout in progress with nothing saved to the history: only when the user asks to cancel or discard it.",
            parameters: Schema.object([:]), workoutOnly: true),
    ]

    struct ProgressArguments: Decodable {
        var exerciseId: String
        var weeks: Int?
        enum CodingKeys: String, CodingKey {
            case exerciseId = "exercise_id"
            case weeks
        }
    }

    struct SearchArguments: Decodable {
        var query: String?
        var muscle: String?
        var equipment: String?
        var limit: Int?
    }

    struct Question: Codable, Sendable {
        var id: String
        var text: String
        var options: [String]?
    }

    struct QuestionsArguments: Decodable {
        var questions: [Question]
    }

    struct LogSetArguments: Decodable {
        var reps: Int
        var weightKg: Double?
        var rir: Int?
        enum CodingKeys: String, CodingKey {
            case reps
            case weightKg = "weight_kg"
            case rir
        }
    }

    static func run(_ name: String, arguments: JSONValue, in box: CoachToolbox) async throws -> JSONValue {
        let services = box.services
        switch name {
        case "get_training_context":
            return try JSONValue(encoding: try await services.analytics.trainingContext(userId: box.userId))
        case "search_exercises":
            let input = try arguments.decode(SearchArguments.self)
            let page = try await services.catalog.search(
                ExerciseQuery(
                    text: input.query, muscle: input.muscle, equipment: input.equipment, limit: min(max(input.limit ?? 10, 1), 20)))
            return .object([
                "items": .array(
                    page.items.map { exercise in
                        [
                            "id": .string(exercise.id), "name": .string(exercise.name),
                            "equipment": exercise.equipment.map(JSONValue.string) ?? .null,
                            "primary_muscles": .array(exercise.primaryMuscles.map(JSONValue.string)),
                        ]
                    })
            ])
        case "get_exercise_progress":
            let input = try arguments.decode(ProgressArguments.self)
            let exercise = try await knownExercise(input.exerciseId, services: services)
            let points = try await services.analytics.exerciseProgress(
                userId: box.userId, exerciseId: exercise.id, weeks: input.weeks ?? 12)
            return ["exercise_id": .string(exercise.id), "name": .string(exercise.name), "points": try JSONValue(encoding: points)]
        case "get_muscle_progress":
            struct Arguments: Decodable {
                var muscle: String
                var weeks: Int?
            }
            let input = try arguments.decode(Arguments.self)
            let points = try await MuscleWeeks.weeks(
                named: input.muscle, userId: box.userId, weeks: input.weeks ?? 12, analytics: services.analytics)
            return ["muscle": .string(input.muscle), "points": try JSONValue(encoding: points)]
        case "query_training_sets":
            struct Arguments: Decodable {
                var exerciseId: String?
                var muscle: String?
                var from: String?
                var to: String?
                var limit: Int?
                enum CodingKeys: String, CodingKey {
                    case exerciseId = "exercise_id"
                    case muscle, from, to, limit
                }
            }
            let input = try arguments.decode(Arguments.self)
            let page = try await services.analytics.trainingSets(
                userId: box.userId,
                query: TrainingSetQuery(
                    exerciseId: input.exerciseId, muscle: input.muscle, from: input.from, to: input.to,
                    limit: min(max(input.limit ?? 20, 1), 50)))
            return ["items": try JSONValue(encoding: page.items)]
        case "get_planning_context":
            let active = try await services.plans.activeRoutine(userId: box.userId)
            let templates = try await services.plans.templates(userId: box.userId).prefix(30)
            let routines = try await services.plans.routines(userId: box.userId).suffix(10)
            return [
                "active_routine": try active.map { try JSONValue(encoding: ["id": $0.id, "name": $0.name]) } ?? .null,
                "active_template_ids": .array((active?.templateIds ?? []).map(JSONValue.string)),
                "routines": .array(
                    routines.map { routine in
                        [
                            "id": .string(routine.id), "name": .string(routine.name),
                            "template_ids": .array(routine.templateIds.map(JSONValue.string)),
                        ]
                    }),
                "templates": .array(
                    try templates.map { template in
                        [
                            "id": .string(template.id), "name": .string(template.name), "version": .int(template.version),
                            "exercises": .array(
                                try template.exercises.prefix(15).map { exercise in
                                    [
                                        "exercise_id": .string(exercise.exerciseId), "name": .string(exercise.name),
                                        "sets": try JSONValue(encoding: exercise.sets),
                                    ]
                                }),
                        ]
                    }),
            ]
        case "show_progress_chart":
            let input = try arguments.decode(ProgressArguments.self)
            let exercise = try await knownExercise(input.exerciseId, services: services)
            let points = try await services.analytics.exerciseProgress(
                userId: box.userId, exerciseId: exercise.id, weeks: input.weeks ?? 12)
            let artifact = try await box.propose(
                .visualization, title: "\(exercise.name): estimated 1RM",
                data: [
                    "chart": "line", "exercise_id": .string(exercise.id), "metric": "e1rm_kg", "unit": "kg",
                    "points": .array(
                        points.map { ["week_start": .string($0.weekStart), "value": .double($0.e1rmKg.roundedToTenth)] }),
                ])
            return ["artifact_id": .string(artifact.id), "points": .int(points.count)]
        case "propose_routine":
            let checked = try await RoutineCritic(catalog: services.catalog).check(try arguments.decode(RoutinePlan.self))
            try await RoutineCritic(catalog: services.catalog).checkEquipment(
                checked.templates, equipment: box.requestedEquipment, field: { "templates[\($0)]." })
            let plan = try await box.startingWeights().weighed(checked)
            let names = try await RoutineCritic(catalog: services.catalog).names(plan)
            let artifact = try await box.propose(.routineSummary, title: plan.name, data: try RoutineSummaryData.make(plan, names: names))
            return ["artifact_id": .string(artifact.id)]
        case "ask_clarifying_questions":
            let input = try arguments.decode(QuestionsArguments.self)
            guard (1...5).contains(input.questions.count) else {
                throw ServiceError.invalidArgument(field: "questions", reason: "must hold 1 to 5 questions")
            }
            let artifact = try await box.propose(
                .clarifyQuestions, title: "A few questions", data: ["questions": try JSONValue(encoding: input.questions)])
            return ["artifact_id": .string(artifact.id)]
        case "get_workout_state":
            let workout = try await activeWorkout(box)
            guard case .object(var state) = try JSONValue(encoding: WorkoutBrief(workout).state) else { return [:] }
            // What the lifter did last time in the exercise that comes next, as the copilot says it.
            if let (exercise, _) = WorkoutBrief.nextSet(of: workout),
                let last = try await LastSession.sentence(
                    exerciseId: exercise.exerciseId, excluding: workout.id, userId: box.userId, analytics: services.analytics,
                    unit: box.weightUnit)
            {
                state["last_time"] = .string(last)
            }
            return .object(state)
        case "log_set":
            let input = try arguments.decode(LogSetArguments.self)
            let logged = try await SetLogger(workouts: services.workouts).logNext(
                userId: box.userId, workout: try await activeWorkout(box),
                entry: SetEntry(reps: input.reps, weightKg: input.weightKg, rir: input.rir), idempotencyKey: box.writeKey(name))
            // What was logged as the user reads it, for the model to say as it is (the numbers stay kilograms).
            guard case .object(var answer) = try JSONValue(encoding: logged) else { return [:] }
            answer["summary"] = .string(FastLane.sentence(logged, unit: box.weightUnit))
            return .object(answer)
        case "add_exercise", "swap_exercise", "prescribe_set", "complete_workout", "cancel_workout":
            // The functional lane's intents, as tools: the tool's name in capitals is the intent's.
            let input = try arguments.decode(Intent.self, adding: name.uppercased())
            return try JSONValue(
                encoding: try await WorkoutActions(services: services).run(
                    input, userId: box.userId, workoutId: box.workoutId, key: box.writeKey(name), unit: box.weightUnit
                ).state)
        default:
            if let result = try await runMemory(name, arguments: arguments, in: box) { return result }
            if let result = try await runCard(name, arguments: arguments, in: box) { return result }
            return try await runMore(name, arguments: arguments, in: box)
        }
    }

    static func knownExercise(_ id: String, services: CoachServices) async throws -> Exercise {
        guard let exercise = try await services.catalog.exercise(id: id) else {
            throw ServiceError.invalidArgument(field: "exercise_id", reason: "no exercise \(id) in the catalog")
        }
        return exercise
    }

    /// The workout the turn is attached to, while it is in progress.
    static func activeWorkout(_ box: CoachToolbox) async throws -> ActiveWorkout {
        guard let workout = try await box.services.workouts.activeWorkout(userId: box.userId),
            box.workoutId == nil || workout.id == box.workoutId
        else { throw ServiceError(.failedPrecondition, "No workout is in progress. Start one, then log your sets here.") }
        return workout
    }
}
