import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Platform
import Synchronization

/// Talks to an OpenAI-compatible chat-completions endpoint (`POST {base}/chat/completions`, streamed): Ollama,
/// llama.cpp's server, vLLM, LM Studio or a hosted model.
///
/// - The request names the model, the messages, the tools (as `function` tools with JSON Schemas), `max_tokens`,
///   `stream: true` and `stream_options.include_usage`; `Authorization: Bearer` carries the API key when one is set.
/// - Text deltas are handed to `onText` as they arrive, so the user reads them while the model writes.
/// - **Connections**: at most `maxConnections` completions talk to the model at once (`ModelConnectionGate`, and the
///   HTTP client's pool as large, `ModelHTTPClient`, which follows no redirect); a completion that finds them all
///   busy waits at most `connectionWait`, then the turn ends with `UNAVAILABLE` "the coach is busy".
/// - **Timeouts**, from the moment a connection is ours (time queued for one does not count): the first chunk must
///   come within `firstChunkTimeout` (measured on the injected clock), the whole answer within `totalTimeout`.
/// - **Retries** only before the first chunk (nothing was shown yet): a 429, a 5xx or a connection failure is
///   retried up to `retries` times, `retryDelay` apart (doubling); after the first chunk a failure ends the turn.
/// - A failure is `UNAVAILABLE` "the coach's model is not answering" with the request's id (`details.request_id`);
///   what went wrong upstream (status, the server's message, a host the client could not reach, a timeout) goes to
///   the log under that id (`coach_model_failed`), never to the user, and never the key.
struct ChatCompletionsClient: Sendable {
    struct Settings: Sendable {
        var baseURL: String
        var model: String
        var apiKey: String?
        var firstChunkTimeout: Duration = .seconds(30)
        var totalTimeout: Duration = .seconds(120)
        var retries = 2
        var retryDelay: Duration = .milliseconds(500)
        /// `max_tokens` of each request: what one completion may write.
        var maxTokens = 4096
        /// Completions talking to the model at once (the HTTP client's pool holds as many connections).
        var maxConnections = 16
        /// How long a completion waits for a connection when all are busy.
        var connectionWait: Duration = .seconds(2)
    }

    let settings: Settings
    let http: ModelHTTPClient
    let clock: any Clock<Duration>
    let gate: ModelConnectionGate

    /// A client with its own HTTP client (`ModelHTTPClient`, sized by `settings.maxConnections`) unless one is given.
    init(settings: Settings, clock: any Clock<Duration>, http: ModelHTTPClient? = nil) {
        self.settings = settings
        self.clock = clock
        self.http = http ?? ModelHTTPClient(maxConnections: settings.maxConnections)
        self.gate = ModelConnectionGate(limit: settings.maxConnections)
    }

    /// Streams one completion of `messages` with `tools`, handing text deltas to `onText`. `logger` is the
    /// request's: a failure's upstream detail is logged with it (its `request_id` is the one the user is given).
    func complete(
        messages: [JSONValue], tools: [CoachToolDefinition], logger: Logger, onText: @escaping @Sendable (String) async throws -> Void
    ) async throws -> ModelReply {
        let body = try Self.requestBody(model: settings.model, messages: messages, tools: tools, maxTokens: settings.maxTokens)
        var attempt = 0
        while true {
            do {
                return try await attemptCompletion(body: body, logger: logger, onText: onText)
            } catch  where Task.isCancelled {
                throw CancellationError()
            } catch let failure as Failure where failure.retryable && attempt < settings.retries {
                attempt += 1
                logger.info(
                    "the coach's model failed; trying again",
                    metadata: ["event": "coach_model_retry", "upstream": .string(failure.reason), "attempt": .stringConvertible(attempt)])
                let delay = settings.retryDelay * (1 << (attempt - 1))
                if delay > .zero { try await clock.sleep(for: delay) }
            } catch let failure as Failure {
                logger.warning(
                    "the coach's model failed",
                    metadata: [
                        "event": "coach_model_failed", "model": .string(settings.model), "upstream": .string(failure.reason),
                        "attempts": .stringConvertible(attempt + 1),
                    ])
                throw Self.notAnswering(requestId: Self.requestId(of: logger))
            }
        }
    }

    /// What the user is told when the model fails: nothing of the upstream, the request's id to quote.
    static func notAnswering(requestId: String?) -> ServiceError {
        guard let requestId else {
            return ServiceError(.unavailable, "The coach's model is not answering right now. Please try again in a moment.")
        }
        return ServiceError(
            .unavailable, "The coach's model is not answering right now. Please try again in a moment (request \(requestId)).",
            details: ["request_id": requestId])
    }

