import Platform

/// The web module's settings: which sign-in providers the page offers, besides email and password. A provider's
/// button appears only when its id is set here, and Auth must accept that id's tokens (the same id in its
/// client ids), which is checked at start.
public struct WebSettings: Sendable, Equatable {
    /// `POVVER_WEB_GOOGLE_CLIENT_ID`: the OAuth client id of type "Web application" that Google Identity Services
    /// signs the page's ID tokens for.
    public var googleClientID: String?
    /// `POVVER_WEB_APPLE_SERVICES_ID`: the Services ID that Sign in with Apple JS uses as its client id.
    public var appleServicesID: String?

    public init(googleClientID: String? = nil, appleServicesID: String? = nil) {
        self.googleClientID = googleClientID
        self.appleServicesID = appleServicesID
    }

    /// Reads the settings; a malformed id, or one Auth's `POVVER_GOOGLE_CLIENT_IDS` / `POVVER_APPLE_CLIENT_IDS` does
    /// not list (its tokens would be refused), stops the start naming the variable.
    public init(environment: [String: String]) throws {
        let reader = EnvironmentReader(environment)
        googleClientID = try Self.clientID(reader, "POVVER_WEB_GOOGLE_CLIENT_ID", acceptedBy: "POVVER_GOOGLE_CLIENT_IDS")
        appleServicesID = try Self.clientID(reader, "POVVER_WEB_APPLE_SERVICES_ID", acceptedBy: "POVVER_APPLE_CLIENT_IDS")
    }

    private static func clientID(_ reader: EnvironmentReader, _ name: String, acceptedBy list: String) throws -> String? {
        guard let value = reader.value(name) else { return nil }
        let allowed = value.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || ".-_".unicodeScalars.contains(scalar))
        }
        guard allowed, value.count <= 200 else {
            throw EnvironmentReader.invalid(name, "\(name) must be a client id: letters, digits, '.', '-' and '_' (at most 200).")
        }
        guard reader.list(list).contains(value) else {
            throw EnvironmentReader.invalid(name, "\(name) must also be one of \(list), or the sign-ins it starts are refused.")
        }
        return value
    }

    /// The `<meta>` tags that tell the page which buttons to show.
    var metaTags: String {
        [
            googleClientID.map { #"<meta name="povver-google-client-id" content="\#($0)">"# },
            appleServicesID.map { #"<meta name="povver-apple-services-id" content="\#($0)">"# },
        ].compactMap { $0 }.joined(separator: "\n")
    }
}
