import Contracts
import Foundation
import Platform

/// A card's content as the user edited it in the app (`artifactAction`'s `data`), checked as the coach's own proposal
/// of it is and rewritten in the card's form: the action then applies it, and it is kept as the card's `data`.
///
/// What applies is what the proposal is made of: a session's or a template change's `exercises` (with their planned
/// sets), a routine's `routine`, a routine change's `changes`. The rest is derived and recomputed: exercise names
/// from the catalog, a routine's `days`, a change's `routine` view and `previous_exercises`. A derived view changed
/// while what it shows was not is refused (the edit would otherwise be lost), as is a change to what the card is of
/// (`template_id`, `routine_id`, `expected_version`, a template change's `name`). Every refusal is `INVALID_ARGUMENT`
/// naming the field under `data` (`data.routine.templates[0].exercises[1].exercise_id`), and changes nothing.
struct CardEdit {
    let services: CoachServices
    let userId: String

    func apply(_ edited: JSONValue, to artifact: Artifact) async throws -> JSONValue {
        guard case .object = edited else { throw ServiceError.invalidArgument(field: "data", reason: "expected object") }
        guard let schema = CardDataSchemas.edit(artifact.type) else {
            throw ServiceError.invalidArgument(field: "data", reason: "a \(artifact.type.rawValue) card takes no edit")
        }
        do {
            return try await check(edited, artifact, schema: schema)
        } catch let error as ServiceError where error.code == .invalidArgument {
            throw error.nested(under: "data.")
        }
    }

    private func check(_ edited: JSONValue, _ artifact: Artifact, schema: JSONValue) async throws -> JSONValue {
        // The request's schema takes the fields of every type's edit; this card's type takes only its own.
        try KnownFields(schema: schema).check(Data(try JSONCoding.encode(edited)))
        let stored = artifact.data
        let critic = RoutineCritic(catalog: services.catalog)
        switch artifact.type {
        case .sessionPlan, .templateUpdate:
            struct Session: Decodable {
                var name: String?
                var exercises: [PlannedExercise]
            }
            let session = try edited.decode(Session.self)
            let fixed = artifact.type == .sessionPlan ? ["template_id", "routine_id"] : ["template_id", "expected_version", "name"]
            try Self.unchanged(fixed, edited, stored)
            let plan = TemplatePlan(name: session.name ?? stored["name"]?.stringValue ?? "Workout", exercises: session.exercises)
            try await critic.checkDay(plan, field: "")
            let names = try await critic.names(of: plan.exercises)
            var extra: [String: JSONValue] = [:]
            for key in fixed + ["previous_exercises"] where key != "name" { extra[key] = stored[key] }
            return try SessionPlanData.make(
                name: plan.name, exercises: plan.exercises.map { ($0.exerciseId, names[$0.exerciseId] ?? $0.exerciseId, $0.sets) },
                extra: extra)
        case .routineSummary:
            struct Summary: Decodable { var routine: RoutinePlan }
            let plan = try edited.decode(Summary.self).routine
            try Self.viewFollows("days", of: "routine", edited, stored)
            do {
                _ = try await critic.check(plan)
                // What Workouts holds a routine to besides, checked here so that the field is named under `data`.
                if let frequency = plan.frequency, !(1...14).contains(frequency) {
                    throw ServiceError.invalidArgument(field: "frequency", reason: "must be from 1 to 14")
                }
                if let description = plan.description, description.unicodeScalars.count > 2000 {
                    throw ServiceError.invalidArgument(field: "description", reason: "longer than 2000 characters")
                }
            } catch let error as ServiceError where error.code == .invalidArgument {
                throw error.nested(under: "routine.")
            }
            return try RoutineSummaryData.make(plan, names: try await critic.names(plan))
        case .routineUpdate:
            struct Update: Decodable { var changes: RoutineChanges }
            let changes = try edited.decode(Update.self).changes
            try Self.unchanged(["routine_id", "expected_version"], edited, stored)
            try Self.viewFollows("routine", of: "changes", edited, stored)
            try Self.viewFollows("days", of: "changes", edited, stored)
            let update = try RoutineUpdateData.update(of: stored)
            let routine = try await services.plans.routine(userId: userId, id: update.routineId)
            do {
                return try await RoutineUpdateData.make(
                    routine: routine, expectedVersion: update.expectedVersion, changes: changes, userId: userId, plans: services.plans)
            } catch let error as ServiceError where error.code == .invalidArgument && error.details["field"] != "changes" {
                throw error.nested(under: "changes.")
            }
        case .visualization, .analysisSummary, .clarifyQuestions, .suggestion, .text:
            return stored  // unreachable: these types have no edit schema
        }
    }

    /// Refuses a change to what the card is of: each of `keys`, when sent, is as stored.
    private static func unchanged(_ keys: [String], _ edited: JSONValue, _ stored: JSONValue) throws {
        for key in keys {
            guard let sent = edited[key], sent != .null, sent != stored[key] else { continue }
            throw ServiceError.invalidArgument(field: key, reason: "is what the card is of and cannot change")
        }
    }

    /// Refuses an edit made only to a derived view (`view`, shown from `source`): sent changed while `source` was not.
    private static func viewFollows(_ view: String, of source: String, _ edited: JSONValue, _ stored: JSONValue) throws {
        guard let sent = edited[view], sent != .null, sent.withoutNulls != stored[view]?.withoutNulls,
            edited[source]?.withoutNulls == stored[source]?.withoutNulls
        else { return }
        throw ServiceError.invalidArgument(field: view, reason: "shows data.\(source), which is what applies: edit \(source)")
    }
}

extension JSONValue {
    /// The value with every null member of its objects left out (a client may drop them), for comparing content.
    var withoutNulls: JSONValue {
        switch self {
        case .object(let fields): .object(fields.filter { $0.value != .null }.mapValues(\.withoutNulls))
        case .array(let items): .array(items.map(\.withoutNulls))
        default: self
        }
    }
}
