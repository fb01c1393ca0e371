import Crypto
import Foundation

/// The web app's files, read once from the module's resources: the page (`/`), the service worker (`/sw.js`),
/// the manifest, and every other file under `/assets/<version>/`, where `version` is a digest of all the files.
/// A change to any file changes every asset URL, so assets are cached as immutable and a new deploy is never
/// mixed with an old one. The page, the worker and the manifest name the version through `{{version}}`; the
/// worker receives the list of asset URLs to keep offline in place of `["{{assets}}"]`; the page names the
/// configured sign-in providers in place of `{{sign-in}}`.
public struct WebApp: Sendable {
    /// The digest that versions the asset URLs (12 hex digits).
    public let version: String
    /// The Content Security Policy every file is served with (`WebHeaders`).
    let contentSecurityPolicy: String
    /// Served paths (`/`, `/sw.js`, `/manifest.webmanifest`, `/assets/<version>/app.js`, …) to their files.
    let files: [String: WebFile]

    /// The paths served outside `/assets/`.
    static let rootFiles = ["index.html": "/", "sw.js": "/sw.js", "manifest.webmanifest": "/manifest.webmanifest"]

    /// Reads the files of `directory` (the module's `app` resource by default).
    public static func load(from directory: URL? = nil, settings: WebSettings = WebSettings()) throws -> WebApp {
        guard let root = directory ?? Bundle.module.url(forResource: "app", withExtension: nil) else {
            throw WebAppError.missingResources
        }
        return try WebApp(sources: try readTree(root), settings: settings)
    }

    /// Builds the served files from `sources`: paths relative to the app's root (`index.html`, `assets/app.js`)
    /// to their bytes.
    init(sources: [String: [UInt8]], settings: WebSettings = WebSettings()) throws {
        var digest = SHA256()
        for (path, bytes) in sources.sorted(by: { $0.key < $1.key }) {
            digest.update(data: Array(path.utf8) + [0])
            digest.update(data: bytes)
            digest.update(data: [0])
        }
        // The settings change the page, so they take part in its version.
        digest.update(data: Array(settings.metaTags.utf8))
        let version = digest.finalize().map { String(format: "%02x", $0) }.joined().prefix(12)
        self.version = String(version)
        self.contentSecurityPolicy = WebHeaders.contentSecurityPolicy(for: settings)
        var files: [String: WebFile] = [:]
        var assets: [String] = []
        for (path, bytes) in sources {
            if Self.rootFiles[path] != nil { continue }
            guard path.hasPrefix("assets/") else { throw WebAppError.unexpectedFile(path) }
            let url = "/assets/\(version)/\(path.dropFirst("assets/".count))"
            files[url] = WebFile(path: path, body: bytes, caching: .immutable)
            assets.append(url)
        }
        let assetList =
            (try? JSONSerialization.data(withJSONObject: ["/"] + assets.sorted(), options: [.withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        for (path, served) in Self.rootFiles {
            guard let bytes = sources[path] else { throw WebAppError.missingFile(path) }
            let text = String(decoding: bytes, as: UTF8.self)
                .replacingOccurrences(of: #"["{{assets}}"]"#, with: assetList)
                .replacingOccurrences(of: "{{version}}", with: String(version))
                .replacingOccurrences(of: "{{sign-in}}", with: settings.metaTags)
            files[served] = WebFile(path: path, body: Array(text.utf8), caching: .revalidate)
        }
        self.files = files
    }

    /// The file served at `path`, if any.
    func file(at path: String) -> WebFile? { files[path] }

    /// Every served path.
    public var paths: [String] { files.keys.sorted() }

    private static func readTree(_ root: URL) throws -> [String: [UInt8]] {
        let base = root.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw WebAppError.missingResources
        }
        var sources: [String: [UInt8]] = [:]
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(base + "/") else { continue }
            sources[String(full.dropFirst(base.count + 1))] = Array(try Data(contentsOf: url))
        }
        return sources
    }
}

/// Why the web app's files could not be loaded (a packaging mistake: it stops the start).
public enum WebAppError: Error, CustomStringConvertible, Equatable {
    case missingResources
    case missingFile(String)
    case unexpectedFile(String)

    public var description: String {
        switch self {
        case .missingResources: "The web app's files are missing from the build (Modules/Web/Resources/app)."
        case .missingFile(let path): "The web app has no \(path)."
        case .unexpectedFile(let path): "The web app's file \(path) is neither a root file nor under assets/."
        }
    }
}
