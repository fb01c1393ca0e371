import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import Platform
import TestSupport
import Testing

@testable import Conversations

/// A model that fails tells the user only that the coach's model is not answering, with the request's id; the
/// upstream detail (hosts, ports, the model server's own words) goes to the log under that id. A redirect from the
/// model endpoint is a failure, never followed.
@Suite struct ModelFailureTextTests {
    typealias Reply = FakeChatServer.Reply
    typealias Model = LanguageModelCoachTests

    @Test(arguments: TestDatabases.engines)
    func anUnreachableModelIsNamedInTheLogNotToTheUser(engine: SQLEngine) async throws {
        // Nothing listens on port 1 of this machine: the connection is refused.
        try await CoachHarness.with(engine, model: Model.model("http://127.0.0.1:1/v1")) { h in
            let log = RecordedLog()
            let events = await h.send("u1", "hi", logger: log.logger(requestId: "req-unreachable"))
            let message = try #require(events.last?["message"]?.stringValue)
            #expect(events.errorCode == "UNAVAILABLE" && events.types == ["message_start", "status", "error"], "\(events)")
            #expect(message.contains("not answering") && message.contains("req-unreachable"), "\(message)")
            #expect(!message.contains("127.0.0.1") && !message.contains(":1") && !message.lowercased().contains("refused"), "\(message)")
            let failed = try #require(log.events("coach_model_failed").first, "\(log.text)")
            #expect(
                failed.metadata["request_id"] == "req-unreachable" && failed.metadata["attempts"]?.description == "3", "\(failed.metadata)")
            #expect(failed.metadata["upstream"]?.description.contains("unreachable") == true, "\(failed.metadata)")
        }
    }

    @Test(arguments: TestDatabases.engines)
    func theModelServersOwnWordsStayInTheLog(engine: SQLEngine) async throws {
        let body = #"{"error":{"message":"upstream gpu-7.internal:8000 rejected key sk-live-123"}}"#
        try await Model.with(engine, [.status(400, body)]) { h, server in
            let log = RecordedLog()
            let events = await h.send("u1", "hi", logger: log.logger(requestId: "req-400"))
            let message = try #require(events.last?["message"]?.stringValue)
            #expect(events.errorCode == "UNAVAILABLE" && message.contains("req-400"), "\(events)")
            #expect(!message.contains("gpu-7") && !message.contains("8000") && !message.contains("HTTP 400"), "\(message)")
            #expect(server.requests.count == 1, "a 400 is not retried")
            #expect(log.events("coach_model_failed").first?.metadata["upstream"]?.description.contains("gpu-7.internal:8000") == true)
        }
    }

    @Test func theErrorCarriesTheRequestIdAsADetailWhenThereIsOne() {
        let error = ChatCompletionsClient.notAnswering(requestId: "req-9")
        #expect(error.code == .unavailable && error.details == ["request_id": "req-9"] && error.message.contains("req-9"))
        let withoutHTTP = ChatCompletionsClient.notAnswering(requestId: nil)
        #expect(
            withoutHTTP.details.isEmpty
                && withoutHTTP.message == "The coach's model is not answering right now. Please try again in a moment.")
        var logger = Logger(label: "test")
        #expect(ChatCompletionsClient.requestId(of: logger) == nil)
        logger[metadataKey: "request_id"] = "abc"
        #expect(ChatCompletionsClient.requestId(of: logger) == "abc")
    }

    @Test(arguments: TestDatabases.engines)
    func aRedirectFromTheModelIsNotFollowed(engine: SQLEngine) async throws {
        let replies: [Reply] = [.redirect(FakeChatServer.movedPath), .stream(FakeChatServer.text(["Followed."]))]
        try await Model.with(engine, replies) { h, server in
            let log = RecordedLog()
            let events = await h.send("u1", "hi", logger: log.logger(requestId: "req-redirect"))
            #expect(events.errorCode == "UNAVAILABLE" && events.text.isEmpty, "\(events)")
            #expect(server.requests.map(\.path) == ["/v1/chat/completions"], "the moved path was never asked")
            #expect(log.events("coach_model_failed").first?.metadata["upstream"]?.description.contains("HTTP 307") == true, "\(log.text)")
        }
    }

    @Test func theModelsHTTPClientFollowsNoRedirectAndHasThePoolItIsGiven() {
        let configuration = ModelHTTPClient.configuration(maxConnections: 3, connectTimeout: .seconds(10))
        #expect(configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit == 3)
        #expect(!configuration.connectionPool.retryConnectionEstablishment, "a refused connection is the client's retry to make")
        let client = ChatCompletionsClient(
            settings: .init(baseURL: "http://127.0.0.1:1/v1", model: "m", apiKey: nil, maxConnections: 5), clock: ContinuousClock())
        #expect(client.gate.limit == 5)
    }
}
