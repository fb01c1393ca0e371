import Contracts
import Crypto
import Foundation
import Platform
import SQLKit
import Synchronization

/// Workouts' `ExerciseCatalog`: rows in `workouts_exercises`, searched through an in-memory index that is
/// rebuilt when the table changes (another process may import a catalog; the table is re-checked at most
/// every `recheckInterval`).
///
/// One caller at a time does that work: the first callers to find no index wait for one shared build (a
/// burst of searches right after a start would otherwise each build their own), and once the interval has passed
/// the first caller looks at the table while the others go on with the index they have. `prepare()` builds it
/// ahead of the first search.
public final class SQLExerciseCatalog: ExerciseCatalog {
    private struct Cache {
        var index: CatalogIndex
        var fingerprint: String
        var checkedAt: ContinuousClock.Instant
        /// Ranked results of recent searches (autocomplete repeats itself), cleared with the index, by the query
        /// as sent (its hash, so a repeated search folds nothing): the search's fingerprint (its cursors' scope)
        /// and its hits, 8 bytes a match, so even full it holds at most a few megabytes.
        var results: [String: (scope: String, hits: [CatalogIndex.Hit])] = [:]
    }
    private struct State {
        var cache: Cache?
        /// A caller is looking at the table for a newer catalog.
        var rechecking = false
        /// The build every caller that finds no index waits for.
        var building: Task<(CatalogIndex, String), any Error>?
        /// Counts `invalidate` calls: a look begun before one keeps what it read to itself.
        var generation = 0
    }
    private static let resultCacheLimit = 1024

    private let database: Database
    private let recheckInterval: Duration
    private let state = Mutex(State())
    private let builds = Atomic<Int>(0)

    /// Indexes built so far (each reads the whole table).
    var buildCount: Int { builds.load(ordering: .relaxed) }

    public init(database: Database, recheckInterval: Duration = .seconds(30)) {
        self.database = database
        self.recheckInterval = recheckInterval
    }

    public func search(_ query: ExerciseQuery) async throws -> ExercisePage {
        let (index, page, next) = try await matches(query)
        return ExercisePage(items: page.map { index.entries[Int($0.entry)].exercise }, nextCursor: next)
    }

    /// The same page as `search`, as the API's JSON (`{"items": [...], "next_cursor": ...}`, keys sorted), built
    /// from each exercise's JSON encoded once when the index was built.
    func searchJSON(_ query: ExerciseQuery) async throws -> EncodedJSON {
        let (index, page, next) = try await matches(query)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(page.reduce(64) { $0 + index.entries[Int($1.entry)].json.count + 1 })
        bytes.append(contentsOf: #"{"items":["#.utf8)
        for (offset, hit) in page.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: index.entries[Int(hit.entry)].json)
        }
        bytes.append(UInt8(ascii: "]"))
        if let next {
            bytes.append(contentsOf: #","next_cursor":"#.utf8)
            bytes.append(contentsOf: try JSONCoding.bytes(next))
        }
        bytes.append(UInt8(ascii: "}"))
        return EncodedJSON(bytes: bytes)
    }

    /// The page of ranked matches a query asks for (hits of `index`), and the cursor of the next page if there
    /// is one.
    private func matches(_ query: ExerciseQuery) async throws -> (index: CatalogIndex, page: ArraySlice<CatalogIndex.Hit>, next: String?) {
        try Self.validate(query)
        var (index, version) = try await indexAndVersion(sql: nil)
        // Hits name entries of the index they were ranked in, so they are read with that index.
        let spelling = Self.spellingFingerprint(query)
        let scope: String
        let hits: [CatalogIndex.Hit]
        if let cached = state.withLock({ state in state.cache.flatMap { cache in cache.results[spelling].map { (cache.index, $0) } } }) {
            index = cached.0
            (scope, hits) = cached.1
        } else {
            scope = Self.queryFingerprint(query)
            hits = index.hits(text: query.text, muscle: query.muscle, equipment: query.equipment, category: query.category)
            state.withLock { state in
                guard state.cache?.fingerprint == version else { return }  // the catalog changed meanwhile
                if state.cache?.results.count ?? 0 >= Self.resultCacheLimit { state.cache?.results.removeAll(keepingCapacity: true) }
                state.cache?.results[spelling] = (scope, hits)
            }
        }
        // A cursor names the last match shown (its rank), not a count: the next page starts right after it in
        // the ranking as it is now, so an import between two pages neither repeats nor skips what was there.
        // An empty cursor is the first page: clients that hold the token as a string send "" before they have one.
        var start = 0
        if let cursor = query.cursor, !cursor.isEmpty {
            guard let decoded = PageCursor.decode(cursor, maxLength: Self.maxCursorLength), decoded.scope == scope,
                let rank = CatalogIndex.Rank(position: decoded.position)
            else {
                throw ServiceError.invalidArgument(field: "cursor", reason: "not a cursor of this search")
            }
            start = Self.firstIndex(after: rank, in: hits, of: index)
        }
        let page = hits[start...].prefix(query.limit)
        var next: String?
        if let last = page.last, page.endIndex < hits.endIndex {
            next = PageCursor(scope: scope, position: index.rank(of: last).position).encoded
        }
        return (index, page, next)
    }

