import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Platform

/// The routes that serve the web app: `/`, `/sw.js`, `/manifest.webmanifest` and `/assets/<version>/**`. They are
/// open (the app signs in through the API like any client) and left out of `/openapi.json`.
enum WebEndpoints {
    static func make(app: WebApp) -> [Endpoint] {
        let root = WebApp.rootFiles.values.sorted().map { path in route(path, app) { _ in path } }
        let assets = route("/assets/{version}/**", app) { context in
            "/assets/\(context.parameters.get("version") ?? "")/\(context.parameters.getCatchAll().joined(separator: "/"))"
        }
        return root + [assets]
    }

    /// A `GET` route answering the file `locate` names for the request, or NOT_FOUND.
    private static func route(_ path: String, _ app: WebApp, locate: @escaping @Sendable (APIRequestContext) -> String) -> Endpoint {
        var endpoint = Endpoint.get(path, tag: "Web", summary: "The web app's files.", response: Schema.string, contentType: "text/html") {
            request, context in
            guard let file = app.file(at: locate(context)) else { throw ServiceError(.notFound, "There is no such file.") }
            return respond(file, app: app, request: request)
        }
        endpoint.documented = false
        return endpoint
    }

    /// The file's bytes (gzip when the client takes it), or 304 when the client holds this version already.
    static func respond(_ file: WebFile, app: WebApp, request: Request) -> Response {
        var headers = WebHeaders.security(policy: app.contentSecurityPolicy)
        let etag = "\"\(app.version)\""
        headers[.contentType] = file.contentType
        headers[.eTag] = etag
        headers[.vary] = "Accept-Encoding"
        switch file.caching {
        case .immutable: headers[.cacheControl] = "public, max-age=31536000, immutable"
        case .revalidate: headers[.cacheControl] = "no-cache"
        }
        if request.headers[values: .ifNoneMatch].contains(where: {
            $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag }
        }) {
            return Response(status: .notModified, headers: headers)
        }
        var body = file.body
        if let gzipped = file.gzipped, WebHeaders.acceptsGzip(request.headers[values: .acceptEncoding]) {
            headers[.contentEncoding] = "gzip"
            body = gzipped
        }
        headers[.contentLength] = String(body.count)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
