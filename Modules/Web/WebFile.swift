import Foundation

/// One file of the web app as it is served: its bytes, their gzip form when that is smaller, its type and the
/// cache rule that fits its name.
struct WebFile: Sendable {
    /// How long a browser may keep it.
    enum Caching: Sendable {
        /// Under a versioned path (`/assets/<version>/…`): the bytes at that path never change.
        case immutable
        /// At a fixed path (`/`, `/sw.js`, the manifest): asked again each time, answered 304 while unchanged.
        case revalidate
    }

    let contentType: String
    let body: [UInt8]
    let gzipped: [UInt8]?
    let caching: Caching

    init(path: String, body: [UInt8], caching: Caching) {
        self.contentType = Self.contentType(of: path)
        self.body = body
        self.caching = caching
        // Text compresses; images and fonts already are. gzip is kept only when it saves something.
        let compressed = Self.isText(path) ? Gzip.compress(body) : nil
        self.gzipped = compressed.flatMap { $0.count < body.count ? $0 : nil }
    }

    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "svg": "image/svg+xml"
        case "webmanifest": "application/manifest+json"
        case "json": "application/json"
        case "png": "image/png"
        case "woff2": "font/woff2"
        case "txt", "md": "text/plain; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    static func isText(_ path: String) -> Bool {
        ["html", "js", "mjs", "css", "svg", "webmanifest", "json", "txt", "md"].contains((path as NSString).pathExtension.lowercased())
    }
}
