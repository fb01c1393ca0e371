import Foundation
import Observation

/// The workout screen over `ActiveWorkoutService`: the workout as shown (queued writes applied), how many writes
/// wait for the network, and finishing.
@MainActor @Observable
public final class ActiveWorkoutViewModel {
    public let service: ActiveWorkoutService
    public private(set) var workout: ActiveWorkout?
    /// Writes waiting to be sent (offline), shown as "3 sets to sync".
    public private(set) var pendingCount = 0
    public private(set) var completed: CompletedWorkout?
    public private(set) var failure: PovverError?

    public init(service: ActiveWorkoutService) { self.service = service }

    public func load() async { await run { try await $0.load() } }

    public func start(templateId: String? = nil, routineId: String? = nil, name: String? = nil) async {
        await run { try await $0.start(templateId: templateId, routineId: routineId, name: name) }
    }

    public func logSet(exerciseInstanceId: String, setId: String, weightKg: Double, reps: Int, rir: Int? = nil) async {
        await run { try await $0.logSet(exerciseInstanceId: exerciseInstanceId, setId: setId, weightKg: weightKg, reps: reps, rir: rir) }
    }

    /// Sends what waits (when the network is back).
    public func sync() async { await run { try await $0.drain() } }

    /// Sends what waits, then completes.
    public func finish() async {
        await run { service in
            let done = try await service.complete()
            await MainActor.run { self.completed = done }
        }
    }

    private func run(_ body: @Sendable (ActiveWorkoutService) async throws -> some Sendable) async {
        do {
            _ = try await body(service)
            failure = nil
        } catch {
            failure = PovverError.from(error)
        }
        workout = await service.workout
        pendingCount = await service.pending.count
    }
}
