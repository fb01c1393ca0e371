import Foundation
import Platform

/// A tool call a chat-completions model asked for: its id (to answer it with a `tool` message), the tool's name
/// and the arguments as the model wrote them (a JSON text, not yet parsed).
struct ModelToolCall: Sendable, Equatable {
    var id: String
    var name: String
    var arguments: String
}

/// What one streamed chat completion said: its text, its tool calls in index order, why it stopped, and the
/// tokens the server counted.
struct ModelReply: Sendable, Equatable {
    var text = ""
    var toolCalls: [ModelToolCall] = []
    var finishReason: String?
    var promptTokens = 0
    var completionTokens = 0
}

/// Reads a streamed chat completion (OpenAI's protocol: Server-Sent Events whose `data:` lines each hold one
/// chunk, ended by `data: [DONE]`) and assembles the reply: text deltas are handed on as they come, tool-call
/// deltas are joined by their `index` (the id and name come in the first delta of a call, the arguments in pieces
/// over many), and `usage` is kept when the server sends it.
///
/// Lines are taken whole across network reads; `\r\n` ends a line too; comments (`:`) and other fields are
/// skipped. A chunk that is not JSON, or an `error` object in place of a chunk, is an upstream failure.
struct ChatCompletionStream {
    private var buffer: [UInt8] = []
    private var calls: [Int: ModelToolCall] = [:]
    private(set) var reply = ModelReply()
    /// Whether `[DONE]` was read.
    private(set) var finished = false
    /// Whether any chunk was read (a retry is only safe before).
    private(set) var started = false

    enum Failure: Error, Equatable {
        case malformedChunk(String)
        case upstreamError(String)
    }

    /// Feeds bytes as they arrive; answers the text deltas they completed, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [String] {
        buffer.append(contentsOf: bytes)
        var deltas: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = Array(buffer[..<newline])
            buffer.removeSubrange(...newline)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if let delta = try take(String(decoding: line, as: UTF8.self)) { deltas.append(delta) }
        }
        return deltas
    }

    /// The tool calls assembled so far, by index.
    var toolCalls: [ModelToolCall] { calls.sorted { $0.key < $1.key }.map(\.value) }

    private mutating func take(_ line: String) throws -> String? {
        guard line.hasPrefix("data:"), !finished else { return nil }
        let payload = line.dropFirst(5).trimmingCharacters(in: .whitespaces)
        if payload == "[DONE]" {
            finished = true
            reply.toolCalls = toolCalls
            return nil
        }
        started = true
        guard let chunk = try? JSONDecoder().decode(JSONValue.self, from: Data(payload.utf8)) else {
            throw Failure.malformedChunk(String(payload.prefix(200)))
        }
        if let error = chunk["error"] {
            throw Failure.upstreamError(error["message"]?.stringValue ?? String(payload.prefix(200)))
        }
        if let usage = chunk["usage"], case .int(let prompt)? = usage["prompt_tokens"] {
            reply.promptTokens = prompt
            if case .int(let completion)? = usage["completion_tokens"] { reply.completionTokens = completion }
        }
        guard let choice = chunk["choices"]?.arrayValue?.first else { return nil }
        if let reason = choice["finish_reason"]?.stringValue { reply.finishReason = reason }
        let delta = choice["delta"]
        for call in delta?["tool_calls"]?.arrayValue ?? [] {
            guard case .int(let index)? = call["index"] else { continue }
            var assembled = calls[index] ?? ModelToolCall(id: "", name: "", arguments: "")
            if let id = call["id"]?.stringValue, !id.isEmpty { assembled.id = id }
            // The name comes whole, in the call's first delta (a server that repeats it does not double it).
            if let name = call["function"]?["name"]?.stringValue, assembled.name.isEmpty { assembled.name = name }
            if let arguments = call["function"]?["arguments"]?.stringValue { assembled.arguments += arguments }
            calls[index] = assembled
        }
        reply.toolCalls = toolCalls
        guard let text = delta?["content"]?.stringValue, !text.isEmpty else { return nil }
        reply.text += text
        return text
    }
}
