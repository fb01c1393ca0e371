import Foundation
import Platform

/// Conversations' own settings: the OpenAI-compatible model behind the coach (`POVVER_LLM_BASE_URL`,
/// `POVVER_LLM_MODEL`, `POVVER_LLM_API_KEY`); unset, the coach is the rule-based one. A bad value throws
/// `INVALID_ARGUMENT` naming the variable.
public struct ConversationsSettings: Sendable {
    public var llmBaseURL: String?
    public var llmModel: String?
    public var llmAPIKey: String?

    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        llmBaseURL = reader.value("POVVER_LLM_BASE_URL")
        llmModel = reader.value("POVVER_LLM_MODEL")
        llmAPIKey = reader.value("POVVER_LLM_API_KEY")
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
