import Contracts
import Foundation

/// Where the database lives, parsed from `POVVER_DATABASE_URL`.
public enum DatabaseLocation: Sendable, Equatable {
    /// An SQLite file (created if missing, opened in WAL mode).
    case sqliteFile(path: String)
    /// A private, throw-away SQLite database (tests).
    case sqliteMemory
    /// A PostgreSQL server, with an optional schema to use instead of `public` (tests isolate themselves so).
    case postgres(url: String, schema: String?)

    /// Parses `sqlite:///abs/path`, `sqlite://./relative`, `sqlite::memory:` and `postgres://…` / `postgresql://…`.
    public init(url: String) throws {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        if trimmed == "sqlite::memory:" || trimmed == "sqlite://:memory:" {
            self = .sqliteMemory
        } else if trimmed.hasPrefix("sqlite://") {
            let path = String(trimmed.dropFirst("sqlite://".count))
            guard !path.isEmpty else { throw Self.invalid(url) }
            self = .sqliteFile(path: path)
        } else if trimmed.hasPrefix("sqlite:") {
            let path = String(trimmed.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw Self.invalid(url) }
            self = .sqliteFile(path: path)
        } else if trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://") {
            self = .postgres(url: trimmed, schema: nil)
        } else {
            throw Self.invalid(url)
        }
    }

    /// For the admin tools, which work on the server's database and must not start an empty one of their own (a
    /// relative path from another directory, a typo): an SQLite file that does not exist is `NOT_FOUND`.
    public func requireExistingFile() throws {
        guard case .sqliteFile(let path) = self, !FileManager.default.fileExists(atPath: path) else { return }
        throw ServiceError(
            .notFound, "There is no database at \(path). The server creates it when it first starts; check the database URL.",
            details: ["field": "POVVER_DATABASE_URL"])
    }

    public var engine: SQLEngine {
        switch self {
        case .sqliteFile, .sqliteMemory: .sqlite
        case .postgres: .postgres
        }
    }

    private static func invalid(_ url: String) -> ServiceError {
        ServiceError(
            .invalidArgument,
            "POVVER_DATABASE_URL must be sqlite:///path, sqlite::memory: or postgres://user:pass@host:port/db.",
            details: ["field": "POVVER_DATABASE_URL"])
    }
}
