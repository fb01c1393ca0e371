import Contracts
import Foundation

/// Every setting of `SPEC.md`'s configuration table, read from the environment with defaults that make a
/// bare `swift run povver-server` work.
public struct AppConfig: Sendable {
    public enum LogFormat: String, Sendable { case json, text }

    public var host: String
    public var port: Int
    public var database: DatabaseLocation
    public var serviceAPIKeys: [String]
    public var signingKeyFile: String
    public var recentLoginSeconds: Int
    public var accessTokenTTL: Int
    public var bcryptCost: Int
    public var maxBodyBytes: Int
    public var googleClientIDs: [String]
    public var googleJWKSURL: String
    public var appleClientIDs: [String]
    public var appleJWKSURL: String
    public var appleAuthBaseURL: String
    public var appleTeamID: String?
    public var appleKeyID: String?
    public var applePrivateKeyFile: String?
    public var appStoreBundleID: String?
    public var appStoreAppAppleID: String?
    public var appStoreEnvironment: String
    public var appStoreRootCerts: [String]
    public var llmBaseURL: String?
    public var llmModel: String?
    public var llmAPIKey: String?
    public var mailTransport: String
    /// The SMTP server when `mailTransport` is `smtp`.
    public var smtp: SMTPSettings?
    public var mailFrom: String
    public var logFormat: LogFormat
    /// Sign-in and sign-up attempt limits (`POVVER_RATE_LIMITS`, `on` unless `off`): off only where a gateway
    /// in front limits instead, or for load tests.
    public var rateLimitsEnabled: Bool = true
    /// Proxies in front of the server whose `X-Forwarded-For` is believed (`POVVER_TRUSTED_PROXIES`); none
    /// by default, and then rate limits key on the socket's peer.
    public var trustedProxies: TrustedProxies = .none

