import Contracts
import Hummingbird
import Logging

/// Builds the router every server and test uses: observability outermost, then the error envelope, then
/// open routes and the authenticated routes behind the auth lanes.
public enum APIRouter {
    public static func build(
        endpoints: [Endpoint], lanes: AuthLaneMiddleware, metrics: ServerMetrics, ids: any IDGenerator,
        settings: EndpointSettings
    ) -> Router<APIRequestContext> {
        // HEAD wherever GET is served (a monitor's check): the GET answer's status and headers, no body.
        let router = Router(context: APIRequestContext.self, options: .autoGenerateHeadEndpoints)
        var allowed: [String: Set<String>] = [:]
        for endpoint in endpoints {
            allowed[endpoint.path, default: []].formUnion(
                endpoint.methods.map(\.rawValue) + (endpoint.methods.contains(.get) ? ["HEAD"] : []))
        }
        router.add(middleware: ObservabilityMiddleware(metrics: metrics, ids: ids, trustedProxies: settings.trustedProxies))
        router.add(middleware: ErrorEnvelopeMiddleware(allowedMethods: allowed.mapValues { $0.sorted() }))
        let authenticated = router.group().add(middleware: lanes)
        for endpoint in endpoints {
            for method in endpoint.methods {
                let path = RouterPath(endpoint.path)
                let respond = endpoint.respond
                guard endpoint.access != .open else {
                    router.on(path, method: method) { request, context in try await respond(request, context, settings) }
                    continue
                }
                // The account's own operations take the user's session only; all but confirm, cancel and sign-out
                // need a confirmed account.
                let bearerOnly = endpoint.access == .account || endpoint.access == .unconfirmedUser
                let confirmedOnly = endpoint.access != .unconfirmedUser
                authenticated.on(path, method: method) { request, context in
                    if bearerOnly { try Self.requireBearerLane(context) }
                    if confirmedOnly, context.principal?.isConfirmed == false { throw ServiceError(.accountNotConfirmed) }
                    return try await respond(request, context, settings)
                }
            }
        }
        return router
    }

    /// The request came with the user's own access token (a session), not through the service lane.
    static func requireBearerLane(_ context: APIRequestContext) throws {
        guard context.principal?.sessionId != nil else {
            throw ServiceError(.permissionDenied, "Only the user can do this, signed in with their own session; the service lane cannot.")
        }
    }
}
