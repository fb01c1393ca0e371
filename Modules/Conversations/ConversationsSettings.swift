import Foundation
import Platform

/// Conversations' own settings: the OpenAI-compatible model behind the coach (`POVVER_LLM_BASE_URL`,
/// `POVVER_LLM_MODEL`, `POVVER_LLM_API_KEY`); unset, the coach is the rule-based one. With a model: how long its
/// first chunk may take (`POVVER_LLM_FIRST_TOKEN_TIMEOUT_SECONDS`, 30), the whole answer
/// (`POVVER_LLM_TIMEOUT_SECONDS`, 120), and how many completions one turn may take (`POVVER_LLM_MAX_STEPS`, 6). A
/// bad value throws `INVALID_ARGUMENT` naming the variable.
public struct ConversationsSettings: Sendable {
    public var llmBaseURL: String?
    public var llmModel: String?
    public var llmAPIKey: String?
    public var llmFirstTokenTimeout: Duration
    public var llmTimeout: Duration
    public var llmMaxSteps: Int

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        llmBaseURL = reader.value("POVVER_LLM_BASE_URL")
        llmModel = reader.value("POVVER_LLM_MODEL")
        llmAPIKey = reader.value("POVVER_LLM_API_KEY")
        llmFirstTokenTimeout = .seconds(try reader.integer("POVVER_LLM_FIRST_TOKEN_TIMEOUT_SECONDS", default: 30, range: 1...600))
        llmTimeout = .seconds(try reader.integer("POVVER_LLM_TIMEOUT_SECONDS", default: 120, range: 1...3600))
        llmMaxSteps = try reader.integer("POVVER_LLM_MAX_STEPS", default: 6, range: 1...20)
        if let url = llmBaseURL {
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
                throw EnvironmentReader.invalid("POVVER_LLM_BASE_URL", "POVVER_LLM_BASE_URL must be an http or https URL.")
            }
            guard llmModel != nil else {
                throw EnvironmentReader.invalid("POVVER_LLM_MODEL", "POVVER_LLM_MODEL is required when POVVER_LLM_BASE_URL is set.")
            }
        }
    }
}