    /// Reads the configuration. Throws `INVALID_ARGUMENT` naming the variable when a value is unusable.
    public static func fromEnvironment(_ env: [String: String], stdoutIsTerminal: Bool = false) throws -> AppConfig {
        func value(_ name: String) -> String? {
            guard let raw = env[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        func list(_ name: String) -> [String] {
            (value(name) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        func integer(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
            guard let raw = value(name) else { return fallback }
            guard let number = Int(raw), range.contains(number) else {
                throw ServiceError(
                    .invalidArgument, "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).",
                    details: ["field": name])
            }
            return number
        }
        let logFormat: LogFormat
        if let raw = value("POVVER_LOG_FORMAT") {
            guard let format = LogFormat(rawValue: raw) else {
                throw ServiceError(.invalidArgument, "POVVER_LOG_FORMAT must be json or text.", details: ["field": "POVVER_LOG_FORMAT"])
            }
            logFormat = format
        } else {
            logFormat = stdoutIsTerminal ? .text : .json
        }
        let environment = value("POVVER_APPSTORE_ENVIRONMENT") ?? "Production"
        guard ["Production", "Sandbox"].contains(environment) else {
            throw ServiceError(
                .invalidArgument, "POVVER_APPSTORE_ENVIRONMENT must be Production or Sandbox.",
                details: ["field": "POVVER_APPSTORE_ENVIRONMENT"])
        }
        let mail = value("POVVER_MAIL_TRANSPORT") ?? "log"
        guard ["log", "smtp"].contains(mail) else {
            throw ServiceError(.invalidArgument, "POVVER_MAIL_TRANSPORT must be log or smtp.", details: ["field": "POVVER_MAIL_TRANSPORT"])
        }
        var smtp: SMTPSettings?
        if mail == "smtp" {
            guard let host = value("POVVER_SMTP_HOST") else {
                throw ServiceError(.invalidArgument, "POVVER_SMTP_HOST is required when POVVER_MAIL_TRANSPORT is smtp.", details: ["field": "POVVER_SMTP_HOST"])
            }
            guard let security = SMTPSecurity(rawValue: value("POVVER_SMTP_SECURITY") ?? "starttls") else {
                throw ServiceError(.invalidArgument, "POVVER_SMTP_SECURITY must be starttls, tls or none.", details: ["field": "POVVER_SMTP_SECURITY"])
            }
            let defaultPort = security == .tls ? 465 : (security == .startTLS ? 587 : 25)
            let username = value("POVVER_SMTP_USERNAME")
            let password = value("POVVER_SMTP_PASSWORD")
            guard (username == nil) == (password == nil) else {
                throw ServiceError(
                    .invalidArgument, "POVVER_SMTP_USERNAME and POVVER_SMTP_PASSWORD go together.", details: ["field": "POVVER_SMTP_USERNAME"])
            }
            guard security != .none || username == nil else {
                throw ServiceError(
                    .invalidArgument, "SMTP credentials are never sent without TLS: set POVVER_SMTP_SECURITY to starttls or tls.",
                    details: ["field": "POVVER_SMTP_SECURITY"])
            }
            smtp = SMTPSettings(
                host: host, port: try integer("POVVER_SMTP_PORT", default: defaultPort, range: 1...65535), security: security,
                username: username, password: password, caFile: value("POVVER_SMTP_CA_FILE"))
        }
        let rateLimits = value("POVVER_RATE_LIMITS") ?? "on"
        guard ["on", "off"].contains(rateLimits) else {
            throw ServiceError(.invalidArgument, "POVVER_RATE_LIMITS must be on or off.", details: ["field": "POVVER_RATE_LIMITS"])
        }
        return AppConfig(
            host: value("POVVER_HOST") ?? "127.0.0.1",
            port: try integer("POVVER_PORT", default: 8080, range: 0...65535),
            database: try DatabaseLocation(url: value("POVVER_DATABASE_URL") ?? "sqlite://./povver.sqlite"),
            serviceAPIKeys: list("POVVER_SERVICE_API_KEYS"),
            signingKeyFile: value("POVVER_SIGNING_KEY_FILE") ?? "./povver-signing-key.pem",
            recentLoginSeconds: try integer("POVVER_RECENT_LOGIN_SECONDS", default: 300, range: 1...86_400),
            accessTokenTTL: try integer("POVVER_ACCESS_TOKEN_TTL_SECONDS", default: 900, range: 900...3600),
            bcryptCost: try integer("POVVER_BCRYPT_COST", default: 12, range: 4...16),
            maxBodyBytes: try integer("POVVER_MAX_BODY_BYTES", default: 1_048_576, range: 1024...67_108_864),
            googleClientIDs: list("POVVER_GOOGLE_CLIENT_IDS"),
            googleJWKSURL: value("POVVER_GOOGLE_JWKS_URL") ?? "https://www.googleapis.com/oauth2/v3/certs",
            appleClientIDs: list("POVVER_APPLE_CLIENT_IDS"),
            appleJWKSURL: value("POVVER_APPLE_JWKS_URL") ?? "https://appleid.apple.com/auth/keys",
            appleAuthBaseURL: value("POVVER_APPLE_AUTH_BASE_URL") ?? "https://appleid.apple.com",
            appleTeamID: value("POVVER_APPLE_TEAM_ID"),
            appleKeyID: value("POVVER_APPLE_KEY_ID"),
            applePrivateKeyFile: value("POVVER_APPLE_PRIVATE_KEY_FILE"),
            appStoreBundleID: value("POVVER_APPSTORE_BUNDLE_ID"),
            appStoreAppAppleID: value("POVVER_APPSTORE_APP_APPLE_ID"),
            appStoreEnvironment: environment,
            appStoreRootCerts: list("POVVER_APPSTORE_ROOT_CERTS"),
            llmBaseURL: value("POVVER_LLM_BASE_URL"),
            llmModel: value("POVVER_LLM_MODEL"),
            llmAPIKey: value("POVVER_LLM_API_KEY"),
            mailTransport: mail,
            smtp: smtp,
            mailFrom: value("POVVER_MAIL_FROM") ?? "Povver <no-reply@povver.localhost>",
            logFormat: logFormat,
            rateLimitsEnabled: rateLimits == "on",
            trustedProxies: try TrustedProxies(parsing: list("POVVER_TRUSTED_PROXIES")))
    }
}
