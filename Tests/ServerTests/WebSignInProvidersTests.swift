import Contracts
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Platform
import TestSupport
import Testing

@testable import Web

/// Google and Apple sign-in buttons appear on the page only when the server names their web client ids, and
/// only then does the Content Security Policy let the providers' scripts in.
@Suite struct WebSignInProvidersTests {
    static let google = "1234-web.apps.googleusercontent.com"
    static let apple = "com.povver.web"

    @Test func withoutProvidersThePageOffersNoneAndAllowsNoOtherOrigin() throws {
        let app = try WebApp.load()
        let page = String(decoding: try #require(app.file(at: "/")).body, as: UTF8.self)
        #expect(!page.contains("povver-google-client-id") && !page.contains("povver-apple-services-id") && !page.contains("{{"))
        #expect(!app.contentSecurityPolicy.contains("https:"))
    }

    @Test func configuredProvidersAreNamedToThePageAndAllowedByThePolicy() async throws {
        let environment = [
            "POVVER_GOOGLE_CLIENT_IDS": "ios-client, \(Self.google)", "POVVER_WEB_GOOGLE_CLIENT_ID": Self.google,
            "POVVER_APPLE_CLIENT_IDS": "com.povver.app,\(Self.apple)", "POVVER_WEB_APPLE_SERVICES_ID": Self.apple,
        ]
        try await TestServer.with(.sqlite, environment: environment) { _, client in
            let page = try await client.execute(uri: "/", method: .get)
            let html = String(buffer: page.body)
            #expect(html.contains(#"<meta name="povver-google-client-id" content="\#(Self.google)">"#))
            #expect(html.contains(#"<meta name="povver-apple-services-id" content="\#(Self.apple)">"#))
            let policy = try #require(HTTPField.Name("Content-Security-Policy").flatMap { page.headers[$0] })
            #expect(policy.contains("script-src 'self' https://accounts.google.com/gsi/client https://appleid.cdn-apple.com"))
            #expect(policy.contains("frame-src https://accounts.google.com/gsi/ https://appleid.apple.com"))
            #expect(!policy.contains("unsafe-inline"))
        }
    }

    @Test func anIdAuthWouldRefuseOrAMalformedOneStopsTheStart() throws {
        #expect(throws: ServiceError.self) {
            try WebSettings(environment: ["POVVER_WEB_GOOGLE_CLIENT_ID": Self.google, "POVVER_GOOGLE_CLIENT_IDS": "another-client"])
        }
        #expect(throws: ServiceError.self) { try WebSettings(environment: ["POVVER_WEB_APPLE_SERVICES_ID": Self.apple]) }
        #expect(throws: ServiceError.self) {
            try WebSettings(environment: ["POVVER_WEB_GOOGLE_CLIENT_ID": "a\"><script>", "POVVER_GOOGLE_CLIENT_IDS": "a\"><script>"])
        }
        let settings = try WebSettings(environment: ["POVVER_WEB_GOOGLE_CLIENT_ID": Self.google, "POVVER_GOOGLE_CLIENT_IDS": Self.google])
        #expect(settings == WebSettings(googleClientID: Self.google))
        #expect(try WebSettings(environment: [:]) == WebSettings())
    }

    @Test func theSettingsVersionThePage() throws {
        let plain = try WebApp.load()
        let withGoogle = try WebApp.load(settings: WebSettings(googleClientID: Self.google))
        #expect(plain.version != withGoogle.version, "a page that changed is not served under the old version")
    }
}
