import OpenAPIRuntime

#if canImport(Darwin)
    import OpenAPIURLSession
#else
    import AsyncHTTPClient
    import OpenAPIAsyncHTTPClient
#endif

/// The HTTP transport the generated `Client` speaks through: URLSession on Apple platforms, async-http-client
/// elsewhere (Linux tools, the tests).
public enum PovverTransport {
    /// The platform's transport on its shared HTTP client (`URLSession.shared`, `HTTPClient.shared`). With
    /// async-http-client the timeout (a minute) bounds the wait for an answer's head only, so a coach stream may run longer.
    public static func platformDefault() -> any ClientTransport {
        #if canImport(Darwin)
            URLSessionTransport()
        #else
            AsyncHTTPClientTransport()
        #endif
    }
}
