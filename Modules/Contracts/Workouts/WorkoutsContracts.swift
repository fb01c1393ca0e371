import Foundation

/// An exercise of a plan: a catalog id and its planned sets.
public struct PlannedExercise: Codable, Sendable, Equatable {
    public var exerciseId: String
    public var sets: [TemplateSet]

    public init(exerciseId: String, sets: [TemplateSet]) {
        self.exerciseId = exerciseId
        self.sets = sets
    }

    enum CodingKeys: String, CodingKey {
        case exerciseId = "exercise_id"
        case sets
    }
}

/// A template to create as part of a routine draft.
public struct TemplatePlan: Codable, Sendable, Equatable {
    public var name: String
    public var exercises: [PlannedExercise]

    public init(name: String, exercises: [PlannedExercise]) {
        self.name = name
        self.exercises = exercises
    }
}

/// A whole routine as the coach drafts it (accepting a `routine_summary`, docs/product.md "The coach").
public struct RoutinePlan: Codable, Sendable, Equatable {
    public var name: String
    public var description: String?
    public var frequency: Int?
    public var templates: [TemplatePlan]

    public init(name: String, description: String? = nil, frequency: Int? = nil, templates: [TemplatePlan]) {
        self.name = name
        self.description = description
        self.frequency = frequency
        self.templates = templates
    }
}

/// What creating a routine from a draft made.
public struct CreatedRoutine: Codable, Sendable, Equatable {
    public var routine: Routine
    public var templates: [WorkoutTemplate]

    public init(routine: Routine, templates: [WorkoutTemplate]) {
        self.routine = routine
        self.templates = templates
    }
}

/// Changes to a routine as the coach proposes them: only what is given changes.
public struct RoutineChanges: Codable, Sendable, Equatable {
    public var name: String?
    public var description: String?
    public var frequency: Int?
    /// The routine's templates in their new order (existing templates of the user).
    public var templateIds: [String]?

    public init(name: String? = nil, description: String? = nil, frequency: Int? = nil, templateIds: [String]? = nil) {
        self.name = name
        self.description = description
        self.frequency = frequency
        self.templateIds = templateIds
    }

    enum CodingKeys: String, CodingKey {
        case name, description, frequency
        case templateIds = "template_ids"
    }
}

/// The user's plans. Provided by Workouts; used by the coach (drafts, template changes) and the analysts.
public protocol PlanLibrary: Sendable {
    /// The user's templates, oldest first.
    func templates(userId: String) async throws -> [WorkoutTemplate]
    /// One of the user's templates. Throws `NOT_FOUND` for an unknown id or another user's template.
    func template(userId: String, id: String) async throws -> WorkoutTemplate
    /// The user's routines, oldest first.
    func routines(userId: String) async throws -> [Routine]
    /// One of the user's routines. Throws `NOT_FOUND` for an unknown id or another user's routine.
    func routine(userId: String, id: String) async throws -> Routine
    /// The user's active routine, or nil.
    func activeRoutine(userId: String) async throws -> Routine?
    /// Creates every template of the plan and a routine cycling through them, in one transaction, and (when
    /// `activate`) makes it the active routine. Throws `INVALID_ARGUMENT` (nothing created) for an unknown exercise
    /// or bad values. Under an `idempotencyKey` a repeat creates nothing and answers what the first call created (the
    /// coach's "accept" retried after a lost answer); the same key with another plan is `CONFLICT`.
    func createRoutine(userId: String, plan: RoutinePlan, activate: Bool, idempotencyKey: String?) async throws -> CreatedRoutine
    /// Creates one template from a plan (the coach's "save as template"). Under an `idempotencyKey` a repeat creates
    /// nothing and answers the first template; the same key with another plan is `CONFLICT`. Throws
    /// `INVALID_ARGUMENT` (nothing created) for an unknown exercise or bad values.
    func createTemplate(userId: String, plan: TemplatePlan, idempotencyKey: String?) async throws -> WorkoutTemplate
    /// Replaces a template's exercises if it is still at `expectedVersion`; analytics are recomputed and the
    /// version goes up by one. Throws `CONFLICT` when the template changed meanwhile, `NOT_FOUND` for another
    /// user's template. Under an `idempotencyKey` a repeat answers the first change (not a `CONFLICT` with the
    /// version it made).
    func applyTemplateChanges(
        userId: String, templateId: String, expectedVersion: Int, exercises: [PlannedExercise], idempotencyKey: String?
    ) async throws -> WorkoutTemplate
    /// Changes a routine if it is still at `expectedVersion` (`CONFLICT` otherwise); the version goes up by one.
    /// Throws `NOT_FOUND` for another user's routine or a template id that is not the user's, `INVALID_ARGUMENT`
    /// for bad values or no change at all. Under an `idempotencyKey` a repeat answers the first change.
    func updateRoutine(userId: String, routineId: String, expectedVersion: Int, changes: RoutineChanges, idempotencyKey: String?)
        async throws -> Routine
}

extension PlanLibrary {
    /// Creates the routine and makes it active, with no idempotency key.
    public func createRoutine(userId: String, plan: RoutinePlan) async throws -> CreatedRoutine {
        try await createRoutine(userId: userId, plan: plan, activate: true, idempotencyKey: nil)
    }

