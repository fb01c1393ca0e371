import Foundation

/// Measurement switches: each hand-written performance piece can be turned back into the library path it
/// replaced, so `Tools/bench/library-paths.sh` measures what the piece earns on the endpoint it serves
/// (docs/performance.md). Read once, from `POVVER_BENCH_LIBRARY_PATHS` (a comma list of the names below);
/// empty by default. A measurement, never a configuration: the library paths are slower, and that is all.
public struct LibraryPaths: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `sqlite-nio`: SQLite through SQLiteNIO and SQLiteKit's connection pool (a thread hop per statement, no
    /// statement cache), one writer at a time committing with `synchronous = FULL`; in place of the direct
    /// driver and its write queue.
    public static let sqliteNIO = LibraryPaths(rawValue: 1 << 0)
    /// `no-group-commit`: every SQLite write in a transaction and commit of its own.
    public static let noGroupCommit = LibraryPaths(rawValue: 1 << 1)
    /// `foundation-encoder`: answers and fingerprints through `JSONEncoder` only, never `JSONWriter`.
    public static let foundationEncoder = LibraryPaths(rawValue: 1 << 4)

    public static let names: [(String, LibraryPaths)] = [
        ("sqlite-nio", .sqliteNIO), ("no-group-commit", .noGroupCommit),
        ("foundation-encoder", .foundationEncoder),
    ]

    public static let variable = "POVVER_BENCH_LIBRARY_PATHS"

    /// The switches a comma list names; nil when it names one that does not exist.
    public init?(parsing list: String) {
        var paths = LibraryPaths()
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            guard let path = Self.names.first(where: { $0.0 == name })?.1 else { return nil }
            paths.insert(path)
        }
        self = paths
    }

    /// The switches of this process, read from its environment once (a bad list is refused at start by
    /// `AppConfig`, naming the variable; here it reads as none).
    public static let current: LibraryPaths = LibraryPaths(parsing: ProcessInfo.processInfo.environment[variable] ?? "") ?? []
}