    /// The id the HTTP layer gave the request, as its logger carries it (none outside HTTP, as in the coach CLI).
    static func requestId(of logger: Logger) -> String? {
        guard case .string(let id)? = logger[metadataKey: "request_id"], !id.isEmpty else { return nil }
        return id
    }

    /// The request body (a plain encoder: schema keywords such as `minLength` keep their case).
    static func requestBody(model: String, messages: [JSONValue], tools: [CoachToolDefinition], maxTokens: Int) throws -> Data {
        var body: [String: JSONValue] = [
            "model": .string(model), "messages": .array(messages), "max_tokens": .int(maxTokens), "stream": true,
            "stream_options": ["include_usage": true],
        ]
        if !tools.isEmpty {
            body["tools"] = .array(
                tools.map { tool in
                    [
                        "type": "function",
                        "function": ["name": .string(tool.name), "description": .string(tool.description), "parameters": tool.parameters],
                    ]
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(JSONValue.object(body))
    }

    /// Why an attempt failed, and whether another may be made (only before the first chunk).
    struct Failure: Error {
        var reason: String
        var retryable: Bool
    }

    private func attemptCompletion(body: Data, logger: Logger, onText: @escaping @Sendable (String) async throws -> Void) async throws
        -> ModelReply
    {
        do {
            try await gate.acquire(waiting: settings.connectionWait, on: clock)
        } catch let busy as ServiceError {
            logger.warning(
                "every connection to the coach's model is busy",
                metadata: ["event": "coach_model_busy", "connections": .stringConvertible(gate.limit)])
            throw busy
        }
        defer { gate.release() }
        // The timeouts start now: the time spent waiting for a connection is not the model's.
        let sawChunk = Flag()
        return try await withThrowingTaskGroup(of: ModelReply?.self) { group in
            group.addTask {
                try await self.stream(body: body, sawChunk: sawChunk, onText: onText)
            }
            // The watchdog: ends the attempt when nothing came within the first-chunk timeout, or the whole answer did
            // not within the total one (cancelled as soon as the answer is complete).
            group.addTask {
                try await clock.sleep(for: settings.firstChunkTimeout)
                if !sawChunk.isSet {
                    throw Failure(reason: "no answer within \(settings.firstChunkTimeout)", retryable: false)
                }
                try await clock.sleep(for: max(.zero, settings.totalTimeout - settings.firstChunkTimeout))
                throw Failure(reason: "the answer took longer than \(settings.totalTimeout)", retryable: false)
            }
            while let finished = try await group.next() {
                if let reply = finished {
                    group.cancelAll()
                    return reply
                }
            }
            throw Failure(reason: "the answer ended early", retryable: false)
        }
    }

    private func stream(body: Data, sawChunk: Flag, onText: @escaping @Sendable (String) async throws -> Void) async throws
        -> ModelReply
    {
        let base = settings.baseURL.hasSuffix("/") ? String(settings.baseURL.dropLast()) : settings.baseURL
        var request = HTTPClientRequest(url: base + "/chat/completions")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let key = settings.apiKey { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response: HTTPClientResponse
        do {
            // The watchdog times the answer on the injected clock; this deadline only bounds a connection that hangs.
            response = try await http.client.execute(request, timeout: .nanoseconds(settings.totalTimeout.nanoseconds) + .seconds(5))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Failure(reason: "unreachable: \(error)", retryable: true)
        }
        guard response.status == .ok else {
            let text = (try? await response.body.collect(upTo: 64 * 1024)).map { String(buffer: $0) } ?? ""
            let message = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?["error"]?["message"]?.stringValue
            let code = Int(response.status.code)
            let redirect = (300..<400).contains(code) ? " (a redirect, not followed)" : ""
            throw Failure(
                reason: "HTTP \(code)\(redirect)\(message.map { ": \($0.prefix(200))" } ?? "")", retryable: code == 429 || code >= 500)
        }
        var parser = ChatCompletionStream()
        do {
            for try await buffer in response.body {
                let deltas = try parser.feed(buffer.readableBytesView)
                if parser.started { sawChunk.set() }
                for delta in deltas { try await onText(delta) }
                if parser.finished { break }
            }
        } catch let error as ChatCompletionStream.Failure {
            throw Failure(reason: "\(error)", retryable: !parser.started)
        } catch let error as HTTPClientError {
            throw Failure(reason: "the stream broke: \(error)", retryable: !parser.started)
        }
        guard parser.finished else { throw Failure(reason: "the stream ended before [DONE]", retryable: !parser.started) }
        return parser.reply
    }
}

/// A flag set once, read from another task.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
