import Foundation
import OpenAPIRuntime
import PovverClient

/// The workout in progress and its writes. A write (a set logged, an exercise added) is applied to the local
/// workout at once and queued with its idempotency key; the queue is sent in order, and what cannot be sent (no
/// network) stays for the next `drain()`, with the same key. A write the server refuses is dropped and the workout
/// read again. `complete()` drains the queue first and completes only when it is empty.
public actor ActiveWorkoutService {
    let client: Client
    private let now: @Sendable () -> Date
    /// The workout as the server last answered it.
    private var confirmed: ActiveWorkout?
    /// The workout as the app shows it: the server's last answer with the queued writes applied.
    public private(set) var workout: ActiveWorkout?
    /// Writes not yet answered by the server, oldest first.
    public private(set) var pending: [PendingWrite] = []
    /// Writes the server refused (dropped from the queue), with why.
    public private(set) var refused: [(write: PendingWrite, error: PovverError)] = []
    private var draining: Task<Void, any Error>?
    private var completionKey: String?
    /// A write asked for with no workout started or loaded, refused as the server refuses it.
    static let noWorkout = PovverError.refused(status: 412, code: "FAILED_PRECONDITION", message: "No workout in progress.", details: [:])

    public init(client: Client, now: @escaping @Sendable () -> Date = { Date() }) {
        self.client = client
        self.now = now
    }

    /// Reads the workout in progress, if any (`getActiveWorkout`), with the queued writes applied over it.
    @discardableResult
    public func load() async throws -> ActiveWorkout? {
        let output: Operations.GetActiveWorkout.Output
        do { output = try await client.getActiveWorkout(body: .json(.init())) } catch { throw PovverError.from(error) }
        switch output {
        case .ok(let ok): adopt(try Reshape.convert(try ok.body.json.data, to: ActiveWorkout.self))
        case .default(404, _): adopt(nil)
        case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
        }
        return workout
    }

    /// Starts a workout (from a template, a routine's next template, or empty). Needs the server: a start is not
    /// queued, as the sets to log come from its answer. A retry after a lost answer is the same start (one key).
    @discardableResult
    public func start(templateId: String? = nil, routineId: String? = nil, name: String? = nil) async throws -> ActiveWorkout {
        let key = UUID().uuidString
        let output: Operations.StartActiveWorkout.Output
        do {
            output = try await client.startActiveWorkout(
                body: .json(.init(idempotencyKey: key, name: name, routineId: routineId, templateId: templateId)))
        } catch { throw PovverError.from(error) }
        switch output {
        case .ok(let ok):
            pending = []
            completionKey = nil
            let started = try Reshape.convert(try ok.body.json.data, to: ActiveWorkout.self)
            adopt(started)
            return started
        case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
        }
    }

    /// Logs a set: shown as logged at once, queued, and sent now if the server can be reached.
    public func logSet(exerciseInstanceId: String, setId: String, weightKg: Double, reps: Int, rir: Int? = nil) async throws {
        guard let workoutId = workout?.id else { throw Self.noWorkout }
        try await enqueue(
            PendingWrite(
                operation: .logSet(
                    workoutId: workoutId, exerciseInstanceId: exerciseInstanceId, setId: setId, weightKg: weightKg, reps: reps, rir: rir)))
    }

    /// Adds an exercise with `sets` empty sets: queued like any write; its sets appear once the server answered.
    public func addExercise(_ exerciseId: String, sets: Int? = nil) async throws {
        guard let workoutId = workout?.id else { throw Self.noWorkout }
        try await enqueue(PendingWrite(operation: .addExercise(workoutId: workoutId, exerciseId: exerciseId, sets: sets)))
    }

    private func enqueue(_ write: PendingWrite) async throws {
        pending.append(write)
        show()
        do { try await drain() } catch let error as PovverError where error.isRetryable {
            // Offline: the write waits in the queue with its key.
        }
    }

    /// Sends the queued writes in order, each with its own idempotency key, until the queue is empty or one gets no
    /// answer (it stays, with those after it, and the error is thrown). One drain runs at a time; a caller arriving
    /// meanwhile waits for it and then drains what is left.
    public func drain() async throws {
        while let running = draining { try? await running.value }
        guard !pending.isEmpty else { return }
        let task = Task { try await self.sendQueued() }
        draining = task
        defer { draining = nil }
        try await task.value
    }

    private func sendQueued() async throws {
        while let write = pending.first {
            do {
                try await send(write)
                pending.removeFirst()
                show()
            } catch let error as PovverError where !error.isRetryable && error != .signedOut {
                pending.removeFirst()
                refused.append((write, error))
                // What was shown for the refused write is not so: read the server's workout again.
                try? await load()
            }
        }
    }

    private func send(_ write: PendingWrite) async throws {
        do {
            switch write.operation {
            case .logSet(let workoutId, let instance, let setId, let weightKg, let reps, let rir):
                let output = try await client.logSet(
                    body: .json(
                        .init(
                            exerciseInstanceId: instance, idempotencyKey: write.idempotencyKey, reps: reps, rir: rir, setId: setId,
                            weightKg: weightKg, workoutId: workoutId)))
                switch output {
                case .ok(let ok):
                    let data = try ok.body.json.data
                    let set = try Reshape.convert(data.set, to: ActiveWorkout.WorkoutSet.self)
                    let totals = try Reshape.convert(data.totals, to: ActiveWorkout.Totals.self)
                    applyAnswer(exerciseInstanceId: instance, set: set, totals: totals, version: data.version)
                case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
                }
            case .addExercise(let workoutId, let exerciseId, let sets):
                let output = try await client.addExercise(
                    body: .json(.init(exerciseId: exerciseId, idempotencyKey: write.idempotencyKey, sets: sets, workoutId: workoutId)))
                switch output {
                case .ok(let ok): adopt(try Reshape.convert(try ok.body.json.data, to: ActiveWorkout.self))
                case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
                }
            }
        } catch {
            throw PovverError.from(error)
        }
    }

    /// Completes the workout once every queued write is answered (`completeActiveWorkout`). Offline, the queue
    /// stays and the error is thrown; calling again later sends the queue, then completes, with the same key.
    public func complete() async throws -> CompletedWorkout {
        guard let workoutId = workout?.id else { throw Self.noWorkout }
        try await drain()
        let key = completionKey ?? UUID().uuidString
        completionKey = key
        let output: Operations.CompleteActiveWorkout.Output
        do {
            output = try await client.completeActiveWorkout(body: .json(.init(idempotencyKey: key, workoutId: workoutId)))
        } catch { throw PovverError.from(error) }
        switch output {
        case .ok(let ok):
            let completed = try Reshape.convert(try ok.body.json.data, to: CompletedWorkout.self)
            adopt(nil)
            completionKey = nil
            return completed
        case .default(let status, let failure): throw PovverError.failure(status: status) { try failure.body.json }
        }
    }

    /// Takes the server's answer as the confirmed workout.
    private func adopt(_ answer: ActiveWorkout?) {
        confirmed = answer
        show()
    }

    /// The confirmed workout with the queued writes applied over it, as the app shows it.
    private func show() {
        guard var shown = confirmed else {
            workout = nil
            return
        }
        for write in pending {
            if case .logSet(shown.id, let instance, let setId, let weightKg, let reps, let rir) = write.operation {
                shown.log(exerciseInstanceId: instance, setId: setId, weightKg: weightKg, reps: reps, rir: rir, at: now())
            }
        }
        workout = shown
    }

    /// A logged set the server answered: its set, totals and version become the confirmed workout's.
    private func applyAnswer(exerciseInstanceId: String, set: ActiveWorkout.WorkoutSet, totals: ActiveWorkout.Totals, version: Int) {
        guard var current = confirmed, let e = current.exercises.firstIndex(where: { $0.instanceId == exerciseInstanceId }),
            let s = current.exercises[e].sets.firstIndex(where: { $0.id == set.id })
        else { return }
        current.exercises[e].sets[s] = set
        current.totals = totals
        current.version = version
        confirmed = current
    }
}
