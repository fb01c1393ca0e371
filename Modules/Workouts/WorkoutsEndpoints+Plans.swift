import Contracts
import Foundation
import Platform

struct SearchExercisesInput: Decodable, Sendable {
    var query: String?
    var muscle: String?
    var equipment: String?
    var category: String?
    var limit: Int?
    var cursor: String?
}

struct ExerciseIDInput: Decodable, Sendable {
    var exerciseId: String
    enum CodingKeys: String, CodingKey { case exerciseId = "exercise_id" }
}

struct TemplateIDInput: Decodable, Sendable {
    var templateId: String
    enum CodingKeys: String, CodingKey { case templateId = "template_id" }
}

struct RoutineIDInput: Decodable, Sendable {
    var routineId: String
    enum CodingKeys: String, CodingKey { case routineId = "routine_id" }
}

struct OptionalRoutineIDInput: Decodable, Sendable {
    var routineId: String?
    enum CodingKeys: String, CodingKey { case routineId = "routine_id" }
}

/// `setActiveRoutine`: `routine_id` must be sent; null clears the active routine (a body without it is a
/// mistake, not a request to clear).
struct SetActiveRoutineInput: Decodable, Sendable {
    var routineId: String?
    enum CodingKeys: String, CodingKey { case routineId = "routine_id" }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.routineId) else {
            throw DecodingError.keyNotFound(
                CodingKeys.routineId, .init(codingPath: container.codingPath, debugDescription: "routine_id is required (null clears it)"))
        }
        routineId = try container.decodeIfPresent(String.self, forKey: .routineId)
    }
}

/// The changes a patch carries (`updateWorkout`, `patchTemplate`, `patchRoutine`): every field optional, and
/// `init()` the patch that changes nothing.
protocol PatchChanges: Decodable, Equatable {
    init()
}

extension PatchChanges {
    /// Nothing named to change: such a patch is refused rather than written (it would still bump the version or
    /// publish an edit).
    var changesNothing: Bool { self == Self() }

    static func nothingToChange(_ fields: String) -> ServiceError {
        ServiceError.invalidArgument(field: "changes", reason: "holds nothing to change", message: "Send \(fields) to change it.")
    }
}

/// Where a patch's changes come: inside `changes`, or at the top level. Both at once is refused, or the
/// top-level fields would be dropped unseen.
enum ChangesField {
    private enum Key: String, CodingKey {
        case changes
    }

    static func decode<T: PatchChanges>(_ type: T.Type, from decoder: any Decoder) throws -> T {
        let container = try decoder.container(keyedBy: Key.self)
        let topLevel = try T(from: decoder)
        guard container.contains(.changes) else { return topLevel }
        guard topLevel.changesNothing else {
            throw ServiceError.invalidArgument(
                field: "changes", reason: "sent beside top-level fields",
                message: "Send the changes either inside 'changes' or at the top level, not both.")
        }
        return try container.decode(T.self, forKey: .changes)
    }
}

/// `patchTemplate`: the changes at the top level or inside `changes`.
struct PatchTemplateInput: Decodable, Sendable {
    var templateId: String
    var expectedVersion: Int?
    var changes: TemplatePatch

    enum CodingKeys: String, CodingKey {
        case templateId = "template_id"
        case expectedVersion = "expected_version"
        case changes
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        templateId = try container.decode(String.self, forKey: .templateId)
        expectedVersion = try container.decodeIfPresent(Int.self, forKey: .expectedVersion)
        changes = try ChangesField.decode(TemplatePatch.self, from: decoder)
    }
}

/// `patchRoutine`: the changes at the top level or inside `changes`; legacy `templateIds` accepted.
struct PatchRoutineInput: Decodable, Sendable {
    var routineId: String
    var expectedVersion: Int?
    var changes: RoutinePatch

    enum CodingKeys: String, CodingKey {
        case routineId = "routine_id"
        case expectedVersion = "expected_version"
        case changes
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        routineId = try container.decode(String.self, forKey: .routineId)
        expectedVersion = try container.decodeIfPresent(Int.self, forKey: .expectedVersion)
        changes = try ChangesField.decode(RoutinePatch.self, from: decoder)
    }
}

/// A page asked of a list: how many, after which cursor.
struct PageInput: Decodable, Sendable {
    var limit: Int?
    var cursor: String?
}

struct ItemsOutput<Item: Encodable & Sendable>: Encodable, Sendable {
    var items: [Item]
    var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case items
        case nextCursor = "next_cursor"
    }
}

struct ActiveRoutineOutput: Codable, Sendable {
    var activeRoutineId: String?

    enum CodingKeys: String, CodingKey { case activeRoutineId = "active_routine_id" }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activeRoutineId, forKey: .activeRoutineId)
    }
}

