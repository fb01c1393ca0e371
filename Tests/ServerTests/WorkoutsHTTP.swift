import Foundation
import HTTPTypes
import HummingbirdTesting
import PovverClient
import Testing

/// What the Workouts HTTP suites share: the calls that set up templates, routines and workouts, and those sent
/// at the same moment, through the generated client. (The untyped forms, for suites not yet moved, are in
/// WorkoutsHTTP+Untyped.swift.)
enum WorkoutsHTTP {
    /// What a start answered, kept Sendable for a task group.
    struct StartOutcome: Sendable, CustomStringConvertible {
        var status: HTTPResponse.Status
        var workoutId: String?
        var errorCode: String?
        var conflictingWorkoutId: String?

        var description: String { "\(status.code) \(workoutId ?? errorCode ?? "?") \(conflictingWorkoutId ?? "")" }
    }

    /// One of several calls sent at once: its name, and the id of what it wrote (read from its answer).
    typealias NamedCall = (name: String, call: @Sendable () async throws -> String)
    /// What one of them answered.
    typealias NamedAnswer = (name: String, answer: Answer<String>)

    /// The calls, all at once.
    static func concurrently(_ calls: [NamedCall]) async throws -> [NamedAnswer] {
        try await withThrowingTaskGroup(of: NamedAnswer.self) { group in
            for (name, call) in calls {
                group.addTask { (name, try await answer(call)) }
            }
            var answers: [NamedAnswer] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
    }

    /// Exactly one of `answers` ran; every other is CONFLICT naming `key`.
    static func expectOneRan(_ answers: [NamedAnswer], key: String, round: Int) {
        #expect(answers.filter { $0.answer.status == .ok }.count == 1, "round \(round): \(answers)")
        for (name, answer) in answers where answer.status != .ok {
            #expect(answer.status == .conflict, "round \(round): \(name): \(answer)")
            #expect(answer.refusal?.code == "CONFLICT", "round \(round): \(name): \(answer)")
            #expect(answer.refusal?.details["idempotency_key"] == key, "round \(round): \(name): \(answer)")
        }
    }

    /// One startActiveWorkout per key, all at once (same body apart from the key).
    static func startConcurrently(_ client: any TestClientProtocol, keys: [String], token: String) async throws -> [StartOutcome] {
        let api = client.api(token)
        return try await withThrowingTaskGroup(of: StartOutcome.self) { group in
            for key in keys {
                group.addTask {
                    let started = try await answer {
                        try await api.startActiveWorkout(body: .json(.init(idempotencyKey: key, name: "Race"))).ok.body.json.data.id
                    }
                    return StartOutcome(
                        status: started.status, workoutId: started.value, errorCode: started.refusal?.code,
                        conflictingWorkoutId: started.refusal?.details["workout_id"])
                }
            }
            var outcomes: [StartOutcome] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    /// A template of one exercise with one set; its id.
    static func template(_ client: any TestClientProtocol, _ name: String, exercise: String, token: String) async throws -> String {
        try await client.api(token).createTemplate(
            body: .json(.init(exercises: [.init(exerciseId: exercise, sets: [.init(targetReps: 5)])], name: name))
        ).ok.body.json.data.id
    }

    /// A routine of one template per exercise (named A, B, C, ...): the templates' ids and the routine's.
    static func routine(_ client: any TestClientProtocol, of exercises: [String], token: String) async throws -> (
        templates: [String], routineId: String
    ) {
        var templates: [String] = []
        for (index, exercise) in exercises.enumerated() {
            templates.append(try await template(client, String(UnicodeScalar(UInt8(65 + index))), exercise: exercise, token: token))
        }
        let routine = try await client.api(token).createRoutine(body: .json(.init(name: "Cycle", templateIds: templates)))
        return (templates, try routine.ok.body.json.data.id)
    }

    /// The instance id and set ids of a workout's exercise at `index`.
    static func exercise(_ workout: some WorkoutAnswer, at index: Int = 0) throws -> (instanceId: String, setIds: [String]) {
        try workout.exercise(at: index)
    }

    /// The set with `id`, wherever it is in the workout.
    static func set<Workout: WorkoutAnswer>(_ id: String, in workout: Workout) -> Workout.Exercise.SetAnswer? {
        workout.set(id)
    }

    /// Logs every set of the (active) workout and completes it.
    static func logEverySetAndComplete(_ client: any TestClientProtocol, _ workout: some WorkoutAnswer, key: String, token: String)
        async throws
    {
        try await client.api(token).logEverySetAndComplete(workout, key: key)
    }

    /// The template the routine's cursor records as last completed (nil when none, or the routine is refused).
    static func lastCompleted(_ client: any TestClientProtocol, routineId: String, token: String) async throws -> String? {
        let api = client.api(token)
        return try await answer { try await api.getRoutine(body: .json(.init(routineId: routineId))).ok.body.json.data }.value?
            .lastCompletedTemplateId
    }

    /// The routine's next template (nil when refused: no such routine, no template).
    static func nextTemplate(_ client: any TestClientProtocol, routineId: String, token: String) async throws -> String? {
        let api = client.api(token)
        return try await answer { try await api.getNextWorkout(body: .json(.init(routineId: routineId))).ok.body.json.data.template.id }
            .value
    }
}
