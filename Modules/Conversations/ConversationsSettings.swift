import Foundation
import Platform

/// Conversations' own settings: the OpenAI-compatible model behind the coach (`POVVER_LLM_BASE_URL`,
/// `POVVER_LLM_MODEL`, `POVVER_LLM_API_KEY`); unset, the coach is the rule-based one. With a model: how long its
/// first chunk may take (`POVVER_LLM_FIRST_TOKEN_TIMEOUT_SECONDS`, 30), the whole answer
/// (`POVVER_LLM_TIMEOUT_SECONDS`, 120), how many completions one turn may take (`POVVER_LLM_MAX_STEPS`, 6), the
/// tokens one completion may write (`POVVER_LLM_MAX_TOKENS`, 4096), the tool calls of one step that run
/// (`POVVER_LLM_MAX_TOOL_CALLS_PER_STEP`, 8), the connections to the model (`POVVER_LLM_MAX_CONNECTIONS`, 16) and how
/// long a turn waits for one (`POVVER_LLM_CONNECTION_WAIT_MS`, 2000). A plain `http://` model URL must name this
/// machine unless `POVVER_LLM_ALLOW_INSECURE=on`. For every lane: the streams one user may have open at once
/// (`POVVER_COACH_MAX_STREAMS_PER_USER`, 2). A bad value throws `INVALID_ARGUMENT` naming the variable.
public struct ConversationsSettings: Sendable {
    public var llmBaseURL: String?
    public var llmModel: String?
    public var llmAPIKey: String?
    public var llmFirstTokenTimeout: Duration
    public var llmTimeout: Duration
    public var llmMaxSteps: Int
    public var llmMaxTokens: Int
    public var llmMaxToolCallsPerStep: Int
    public var llmMaxConnections: Int
    public var llmConnectionWait: Duration
    public var llmAllowInsecure: Bool
    public var maxStreamsPerUser: Int

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        llmBaseURL = reader.value("POVVER_LLM_BASE_URL")
        llmModel = reader.value("POVVER_LLM_MODEL")
        llmAPIKey = reader.value("POVVER_LLM_API_KEY")
        llmFirstTokenTimeout = .seconds(try reader.integer("POVVER_LLM_FIRST_TOKEN_TIMEOUT_SECONDS", default: 30, range: 1...600))
        llmTimeout = .seconds(try reader.integer("POVVER_LLM_TIMEOUT_SECONDS", default: 120, range: 1...3600))
        llmMaxSteps = try reader.integer("POVVER_LLM_MAX_STEPS", default: 6, range: 1...20)
        llmMaxTokens = try reader.integer("POVVER_LLM_MAX_TOKENS", default: 4096, range: 64...32768)
        llmMaxToolCallsPerStep = try reader.integer("POVVER_LLM_MAX_TOOL_CALLS_PER_STEP", default: 8, range: 1...32)
        llmMaxConnections = try reader.integer("POVVER_LLM_MAX_CONNECTIONS", default: 16, range: 1...1024)
        llmConnectionWait = .milliseconds(try reader.integer("POVVER_LLM_CONNECTION_WAIT_MS", default: 2000, range: 0...60000))
        llmAllowInsecure = try reader.choice("POVVER_LLM_ALLOW_INSECURE", default: "off", allowed: ["on", "off"]) == "on"
        maxStreamsPerUser = try reader.integer("POVVER_COACH_MAX_STREAMS_PER_USER", default: 2, range: 1...100)
        if let url = llmBaseURL {
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme),
                let host = parsed.host, !host.isEmpty
            else {
                throw EnvironmentReader.invalid("POVVER_LLM_BASE_URL", "POVVER_LLM_BASE_URL must be an http or https URL.")
            }
            guard scheme == "https" || llmAllowInsecure || Self.isLoopback(host) else {
                throw EnvironmentReader.invalid(
                    "POVVER_LLM_BASE_URL",
                    """
                    POVVER_LLM_BASE_URL is plain http:// to \(host), which is not this machine: the API key and every user's \
                    messages would cross the network in the clear. Use https://, or set POVVER_LLM_ALLOW_INSECURE=on for a \
                    network you trust.
                    """)
            }
            guard llmModel != nil else {
                throw EnvironmentReader.invalid("POVVER_LLM_MODEL", "POVVER_LLM_MODEL is required when POVVER_LLM_BASE_URL is set.")
            }
        }
    }

    /// Whether `host` (as a URL names it) is this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if name == "localhost" || name == "::1" || name == "0:0:0:0:0:0:0:1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && UInt8($0) != nil }
    }
}
