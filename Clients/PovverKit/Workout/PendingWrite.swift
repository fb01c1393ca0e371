import Foundation

/// A write of the active workout waiting to be sent, with the idempotency key it was made with: every send of it,
/// however late, carries that key, so the server applies it once and answers a retry with its first answer.
public struct PendingWrite: Codable, Equatable, Sendable, Identifiable {
    public enum Operation: Codable, Equatable, Sendable {
        case logSet(workoutId: String, exerciseInstanceId: String, setId: String, weightKg: Double, reps: Int, rir: Int?)
        case addExercise(workoutId: String, exerciseId: String, sets: Int?)
    }

    public let idempotencyKey: String
    public let operation: Operation

    public var id: String { idempotencyKey }

    public init(idempotencyKey: String = UUID().uuidString, operation: Operation) {
        self.idempotencyKey = idempotencyKey
        self.operation = operation
    }
}
