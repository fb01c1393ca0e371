import AsyncHTTPClient
import NIOCore

/// The HTTP client the coach's model is reached with: its own, not the platform's shared one, because the model
/// needs settings of its own:
///
/// - **No redirects**: a model endpoint that answers 3xx is a failure, never followed (a redirect could carry the
///   API key and users' messages to another host).
/// - **Its pool**: at most `maxConnections` connections to the model host (`POVVER_LLM_MAX_CONNECTIONS`); the
///   `ModelConnectionGate` in front lets as many completions run at once, so nothing queues inside the pool.
/// - **A refused connection fails at once** rather than being tried again inside the pool until the connect
///   timeout: `ChatCompletionsClient` has its own retries (before the first chunk), and a turn should not hold a
///   connection permit for ten seconds to learn the model is down.
///
/// It runs on the process's shared event loops and is shut down when the last holder lets it go.
final class ModelHTTPClient: Sendable {
    let client: HTTPClient

    init(maxConnections: Int, connectTimeout: TimeAmount = .seconds(10)) {
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: Self.configuration(maxConnections: maxConnections, connectTimeout: connectTimeout))
    }

    static func configuration(maxConnections: Int, connectTimeout: TimeAmount) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: connectTimeout),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, maxConnections)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        return configuration
    }

    deinit {
        client.shutdown { _ in }
    }
}
