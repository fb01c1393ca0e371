import Foundation
import OpenAPIRuntime

extension Client {
    /// A client of the Povver server at `serverURL` (`https://api.example.com`, no trailing path), on the
    /// platform's transport unless one is given, with the server's timestamp form; a nil the document requires is
    /// sent as null (`RequiredNulls`).
    public static func povver(
        serverURL: URL, transport: (any ClientTransport)? = nil, middlewares: [any ClientMiddleware] = []
    ) -> Client {
        Client(
            serverURL: serverURL, configuration: .povver, transport: transport ?? PovverTransport.platformDefault(),
            middlewares: [RequiredNulls()] + middlewares)
    }
}
