import Contracts
import Foundation

/// Platform's settings (the README's configuration table, the rows no module owns), read from the environment with
/// defaults that make a bare `swift run povver-server` work. Each module reads its own variables into its own
/// settings type from `environment`.
public struct AppConfig: Sendable {
    public enum LogFormat: String, Sendable { case json, text }

    public var host: String
    public var port: Int
    public var database: DatabaseLocation
    public var serviceAPIKeys: [String]
    public var maxBodyBytes: Int
    /// `log` or `smtp`.
    public var mailTransport: String
    /// The SMTP server when `mailTransport` is `smtp`.
    public var smtp: SMTPSettings?
    public var mailFrom: String
    public var logFormat: LogFormat
    /// Proxies in front of the server whose `X-Forwarded-For` is believed (`POVVER_TRUSTED_PROXIES`); none
    /// by default, and then rate limits key on the socket's peer.
    public var trustedProxies: TrustedProxies = .none
    /// The modules to serve (`POVVER_MODULES`, lower-case names); nil: every module.
    public var modules: [String]?
    /// The whole environment, for the modules' own settings.
    public var environment: [String: String] = [:]
    /// Connections per event loop (`POVVER_DATABASE_POOL_SIZE`) and how long a request waits for one before it is
    /// answered `UNAVAILABLE` (`POVVER_DATABASE_POOL_TIMEOUT_MS`; PostgreSQL).
    public var databasePoolSize = 4
    public var databasePoolTimeout: Duration = .seconds(10)
    /// How long a connection may take to deliver its next whole request, from when it opens or its last answer was
    /// written (`POVVER_HTTP_READ_TIMEOUT_SECONDS`): idle keep-alive connections and trickled requests are closed.
    public var httpReadTimeout: Duration = .seconds(30)
    /// How long something written may wait for a client that stopped reading before its connection is closed
    /// (`POVVER_HTTP_WRITE_TIMEOUT_SECONDS`; `ResponseWriteDeadline`), an SSE stream's included.
    public var httpWriteTimeout: Duration = .seconds(60)
    /// Who may read `/metrics` (`POVVER_METRICS_TOKEN`): with a token, a request bearing it; without, only the
    /// machine itself (`MetricsAccess`).
    public var metricsAccess: MetricsAccess = .loopbackOnly

    /// Reads the configuration. Throws `INVALID_ARGUMENT` naming the variable when a value is unusable.
    public static func fromEnvironment(_ env: [String: String], stdoutIsTerminal: Bool = false) throws -> AppConfig {
        let reader = EnvironmentReader(env)
        let logFormat: LogFormat =
            if reader.value("POVVER_LOG_FORMAT") == nil { stdoutIsTerminal ? .text : .json } else {
                LogFormat(rawValue: try reader.choice("POVVER_LOG_FORMAT", default: "json", allowed: ["json", "text"])) ?? .json
            }
        let mail = try reader.choice("POVVER_MAIL_TRANSPORT", default: "log", allowed: ["log", "smtp"])
        let modules = reader.list("POVVER_MODULES").map { $0.lowercased() }
        var config = AppConfig(
            host: reader.value("POVVER_HOST") ?? "127.0.0.1",
            port: try reader.integer("POVVER_PORT", default: 8080, range: 0...65535),
            database: try DatabaseLocation(url: reader.value("POVVER_DATABASE_URL") ?? "sqlite://./povver.sqlite"),
            serviceAPIKeys: reader.list("POVVER_SERVICE_API_KEYS"),
            maxBodyBytes: try reader.integer("POVVER_MAX_BODY_BYTES", default: 1_048_576, range: 1024...67_108_864),
            mailTransport: mail,
            smtp: mail == "smtp" ? try SMTPSettings(reading: reader) : nil,
            mailFrom: reader.value("POVVER_MAIL_FROM") ?? "Povver <no-reply@povver.localhost>",
            logFormat: logFormat,
            trustedProxies: try TrustedProxies(parsing: reader.list("POVVER_TRUSTED_PROXIES")),
            modules: modules.isEmpty ? nil : modules,
            environment: env)
        config.databasePoolSize = try reader.integer("POVVER_DATABASE_POOL_SIZE", default: 4, range: 1...64)
        config.databasePoolTimeout = .milliseconds(
            try reader.integer("POVVER_DATABASE_POOL_TIMEOUT_MS", default: 10_000, range: 1...60_000))
        config.httpReadTimeout = .seconds(try reader.integer("POVVER_HTTP_READ_TIMEOUT_SECONDS", default: 30, range: 1...3600))
        config.httpWriteTimeout = .seconds(try reader.integer("POVVER_HTTP_WRITE_TIMEOUT_SECONDS", default: 60, range: 1...3600))
        config.metricsAccess = try MetricsAccess(token: reader.value("POVVER_METRICS_TOKEN"))
        // A measurement switch (`LibraryPaths`), read by the pieces themselves; a name that is none stops the start.
        if let list = reader.value(LibraryPaths.variable), LibraryPaths(parsing: list) == nil {
            throw EnvironmentReader.invalid(
                LibraryPaths.variable,
                "\(LibraryPaths.variable) must list some of \(LibraryPaths.names.map(\.0).joined(separator: ", ")).")
        }
        return config
    }
}

extension SMTPSettings {
    /// `POVVER_SMTP_*`, read when the transport is `smtp`.
    init(reading reader: EnvironmentReader) throws {
        guard let host = reader.value("POVVER_SMTP_HOST") else {
            throw EnvironmentReader.invalid("POVVER_SMTP_HOST", "POVVER_SMTP_HOST is required when POVVER_MAIL_TRANSPORT is smtp.")
        }
        let security =
            SMTPSecurity(
                rawValue: try reader.choice("POVVER_SMTP_SECURITY", default: "starttls", allowed: ["starttls", "tls", "none"])) ?? .startTLS
        let defaultPort = security == .tls ? 465 : (security == .startTLS ? 587 : 25)
        let username = reader.value("POVVER_SMTP_USERNAME")
        let password = reader.value("POVVER_SMTP_PASSWORD")
        guard (username == nil) == (password == nil) else {
            throw EnvironmentReader.invalid("POVVER_SMTP_USERNAME", "POVVER_SMTP_USERNAME and POVVER_SMTP_PASSWORD go together.")
        }
        guard security != .none || username == nil else {
            throw EnvironmentReader.invalid(
                "POVVER_SMTP_SECURITY", "SMTP credentials are never sent without TLS: set POVVER_SMTP_SECURITY to starttls or tls.")
        }
        self.init(
            host: host, port: try reader.integer("POVVER_SMTP_PORT", default: defaultPort, range: 1...65535), security: security,
            username: username, password: password, caFile: reader.value("POVVER_SMTP_CA_FILE"))
    }
}
