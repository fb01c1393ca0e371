import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOHTTP1
import Platform
import Synchronization

/// Talks to an OpenAI-compatible chat-completions endpoint (`POST {base}/chat/completions`, streamed): Ollama,
/// llama.cpp's server, vLLM, LM Studio or a hosted model.
///
/// - The request names the model, the messages, the tools (as `function` tools with JSON Schemas), `stream: true`
///   and `stream_options.include_usage`; `Authorization: Bearer` carries the API key when one is set.
/// - Text deltas are handed to `onText` as they arrive, so the user reads them while the model writes.
/// - **Timeouts**: the first chunk must come within `firstChunkTimeout` of sending (measured on the injected
///   clock), the whole answer within `totalTimeout`.
/// - **Retries** only before the first chunk (nothing was shown yet): a 429, a 5xx or a connection failure is
///   retried up to `retries` times, `retryDelay` apart (doubling); after the first chunk a failure ends the turn.
/// - A failure is `UNAVAILABLE` naming the upstream cause (status, timeout, a stream that ended before
///   `[DONE]`), never the key; a 4xx other than 429 is `UNAVAILABLE` too, with the server's message, since the
///   request is ours.
struct ChatCompletionsClient: Sendable {
    struct Settings: Sendable {
        var baseURL: String
        var model: String
        var apiKey: String?
        var firstChunkTimeout: Duration = .seconds(30)
        var totalTimeout: Duration = .seconds(120)
        var retries = 2
        var retryDelay: Duration = .milliseconds(500)
    }

    let settings: Settings
    let http: HTTPClient
    let clock: any Clock<Duration>

    /// Streams one completion of `messages` with `tools`, handing text deltas to `onText`.
    func complete(
        messages: [JSONValue], tools: [CoachToolDefinition], onText: @escaping @Sendable (String) async throws -> Void
    ) async throws -> ModelReply {
        let body = try Self.requestBody(model: settings.model, messages: messages, tools: tools)
        var attempt = 0
        while true {
            do {
                return try await attemptCompletion(body: body, onText: onText)
            } catch  where Task.isCancelled {
                throw CancellationError()
            } catch let failure as Failure where failure.retryable && attempt < settings.retries {
                attempt += 1
                let delay = settings.retryDelay * (1 << (attempt - 1))
                if delay > .zero { try await clock.sleep(for: delay) }
            } catch let failure as Failure {
                throw ServiceError(
                    .unavailable,
                    "The coach's language model is not answering right now (\(failure.reason)). Please try again in a moment.",
                    details: ["upstream": failure.reason])
            }
        }
    }

    /// The request body (a plain encoder: schema keywords such as `minLength` keep their case).
    static func requestBody(model: String, messages: [JSONValue], tools: [CoachToolDefinition]) throws -> Data {
        var body: [String: JSONValue] = [
            "model": .string(model), "messages": .array(messages), "stream": true, "stream_options": ["include_usage": true],
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

    private func attemptCompletion(body: Data, onText: @escaping @Sendable (String) async throws -> Void) async throws -> ModelReply {
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
            response = try await http.execute(request, timeout: .nanoseconds(settings.totalTimeout.nanoseconds) + .seconds(5))
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw Failure(reason: "unreachable: \(error)", retryable: true)
        }
        guard response.status == .ok else {
            let text = (try? await response.body.collect(upTo: 64 * 1024)).map { String(buffer: $0) } ?? ""
            let message = (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)))?["error"]?["message"]?.stringValue
            let code = Int(response.status.code)
            throw Failure(
                reason: "HTTP \(code)\(message.map { ": \($0.prefix(200))" } ?? "")", retryable: code == 429 || code >= 500)
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
