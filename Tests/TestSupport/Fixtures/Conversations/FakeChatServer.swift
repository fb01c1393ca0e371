import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Platform
import Synchronization

/// A local OpenAI-compatible chat-completions server for the model client's tests: it answers each request with
/// the next scripted reply, streamed as the protocol streams (`data:` chunks, then `data: [DONE]`), and records
/// every request it got (path, body and headers) for the tests to assert.
public final class FakeChatServer: Sendable {
    /// A scripted reply.
    public enum Reply: Sendable {
        /// Streamed chunks (each a JSON chunk object); `done: false` ends the stream without `[DONE]` (cut mid-way);
        /// `held` waits for `release()` (or its turn of `releaseOne()`) before the first chunk (a slow first token, a
        /// connection kept busy).
        case stream([JSONValue], done: Bool = true, held: Bool = false)
        /// A plain answer with this status and body, before any chunk (a 429, a 500).
        case status(Int, String)
        /// `307 Temporary Redirect` to `path` on this server (`movedPath` answers there as the usual path does).
        case redirect(String)
    }

    /// Where a `.redirect` may send a client: it answers as `/v1/chat/completions` does, and is recorded as such.
    public static let movedPath = "/moved/v1/chat/completions"

    public struct Recorded: Sendable {
        public var path: String
        public var body: JSONValue
        public var authorization: String?
    }

    private struct Holds {
        var all = false
        var credits = 0
        var waiting: [AsyncStream<Void>.Continuation] = []
    }

    private let script: Mutex<[Reply]>
    private let recorded = Mutex<[Recorded]>([])
    private let holds = Mutex(Holds())

    public init(_ replies: [Reply]) {
        script = Mutex(replies)
    }

    public var requests: [Recorded] { recorded.withLock { $0 } }

    /// The held replies waiting to go on.
    public var holding: Int { holds.withLock { $0.waiting.count } }

    /// Lets every held reply go on, now and later.
    public func release() {
        let waiting = holds.withLock { holds in
            holds.all = true
            defer { holds.waiting = [] }
            return holds.waiting
        }
        for continuation in waiting { continuation.finish() }
    }

    /// Lets the held reply that has waited longest go on (or the next one to be held, if none waits).
    public func releaseOne() {
        let next = holds.withLock { holds -> AsyncStream<Void>.Continuation? in
            guard !holds.waiting.isEmpty else {
                holds.credits += 1
                return nil
            }
            return holds.waiting.removeFirst()
        }
        next?.finish()
    }