    /// The longest search text taken (a name has at most 200 characters), and the longest filter (a muscle,
    /// equipment or category has at most 100). Longer ones are refused before any work: a search compares every
    /// word of the text with every word of the names it may match.
    static let maxQueryLength = 200
    static let maxFilterLength = 100

    static func validate(_ query: ExerciseQuery) throws {
        guard (1...100).contains(query.limit) else {
            throw ServiceError.invalidArgument(field: "limit", reason: "must be from 1 to 100")
        }
        if let text = query.text, text.utf8.count > maxQueryLength, text.count > maxQueryLength {
            throw ServiceError.invalidArgument(field: "query", reason: "must be at most \(maxQueryLength) characters")
        }
        for (field, value) in [("muscle", query.muscle), ("equipment", query.equipment), ("category", query.category)] {
            if let value, value.utf8.count > maxFilterLength, value.count > maxFilterLength {
                throw ServiceError.invalidArgument(field: field, reason: "must be at most \(maxFilterLength) characters")
            }
        }
    }

    /// The longest cursor taken: its position holds a folded name (up to 200 characters) and an id (up to 128).
    static let maxCursorLength = 4096

    /// The index of the first hit ranked after `rank` (binary search: hits are in rank order).
    static func firstIndex(after rank: CatalogIndex.Rank, in hits: [CatalogIndex.Hit], of index: CatalogIndex) -> Int {
        var low = 0
        var high = hits.count
        while low < high {
            let middle = (low + high) / 2
            if rank < index.rank(of: hits[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    public func exercise(id: String) async throws -> Exercise? {
        try await index().byID[id]
    }

    /// The catalog exercise a name from another app's export means ("Squat (Barbell)", "Lat Pulldown (Cable)"),
    /// or nil when none is a confident match: an import reports such names as unmatched instead of guessing. An
    /// alias first, then the search's top hit when it is a confident match (`CatalogIndex.resolve(exportedName:)`
    /// states the rule).
    public func resolveExerciseName(_ name: String) async throws -> Exercise? {
        try await index().resolve(exportedName: name)
    }

    /// The exercise as the API's JSON, encoded once when the index was built.
    func exerciseJSON(id: String) async throws -> EncodedJSON? {
        try await index().jsonByID[id].map(EncodedJSON.init(bytes:))
    }

    /// Exercises by id, for validating references. Inside a transaction pass its `sql`: should the index need
    /// a look at the table, the look goes through the transaction's connection instead of taking a second one
    /// (a batchable body reads through its transaction only, and on PostgreSQL concurrent transactions each
    /// waiting for a second connection could drain the pool).
    func exercises(ids: [String], sql: (any SQLDatabase)? = nil) async throws -> [String: Exercise] {
        let index = try await index(sql: sql)
        var found: [String: Exercise] = [:]
        for id in ids { found[id] = index.byID[id] }
        return found
    }

    /// Forgets the cached index, so the next search sees an import made in this process at once (other
    /// processes notice the table change within `recheckInterval`).
    public func invalidate() {
        state.withLock { state in
            state.cache = nil
            state.building = nil
            state.generation += 1
        }
    }

    /// Builds the index now, so the first searches after a start do not wait for it (a failure is left for
    /// them to meet, and report).
    public func prepare() async {
        _ = try? await index()
    }

    /// The index. Inside a transaction pass its `sql` (see `exercises(ids:sql:)`).
    private func index(sql: (any SQLDatabase)? = nil) async throws -> CatalogIndex {
        try await indexAndVersion(sql: sql).0
    }

    /// The index and the table fingerprint it was built from. `sql`: a transaction's connection, through which
    /// this caller reads the table itself when it has to; nil: the pool, and a build shared with other callers.
    private func indexAndVersion(sql: (any SQLDatabase)?) async throws -> (CatalogIndex, String) {
        enum Step {
            case use(CatalogIndex, String)
            case recheck(Cache, generation: Int)
            case build(generation: Int)
            case wait(Task<(CatalogIndex, String), any Error>)
        }
        let now = ContinuousClock.now
        let step = state.withLock { state -> Step in
            if let cached = state.cache {
                // Within the interval, or while another caller is looking: the index at hand.
                if now - cached.checkedAt < recheckInterval || state.rechecking { return .use(cached.index, cached.fingerprint) }
                state.rechecking = true
                return .recheck(cached, generation: state.generation)
            }
            if sql != nil { return .build(generation: state.generation) }
            if let building = state.building { return .wait(building) }
            let generation = state.generation
            let building = Task { [self] in
                defer { self.state.withLock { if $0.generation == generation { $0.building = nil } } }
                return try await load(sql: database.sql, current: nil, generation: generation, at: now)
            }
            state.building = building
            return .wait(building)
        }
        switch step {
        case .use(let index, let fingerprint):
            return (index, fingerprint)
        case .wait(let building):
            return try await building.value
        case .build(let generation):
            return try await load(sql: sql ?? database.sql, current: nil, generation: generation, at: now)
        case .recheck(let cached, let generation):
            defer { state.withLock { $0.rechecking = false } }
            return try await load(sql: sql ?? database.sql, current: cached, generation: generation, at: now)
        }
    }

    /// Reads the table's fingerprint through `sql` and, unless it is `current`'s, the table, building its index;
    /// keeps the result unless `invalidate` came since `generation` was read.
    private func load(sql: any SQLDatabase, current: Cache?, generation: Int, at now: ContinuousClock.Instant) async throws -> (
        CatalogIndex, String
    ) {
        let fingerprint = try await tableFingerprint(sql: sql)
        if let current, current.fingerprint == fingerprint {
            state.withLock { state in
                if state.generation == generation, state.cache?.fingerprint == fingerprint { state.cache?.checkedAt = now }
            }
            return (current.index, fingerprint)
        }
        builds.add(1, ordering: .relaxed)
        let rows = try await sql.raw("SELECT document FROM workouts_exercises ORDER BY id").all(decodingColumn: "document", as: String.self)
        let exercises = try rows.map { try JSONCoding.load(Exercise.self, from: $0) }
        let index = try CatalogIndex(exercises)
        state.withLock { state in
            if state.generation == generation { state.cache = Cache(index: index, fingerprint: fingerprint, checkedAt: now) }
        }
        return (index, fingerprint)
    }

    private func tableFingerprint(sql: any SQLDatabase) async throws -> String {
        let row = try await sql.raw("SELECT COUNT(*) AS n, MAX(updated_at) AS latest FROM workouts_exercises").first()
        return "\(try row?.decode(column: "n", as: Int.self) ?? 0):\(try row?.decode(column: "latest", as: Int64?.self) ?? 0)"
    }

    /// The query as sent, for the cache only (hashing is cheaper than folding).
    static func spellingFingerprint(_ query: ExerciseQuery) -> String {
        // Each field with its length, so no text can pass for another split of the fields.
        let text = [query.text, query.muscle, query.equipment, query.category].map { $0.map { "\($0.utf8.count):\($0)" } ?? "-" }.joined()
        return String(SHA256.hash(data: Data(text.utf8)).hexString.prefix(32))
    }

    /// The search as it is run: its text and filters folded (case, accents and punctuation aside), so
    /// "Bench!" and "bench" are one search and take each other's cursors, and so are no text and a text that
    /// folds to nothing ("", "  ", "!"), which list the same.
    static func queryFingerprint(_ query: ExerciseQuery) -> String {
        let text = [query.text, query.muscle, query.equipment, query.category]
            .map { $0.map(CatalogIndex.fold).flatMap { $0.isEmpty ? nil : $0 } ?? "\u{0}" }.joined(separator: "\u{1F}")
        return String(SHA256.hash(data: Data(text.utf8)).hexString.prefix(12))
    }
}

/// An opaque page cursor: a scope (what was listed) and a position in it.
struct PageCursor: Equatable {
    var scope: String
    var position: String

    var encoded: String {
        Data("\(scope)|\(position)".utf8).base64URLEncoded()
    }

    static func decode(_ text: String, maxLength: Int = 512) -> PageCursor? {
        guard text.utf8.count <= maxLength else { return nil }
        // A forged cursor holding NUL is no cursor (PostgreSQL could not even compare it with a text column).
        guard let data = Data(base64URLEncoded: text), !data.contains(0), let string = String(data: data, encoding: .utf8) else {
            return nil
        }
        let parts = string.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        return PageCursor(scope: String(parts[0]), position: String(parts[1]))
    }
}
