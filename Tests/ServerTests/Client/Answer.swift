import Foundation
import HTTPTypes

/// What a call answered, whether it succeeded or was refused: the value read from a success, or the server's
/// refusal. Sendable, for calls sent at the same moment from a task group.
struct Answer<Value: Sendable>: Sendable, CustomStringConvertible {
    var value: Value?
    var refusal: Refusal?

    /// The answer's HTTP status: the refusal's, else 200.
    var status: HTTPResponse.Status { HTTPResponse.Status(code: refusal?.status ?? 200) }
    var description: String { refusal.map { "\($0)" } ?? "200 \(value.map { "\($0)" } ?? "")" }
}

/// Runs `call` (which reads its value from the `.ok` answer) and answers its value, or the refusal the server sent
/// instead; any other failure is thrown.
///
///     let started = try await answer { try await api.startActiveWorkout(body: .json(.init(name: "A"))).ok.body.json.data.id }
///     if let refusal = started.refusal { ... }
func answer<Value: Sendable>(_ call: @Sendable () async throws -> Value) async throws -> Answer<Value> {
    let box = RefusalRecorder.Box()
    do {
        let value = try await RefusalRecorder.$current.withValue(box) { try await call() }
        return Answer(value: value, refusal: nil)
    } catch {
        guard let refusal = box.refusal else { throw error }
        return Answer(value: nil, refusal: refusal)
    }
}
