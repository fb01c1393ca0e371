import Contracts
import Testing

@testable import Conversations

/// The coach's settings: the model's limits with their defaults and ranges, and a model URL that would send
/// users' messages in the clear across a network refused at start.
@Suite struct ConversationsSettingsTests {
    @Test func theLimitsHaveDefaults() throws {
        let settings = try ConversationsSettings(environment: [:])
        #expect(settings.llmMaxTokens == 4096 && settings.llmMaxToolCallsPerStep == 8)
        #expect(settings.llmMaxConnections == 16 && settings.llmConnectionWait == .milliseconds(2000))
        #expect(settings.maxStreamsPerUser == 2 && !settings.llmAllowInsecure)
        let set = try ConversationsSettings(environment: [
            "POVVER_LLM_MAX_TOKENS": "512", "POVVER_LLM_MAX_TOOL_CALLS_PER_STEP": "3", "POVVER_LLM_MAX_CONNECTIONS": "64",
            "POVVER_LLM_CONNECTION_WAIT_MS": "0", "POVVER_COACH_MAX_STREAMS_PER_USER": "5",
        ])
        #expect(set.llmMaxTokens == 512 && set.llmMaxToolCallsPerStep == 3 && set.llmMaxConnections == 64)
        #expect(set.llmConnectionWait == .zero && set.maxStreamsPerUser == 5)
    }

    @Test(arguments: [
        ("POVVER_LLM_MAX_TOKENS", "0"), ("POVVER_LLM_MAX_TOKENS", "1000000"), ("POVVER_LLM_MAX_TOOL_CALLS_PER_STEP", "0"),
        ("POVVER_LLM_MAX_CONNECTIONS", "0"), ("POVVER_LLM_MAX_CONNECTIONS", "many"), ("POVVER_LLM_CONNECTION_WAIT_MS", "-1"),
        ("POVVER_LLM_CONNECTION_WAIT_MS", "600000"), ("POVVER_COACH_MAX_STREAMS_PER_USER", "0"), ("POVVER_LLM_ALLOW_INSECURE", "yes"),
    ])
    func aValueOutOfRangeStopsTheStartNamingIt(name: String, value: String) {
        #expect(
            performing: { try ConversationsSettings(environment: [name: value]) },
            throws: { ($0 as? ServiceError)?.code == .invalidArgument && ($0 as? ServiceError)?.details["field"] == name })
    }

    @Test func plainHTTPToAnotherMachineIsRefusedUnlessAllowed() throws {
        for url in ["http://10.0.0.5:11434/v1", "http://models.internal/v1", "http://128.0.0.1/v1", "http://127.example.com/v1"] {
            #expect(
                "\(url)",
                performing: { try ConversationsSettings(environment: ["POVVER_LLM_BASE_URL": url, "POVVER_LLM_MODEL": "m"]) },
                throws: { error in
                    let error = error as? ServiceError
                    return error?.details["field"] == "POVVER_LLM_BASE_URL"
                        && error?.message.contains("POVVER_LLM_ALLOW_INSECURE=on") == true
                })
            let allowed = try ConversationsSettings(
                environment: ["POVVER_LLM_BASE_URL": url, "POVVER_LLM_MODEL": "m", "POVVER_LLM_ALLOW_INSECURE": "on"])
            #expect(allowed.llmBaseURL == url)
        }
        for url in [
            "http://localhost:11434/v1", "http://LOCALHOST/v1", "http://127.0.0.1:8080/v1", "http://127.1.2.3/v1", "http://[::1]:11434/v1",
            "https://models.example.com/v1", "https://10.0.0.5/v1",
        ] {
            #expect(try ConversationsSettings(environment: ["POVVER_LLM_BASE_URL": url, "POVVER_LLM_MODEL": "m"]).llmBaseURL == url)
        }
    }
}
