import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization

/// The network between the kit and the live server, as a middleware innermost in the kit's chain: it records what
/// each request carried as it was sent, and can cut the network for an operation: `offline` fails a request before
/// it leaves, `answerLost` sends it and drops the server's answer (the server did the work).
final class NetworkConditions: ClientMiddleware, Sendable {
    enum Mode: Sendable { case online, offline, answerLost }

    /// What a request carried that the tests look at.
    struct Sent: Sendable, Decodable, Equatable {
        var operation = ""
        var idempotencyKey: String?
        var setId: String?
        var refreshToken: String?

        enum CodingKeys: String, CodingKey {
            case idempotencyKey = "idempotency_key"
            case setId = "set_id"
            case refreshToken = "refresh_token"
        }
    }

    struct CutOff: Error {}

    private struct State {
        var modes: [String: Mode] = [:]
        var everything: Mode = .online
        var attempts: [Sent] = []
        var delivered: [Sent] = []
    }

    private let state = Mutex(State())

    /// Sets how `operation`'s requests fare (nil: every operation without a mode of its own).
    func set(_ mode: Mode, for operation: String? = nil) {
        state.withLock {
            if let operation { $0.modes[operation] = mode } else { $0.everything = mode }
        }
    }

    /// Every request the kit tried to send, in order.
    var attempts: [Sent] { state.withLock { $0.attempts } }
    /// The requests that reached the server, in order.
    var delivered: [Sent] { state.withLock { $0.delivered } }

    func delivered(_ operation: String) -> [Sent] { delivered.filter { $0.operation == operation } }

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var sent = Sent()
        var forwarded = body
        if let body {
            let bytes = try await Data(collecting: body, upTo: 1 << 20)
            sent = (try? JSONDecoder().decode(Sent.self, from: bytes)) ?? Sent()
            forwarded = HTTPBody(bytes)
        }
        sent.operation = operationID
        let mode = state.withLock { state in
            state.attempts.append(sent)
            return state.modes[operationID] ?? state.everything
        }
        if mode == .offline { throw CutOff() }
        let answer = try await next(request, forwarded, baseURL)
        state.withLock { $0.delivered.append(sent) }
        if mode == .answerLost { throw CutOff() }
        return answer
    }
}