    /// Creates the routine and makes it active.
    public func createRoutine(userId: String, plan: RoutinePlan, idempotencyKey: String?) async throws -> CreatedRoutine {
        try await createRoutine(userId: userId, plan: plan, activate: true, idempotencyKey: idempotencyKey)
    }

    /// Replaces a template's exercises, with no idempotency key.
    public func applyTemplateChanges(userId: String, templateId: String, expectedVersion: Int, exercises: [PlannedExercise])
        async throws -> WorkoutTemplate
    {
        try await applyTemplateChanges(
            userId: userId, templateId: templateId, expectedVersion: expectedVersion, exercises: exercises, idempotencyKey: nil)
    }
}

/// One page of completed workouts, and the cursor of the next page when more follow.
public struct CompletedWorkoutPage: Sendable, Equatable {
    public var workouts: [CompletedWorkout]
    public var nextCursor: String?

    public init(workouts: [CompletedWorkout], nextCursor: String?) {
        self.workouts = workouts
        self.nextCursor = nextCursor
    }
}

/// Completed workouts. Provided by Workouts; used by the coach and the analysts.
public protocol TrainingLog: Sendable {
    /// The user's most recent completed workouts, newest first, at most `limit` (1…100).
    func recentWorkouts(userId: String, limit: Int) async throws -> [CompletedWorkout]
    /// One completed workout of the user, or nil (also for another user's workout).
    func workout(userId: String, id: String) async throws -> CompletedWorkout?
    /// The user's completed workouts that ended in `[endedFrom, endedBefore)` (a nil bound is open), oldest
    /// first (by end time, then id), at most `limit` (1…500) a page; `cursor` is the previous page's
    /// `nextCursor` (nil or empty: the first page). Pages never overlap or skip, even when workouts are added or
    /// deleted between two pages. Throws `INVALID_ARGUMENT` for a limit out of range or a cursor it did not
    /// issue.
    func completedWorkouts(userId: String, endedFrom: Date?, endedBefore: Date?, limit: Int, cursor: String?) async throws
        -> CompletedWorkoutPage
    /// Users with at least one completed workout, in id order, at most `limit` (1…1000) after the id `after` (nil:
    /// from the first). For backfills that go through every history.
    func usersWithHistory(after: String?, limit: Int) async throws -> [String]
}

/// How to start a workout: from one of the user's templates (with its routine, whose cursor then records it), or
/// from an inline plan (the coach's session plan).
public enum WorkoutStart: Sendable, Equatable, Codable {
    case template(templateId: String, routineId: String?)
    case plan(name: String, exercises: [PlannedExercise])
}

/// The in-progress workout, for the coach's workout tools. Every write is idempotent under its key.
public protocol ActiveWorkoutControl: Sendable {
    /// The user's workout in progress, or nil.
    func activeWorkout(userId: String) async throws -> ActiveWorkout?
    /// Logs a set and returns the workout as it stands then. A repeat of the key changes nothing and returns the
    /// workout as it stands now, later changes included (over HTTP a repeat gets the first answer, the set and
    /// its totals; a whole workout kept per logged set would cost more than it tells). Throws `NOT_FOUND`
    /// (unknown workout, exercise instance or set, or another user's), `FAILED_PRECONDITION` (workout not in
    /// progress), `INVALID_ARGUMENT` (out-of-range values, a bad key).
    func logSet(
        userId: String, workoutId: String, exerciseInstanceId: String, setId: String, weightKg: Double, reps: Int, rir: Int?,
        idempotencyKey: String
    ) async throws -> ActiveWorkout
    /// Adds an exercise with `sets` empty sets. Throws like `logSet`.
    func addExercise(userId: String, workoutId: String, exerciseId: String, sets: Int, idempotencyKey: String) async throws -> ActiveWorkout
    /// Swaps an exercise; logged sets stay with the exercise they were done on. Throws like `logSet`.
    func swapExercise(
        userId: String, workoutId: String, exerciseInstanceId: String, newExerciseId: String, idempotencyKey: String
    ) async throws -> ActiveWorkout
    /// Starts a workout. Throws `CONFLICT` when one is already in progress, `NOT_FOUND` for another user's template
    /// or routine, `INVALID_ARGUMENT` for an unknown exercise or bad values in a plan.
    func startWorkout(userId: String, start: WorkoutStart, idempotencyKey: String) async throws -> ActiveWorkout
    /// Sets a set's targets (nil leaves one as it is). Throws like `logSet`.
    func prescribeSet(
        userId: String, workoutId: String, exerciseInstanceId: String, setId: String, targetReps: Int?, targetWeightKg: Double?,
        targetRir: Int?, idempotencyKey: String
    ) async throws -> ActiveWorkout
    /// Removes a set from an exercise (the coach's "skip": a set not to be done); the others are renumbered.
    /// Throws like `logSet`.
    func removeSet(userId: String, workoutId: String, exerciseInstanceId: String, setId: String, idempotencyKey: String) async throws
        -> ActiveWorkout
    /// Completes the workout: it is archived in the training log and its routine's cursor moves on. Throws like
    /// `logSet`.
    func completeWorkout(userId: String, workoutId: String, idempotencyKey: String) async throws -> CompletedWorkout
    /// Cancels the workout in progress: nothing goes to the training log. A repeat under the key is a no-op; a workout
    /// no longer in progress is `FAILED_PRECONDITION`; another user's is `NOT_FOUND`.
    func cancelWorkout(userId: String, workoutId: String, idempotencyKey: String) async throws
}