extension WorkoutsModule {
    static let tag = "Workouts"

    /// The seeds' camelCase name of a routine's templates, read as `template_ids`.
    static let routineAliases = ["template_ids": "templateIds"]

    func planEndpoints() -> [Endpoint] {
        let tag = Self.tag
        let catalog = self.catalog
        let templates = self.templates
        let routines = self.routines
        let database = context.database
        let key = WorkoutsSchemas.idempotencyKey
        let templatePatchProperties: [String: JSONValue] = [
            "name": Schema.name(maxLength: 100), "description": Schema.string(maxLength: 2000),
            "exercises": Schema.array(WorkoutsSchemas.exerciseDraft),
        ]
        let routineProperties: [String: JSONValue] = [
            "name": Schema.name(maxLength: 100), "description": Schema.string(maxLength: 2000),
            "template_ids": Schema.array(Schema.string),
            "frequency": Schema.integer(minimum: 1, maximum: 14),
        ]
        return [
            .rpc(
                "searchExercises", access: .user, tag: tag, readOnly: true,
                summary: "Search the catalog by name (prefix- and typo-tolerant), muscle, equipment and category.",
                request: Schema.object([
                    "query": Schema.string, "muscle": Schema.string, "equipment": Schema.string, "category": Schema.string,
                    "limit": Schema.integer(minimum: 1, maximum: 100), "cursor": Schema.string,
                ]),
                response: WorkoutsSchemas.items(WorkoutsSchemas.exercise), input: SearchExercisesInput.self
            ) { input, _ in
                try await catalog.searchJSON(
                    ExerciseQuery(
                        text: input.query, muscle: input.muscle, equipment: input.equipment, category: input.category,
                        limit: input.limit ?? 20, cursor: input.cursor))
            },
            .rpc(
                "getExercise", access: .user, tag: tag, readOnly: true, summary: "One catalog exercise.",
                request: Schema.object(["exercise_id": Schema.string], required: ["exercise_id"]), response: WorkoutsSchemas.exercise,
                input: ExerciseIDInput.self
            ) { input, _ in
                guard let exercise = try await catalog.exerciseJSON(id: input.exerciseId) else {
                    throw ServiceError(.notFound, "That exercise does not exist.", details: ["exercise_id": input.exerciseId])
                }
                return exercise
            },
            .rpc(
                "createTemplate", access: .user, tag: tag, summary: "Create a workout template.",
                request: Schema.object(
                    [
                        "name": Schema.name(maxLength: 100), "description": Schema.string(maxLength: 2000),
                        "exercises": Schema.array(WorkoutsSchemas.exerciseDraft), "idempotency_key": key,
                    ],
                    required: ["name", "exercises"]),
                response: WorkoutsSchemas.template, input: KeyedInput<TemplateDraft>.self
            ) { input, call in
                try await templates.create(userId: try call.userId(), draft: input.request, key: input.idempotencyKey).encoded
            },
            .rpc(
                "getTemplates", access: .user, tag: tag, readOnly: true,
                summary: "The user's templates, oldest first (an account keeps at most 500); `limit` (default 500) and `cursor` page them.",
                request: Schema.object(["limit": Schema.integer(minimum: 1, maximum: PlanCaps.templates), "cursor": Schema.string]),
                response: WorkoutsSchemas.items(WorkoutsSchemas.template), input: PageInput.self
            ) { input, call in
                let page = try await templates.list(
                    userId: try call.userId(), limit: input.limit ?? PlanCaps.templates, cursor: input.cursor)
                return ItemsOutput(items: page.items, nextCursor: page.nextCursor)
            },
            .rpc(
                "getTemplate", access: .user, tag: tag, readOnly: true, summary: "One template.",
                request: Schema.object(["template_id": Schema.string], required: ["template_id"]), response: WorkoutsSchemas.template,
                input: TemplateIDInput.self
            ) { input, call in
                try await templates.get(userId: try call.userId(), id: input.templateId)
            },
            .rpc(
                "patchTemplate", access: .user, tag: tag,
                summary:
                    "Change a template; with expected_version a concurrent change is CONFLICT. Changes may also be nested in `changes`.",
                request: Schema.patch(
                    Schema.object(
                        templatePatchProperties.merging(
                            [
                                "template_id": Schema.string, "expected_version": Schema.integer,
                                "changes": Schema.object(templatePatchProperties),
                                "idempotency_key": key,
                            ]) { _, new in new },
                        required: ["template_id"])),
                response: WorkoutsSchemas.template, input: KeyedInput<PatchTemplateInput>.self
            ) { input, call in
                try await templates.patch(
                    userId: try call.userId(), id: input.request.templateId, expectedVersion: input.request.expectedVersion,
                    changes: input.request.changes, key: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "deleteTemplate", access: .user, tag: tag,
                summary: "Delete a template; routines that list it drop it. Answers it as it was.",
                request: Schema.object(["template_id": Schema.string, "idempotency_key": key], required: ["template_id"]),
                response: WorkoutsSchemas.template, input: KeyedInput<TemplateIDInput>.self
            ) { input, call in
                try await templates.delete(userId: try call.userId(), id: input.request.templateId, key: input.idempotencyKey).encoded
            },
            .rpc(
                "createRoutine", access: .user, tag: tag, summary: "Create a routine: an ordered cycle of the user's templates.",
                request: Schema.object(
                    routineProperties.merging(["idempotency_key": key]) { _, new in new }, required: ["name", "template_ids"],
                    aliases: Self.routineAliases),
                response: WorkoutsSchemas.routine, input: KeyedInput<RoutineDraft>.self
            ) { input, call in
                try await routines.create(userId: try call.userId(), draft: input.request, key: input.idempotencyKey).encoded
            },
            .rpc(
                "getRoutines", access: .user, tag: tag, readOnly: true,
                summary: "The user's routines, oldest first (an account keeps at most 100); `limit` (default 100) and `cursor` page them.",
                request: Schema.object(["limit": Schema.integer(minimum: 1, maximum: PlanCaps.routines), "cursor": Schema.string]),
                response: WorkoutsSchemas.items(WorkoutsSchemas.routine), input: PageInput.self
            ) { input, call in
                let page = try await routines.list(userId: try call.userId(), limit: input.limit ?? PlanCaps.routines, cursor: input.cursor)
                return ItemsOutput(items: page.items, nextCursor: page.nextCursor)
            },
            .rpc(
                "getRoutine", access: .user, tag: tag, readOnly: true, summary: "One routine.",
                request: Schema.object(["routine_id": Schema.string], required: ["routine_id"]), response: WorkoutsSchemas.routine,
                input: RoutineIDInput.self
            ) { input, call in
                try await routines.get(userId: try call.userId(), id: input.routineId)
            },
            .rpc(
                "patchRoutine", access: .user, tag: tag,
                summary: "Change a routine; with expected_version a concurrent change is CONFLICT.",
                request: Schema.patch(
                    Schema.object(
                        routineProperties.merging(
                            [
                                "routine_id": Schema.string, "expected_version": Schema.integer,
                                "changes": Schema.object(routineProperties, aliases: Self.routineAliases), "idempotency_key": key,
                            ]) { _, new in new },
                        required: ["routine_id"], aliases: Self.routineAliases)),
                response: WorkoutsSchemas.routine, input: KeyedInput<PatchRoutineInput>.self
            ) { input, call in
                try await routines.patch(
                    userId: try call.userId(), id: input.request.routineId, expectedVersion: input.request.expectedVersion,
                    changes: input.request.changes, key: input.idempotencyKey
                ).encoded
            },
            .rpc(
                "deleteRoutine", access: .user, tag: tag, summary: "Delete a routine (no longer active if it was). Answers it as it was.",
                request: Schema.object(["routine_id": Schema.string, "idempotency_key": key], required: ["routine_id"]),
                response: WorkoutsSchemas.routine, input: KeyedInput<RoutineIDInput>.self
            ) { input, call in
                try await routines.delete(userId: try call.userId(), id: input.request.routineId, key: input.idempotencyKey).encoded
            },
            .rpc(
                "setActiveRoutine", access: .user, tag: tag, summary: "Make a routine the active one (null clears it).",
                request: Schema.object(["routine_id": Schema.nullable(Schema.string), "idempotency_key": key], required: ["routine_id"]),
                response: Schema.object(["active_routine_id": Schema.nullable(Schema.string)], required: ["active_routine_id"]),
                input: KeyedInput<SetActiveRoutineInput>.self
            ) { input, call in
                try await routines.setActive(userId: try call.userId(), routineId: input.request.routineId, key: input.idempotencyKey)
                    .encoded
            },
            .rpc(
                "getNextWorkout", access: .user, tag: tag, readOnly: true,
                summary: "The routine's next template (default: the active routine), from its cursor, wrapping around.",
                request: Schema.object(["routine_id": Schema.string]),
                response: Schema.object(
                    ["template": WorkoutsSchemas.template, "index": Schema.integer, "routine_id": Schema.string],
                    required: ["template", "index", "routine_id"]),
                input: OptionalRoutineIDInput.self
            ) { input, call in
                // One snapshot: the setting, the routine and its template are read by three statements, and a
                // template deleted between them would otherwise answer NOT_FOUND for a routine that no longer lists it.
                let userId = try call.userId()
                return try await database.readTransaction { sql in
                    try await routines.next(userId: userId, routineId: input.routineId, sql: sql)
                }
            },
        ]
    }
}
