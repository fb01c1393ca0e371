import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import PovverModules
import TestSupport
import Testing

@testable import Web

/// The web module serves the app: the page with a strict Content Security Policy, assets under the deploy's
/// version (immutable, gzip when asked for), the service worker and manifest; it composes like any module.
@Suite struct WebAppServingTests {
    static func header(_ response: TestResponse, _ name: String) -> String? {
        HTTPField.Name(name).flatMap { response.headers[$0] }
    }

    @Test func thePageIsServedWithAStrictPolicyAndVersionedAssets() async throws {
        try await TestServer.with(.sqlite) { _, client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-cache")
            let policy = try #require(Self.header(page, "Content-Security-Policy"))
            #expect(
                policy.contains("script-src 'self'") && policy.contains("default-src 'self'") && policy.contains("frame-ancestors 'none'"))
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"))
            #expect(Self.header(page, "X-Content-Type-Options") == "nosniff")
            let html = String(buffer: page.body)
            #expect(!html.contains("{{"), "every placeholder is filled")
            #expect(!html.contains("<script>") && !html.contains(" style="), "no inline script or style")
            let assets = html.matches(of: /(?:src|href)="(\/assets\/[0-9a-f]{12}\/[^"]+)"/).map { String($0.output.1) }
            #expect(assets.count >= 4)
            for path in assets {
                let asset = try await client.execute(uri: path, method: .get)
                #expect(asset.status == .ok, "\(path)")
                #expect(asset.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(path)")
            }
        }
    }

    @Test func assetsAreGzippedForClientsThatTakeItAndAnsweredNotModifiedWhenHeld() async throws {
        try await TestServer.with(.sqlite) { _, client in
            let app = try WebApp.load()
            let path = "/assets/\(app.version)/app.js"
            let plain = try await client.execute(uri: path, method: .get)
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers[.contentType] == "text/javascript; charset=utf-8")
            let zipped = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "br, gzip;q=0.8"])
            #expect(zipped.headers[.contentEncoding] == "gzip")
            #expect(zipped.headers[.vary] == "Accept-Encoding")
            #expect(zipped.body.readableBytes < plain.body.readableBytes)
            let gunzip = try ChildProcess(["gzip", "-dc"], input: true, output: true)
            try #require(gunzip.input).write(Data(zipped.body.readableBytesView))
            try #require(gunzip.input).close()
            let unzipped = try #require(gunzip.output).readDataToEndOfFile()
            #expect(gunzip.waitUntilExit() == 0)
            #expect(unzipped == Data(plain.body.readableBytesView), "gzip gives back the same bytes")
            let refused = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip;q=0"])
            #expect(refused.headers[.contentEncoding] == nil)
            let etag = try #require(plain.headers[.eTag])
            let held = try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: etag])
            #expect(held.status == .notModified && held.body.readableBytes == 0)
        }
    }

    @Test func theServiceWorkerKeepsEveryAssetOfThisVersionAndNothingElseIsServed() async throws {
        try await TestServer.with(.sqlite) { _, client in
            let app = try WebApp.load()
            let worker = try await client.execute(uri: "/sw.js", method: .get)
            #expect(worker.status == .ok && worker.headers[.cacheControl] == "no-cache")
            let source = String(buffer: worker.body)
            #expect(source.contains("const VERSION = \"\(app.version)\""))
            for path in app.paths where path.hasPrefix("/assets/") { #expect(source.contains("\"\(path)\""), "\(path) is cached offline") }
            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get)
            #expect(manifest.headers[.contentType] == "application/manifest+json")
            let json = try JSONDecoder().decode(JSONValue.self, from: Data(manifest.body.readableBytesView))
            #expect(json["start_url"] == "/#/coach")
            for path in ["/assets/000000000000/app.js", "/assets/\(app.version)/nope.js", "/assets/\(app.version)/../../Package.swift"] {
                let missing = try await client.execute(uri: path, method: .get)
                #expect(missing.status == .notFound, "\(path)")
            }
        }
    }

    /// The first visit (the page, its styles and every script module and icon it may load) stays small.
    @Test func theWholeAppIsUnder200KilobytesBeforeCompression() throws {
        let app = try WebApp.load()
        let total = app.paths.compactMap { app.file(at: $0)?.body.count }.reduce(0, +)
        #expect(total <= 200 * 1024, "the app is \(total) bytes")
    }

    @Test func aChangedFileChangesTheVersionOfEveryAssetURL() throws {
        let sources: [String: [UInt8]] = [
            "index.html": Array(#"<script type="module" src="/assets/{{version}}/app.js"></script>"#.utf8),
            "sw.js": Array(#"const VERSION = "{{version}}"; const ASSETS = ["{{assets}}"];"#.utf8),
            "manifest.webmanifest": Array("{}".utf8), "assets/app.js": Array("export {};".utf8),
        ]
        let first = try WebApp(sources: sources)
        var changed = sources
        changed["assets/app.js"] = Array("export const x = 1;".utf8)
        let second = try WebApp(sources: changed)
        #expect(first.version != second.version)
        #expect(first.paths.contains("/assets/\(first.version)/app.js") && second.paths.contains("/assets/\(second.version)/app.js"))
        let worker = String(decoding: try #require(second.file(at: "/sw.js")).body, as: UTF8.self)
        #expect(worker == #"const VERSION = "\#(second.version)"; const ASSETS = ["/","/assets/\#(second.version)/app.js"];"#)
        #expect(throws: WebAppError.unexpectedFile("stray.js")) { try WebApp(sources: sources.merging(["stray.js": []]) { a, _ in a }) }
    }

    @Test func aProcessWithoutTheWebModuleServesNoPage() async throws {
        try await TestServer.with(.sqlite, environment: ["POVVER_MODULES": "auth,workouts"]) { _, client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .notFound)
            #expect(PovverModules.names.contains("web"))
        }
    }
}
