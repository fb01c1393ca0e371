import Foundation
import HTTPTypes

/// The headers every file of the web app is served with.
enum WebHeaders {
    /// The Content Security Policy: scripts, styles, fonts, images, workers and connections from this origin
    /// only; no inline script or style, no `eval`, no plug-ins, no framing, no `<base>`, forms post here. A
    /// configured sign-in provider adds its own script, style, frame and connection origins, nothing else.
    static func contentSecurityPolicy(for settings: WebSettings = WebSettings()) -> String {
        var script = ["'self'"]
        var style = ["'self'"]
        var frame: [String] = []
        var connect = ["'self'"]
        if settings.googleClientID != nil {
            script.append("https://accounts.google.com/gsi/client")
            style.append("https://accounts.google.com/gsi/style")
            frame.append("https://accounts.google.com/gsi/")
            connect.append("https://accounts.google.com/gsi/")
        }
        if settings.appleServicesID != nil {
            script.append("https://appleid.cdn-apple.com")
            frame.append("https://appleid.apple.com")
            connect.append("https://appleid.apple.com")
        }
        return [
            "default-src 'self'", "script-src \(script.joined(separator: " "))", "style-src \(style.joined(separator: " "))",
            "img-src 'self' data:", "font-src 'self'", "connect-src \(connect.joined(separator: " "))", "manifest-src 'self'",
            "worker-src 'self'", frame.isEmpty ? nil : "frame-src \(frame.joined(separator: " "))", "object-src 'none'",
            "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
        ].compactMap { $0 }.joined(separator: "; ")
    }

    // cannot trap: a header name spelled here is a valid token
    static let contentSecurityPolicyField = HTTPField.Name("Content-Security-Policy")!
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
    static let openerPolicy = HTTPField.Name("Cross-Origin-Opener-Policy")!
    static let resourcePolicy = HTTPField.Name("Cross-Origin-Resource-Policy")!

    /// The security headers of every web response.
    static func security(policy: String) -> HTTPFields {
        [
            contentSecurityPolicyField: policy, contentTypeOptions: "nosniff", referrerPolicy: "no-referrer",
            openerPolicy: "same-origin", resourcePolicy: "same-origin",
        ]
    }

    /// Whether a request's `Accept-Encoding` takes gzip (named, or `*`, without `q=0`).
    static func acceptsGzip(_ values: [String]) -> Bool {
        for item in values.flatMap({ $0.split(separator: ",") }) {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "*" else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if weight > 0 { return true }
        }
        return false
    }
}