    private func hold() async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let go = holds.withLock { holds in
            if holds.all { return true }
            if holds.credits > 0 {
                holds.credits -= 1
                return true
            }
            holds.waiting.append(continuation)
            return false
        }
        if !go { for await _ in stream {} }
    }

    /// Serves on a free local port; `body` gets the base URL (`http://127.0.0.1:PORT/v1`).
    public func serve(_ body: @escaping @Sendable (String) async throws -> Void) async throws {
        let router = Router()
        let answer: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let data = try await request.body.collect(upTo: 1 << 22)
            let json = try JSONDecoder().decode(JSONValue.self, from: Data(data.readableBytesView))
            self.recorded.withLock {
                $0.append(Recorded(path: request.uri.path, body: json, authorization: request.headers[.authorization]))
            }
            let next = self.script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            switch next {
            case nil:
                return Response(
                    status: .internalServerError, body: .init(byteBuffer: ByteBuffer(string: #"{"error":{"message":"no script left"}}"#)))
            case .status(let code, let text)?:
                return Response(
                    status: .init(code: code), headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
            case .redirect(let path)?:
                return Response(status: .temporaryRedirect, headers: [.location: path])
            case .stream(let chunks, let done, let held)?:
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream"],
                    body: ResponseBody { writer in
                        if held { await self.hold() }
                        let encoder = JSONEncoder()
                        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                        for chunk in chunks {
                            try await writer.write(
                                ByteBuffer(string: "data: \(String(decoding: try encoder.encode(chunk), as: UTF8.self))\n\n"))
                        }
                        if done { try await writer.write(ByteBuffer(string: "data: [DONE]\n\n")) }
                        try await writer.finish(nil)
                    })
            }
        }
        router.post("v1/chat/completions", use: answer)
        router.post("moved/v1/chat/completions", use: answer)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body("http://127.0.0.1:\(client.port!)/v1")
        }
    }

    // Chunks as the protocol streams them.

    public static func text(_ pieces: [String], usage: (Int, Int) = (120, 30)) -> [JSONValue] {
        pieces.map { ["choices": [["index": 0, "delta": ["content": .string($0)], "finish_reason": .null]]] }
            + [
                ["choices": [["index": 0, "delta": [:], "finish_reason": "stop"]]],
                ["choices": [], "usage": ["prompt_tokens": .int(usage.0), "completion_tokens": .int(usage.1)]],
            ]
    }

    /// Tool calls, each `(id, name, argument pieces)`, streamed as deltas by index: the first delta of a call holds
    /// its id and name, the rest only argument pieces; calls interleave when there are several.
    public static func toolCalls(_ calls: [(id: String, name: String, pieces: [String])], text: String? = nil) -> [JSONValue] {
        var chunks: [JSONValue] = []
        if let text { chunks.append(["choices": [["index": 0, "delta": ["content": .string(text)], "finish_reason": .null]]]) }
        for (index, call) in calls.enumerated() {
            chunks.append([
                "choices": [
                    [
                        "index": 0,
                        "delta": [
                            "tool_calls": [
                                [
                                    "index": .int(index), "id": .string(call.id), "type": "function",
                                    "function": ["name": .string(call.name), "arguments": ""],
                                ]
                            ]
                        ], "finish_reason": .null,
                    ]
                ]
            ])
        }
        let longest = calls.map(\.pieces.count).max() ?? 0
        for step in 0..<longest {
            for (index, call) in calls.enumerated() where step < call.pieces.count {
                chunks.append([
                    "choices": [
                        [
                            "index": 0,
                            "delta": ["tool_calls": [["index": .int(index), "function": ["arguments": .string(call.pieces[step])]]]],
                            "finish_reason": .null,
                        ]
                    ]
                ])
            }
        }
        chunks.append(["choices": [["index": 0, "delta": [:], "finish_reason": "tool_calls"]]])
        chunks.append(["choices": [], "usage": ["prompt_tokens": 200, "completion_tokens": 20]])
        return chunks
    }

    /// The script of the coach issue's "done when": the model searches the catalog (text first), proposes a 3-day
    /// full-body routine (its arguments in 7-character pieces), then closes with text.
    public static func threeDayPlan(squat: String = "Barbell_Squat", bench: String = "Barbell_Bench_Press_-_Medium_Grip") -> [Reply] {
        let day = { (name: String, ids: [String]) -> JSONValue in
            [
                "name": .string(name),
                "exercises": .array(
                    ids.map {
                        ["exercise_id": .string($0), "sets": [["target_reps": 8, "target_rir": 2], ["target_reps": 8, "target_rir": 2]]]
                    }),
            ]
        }
        let plan: JSONValue = [
            "name": "Full Body 3x", "frequency": 3,
            "templates": [
                day("Day A", [squat, bench, "Bent_Over_Barbell_Row"]),
                day("Day B", ["Romanian_Deadlift", "Standing_Military_Press", "Pullups"]),
                day("Day C", ["Leg_Press", "Dumbbell_Bench_Press", "Bent_Over_Barbell_Row"]),
            ],
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let arguments = String(decoding: (try? encoder.encode(plan)) ?? Data(), as: UTF8.self)
        let pieces = stride(from: 0, to: arguments.count, by: 7).map { String(arguments.dropFirst($0).prefix(7)) }
        return [
            .stream(toolCalls([("call_search", "search_exercises", [#"{"query":"#, #""squat","limit":3}"#])], text: "Let me look. ")),
            .stream(toolCalls([("call_plan", "propose_routine", pieces)])),
            .stream(text(["Here is your plan.", " Accept it to start."])),
        ]
    }
}
