import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization
import VaporCSQLite

// SQLite called in-line rather than through SQLiteNIO's thread pool: a transaction of a handful of indexed
// statements then costs microseconds instead of a thread hop per statement. It is the same vendored SQLite
// build SQLiteNIO links (its `VaporCSQLite` target), with prepared statements cached per connection. A call
// runs on the caller's thread while it holds a connection exclusively; writers queue in `Database`'s gate.

/// One value of a result column.
enum SQLiteValue: Sendable {
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null
}

struct SQLiteError: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }
}

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One open SQLite connection. Used by one task at a time (checked out of `DirectSQLitePool`).
final class DirectSQLiteConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private let checkpointer: SQLiteCheckpointer?
    private var statements: [String: PreparedStatement] = [:]

    /// A compiled statement and the names of its result columns, read once and shared by every row (read
    /// again if SQLite recompiled the statement after a schema change).
    private final class PreparedStatement {
        let handle: OpaquePointer
        let parameterCount: Int
        private var names: [String] = []
        private var compilations: Int32 = -1

        init(handle: OpaquePointer) {
            self.handle = handle
            parameterCount = Int(sqlite_nio_sqlite3_bind_parameter_count(handle))
        }

        var columns: [String] {
            let recompiled = sqlite_nio_sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
            if recompiled != compilations {
                names = (0..<sqlite_nio_sqlite3_column_count(handle)).map { String(cString: sqlite_nio_sqlite3_column_name(handle, $0)) }
                compilations = recompiled
            }
            return names
        }
    }

    /// Opens a connection. With a `checkpointer`, the connection reports the WAL's length after each commit
    /// to it, and leaves checkpoints to it (SQLite's automatic checkpoint is then off).
    init(path: String, checkpointer: SQLiteCheckpointer?) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let result = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard result == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "cannot open"
            if let handle { sqlite_nio_sqlite3_close_v2(handle) }
            throw SQLiteError(code: result, message: message)
        }
        self.handle = handle
        self.checkpointer = checkpointer
        for pragma in ["PRAGMA busy_timeout = 5000", "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON"] {
            try execute(pragma, binds: []) { _, _ in }
        }
        if let checkpointer {
            sqlite_nio_sqlite3_wal_hook(
                handle,
                { context, _, _, frames in
                    // cannot trap: SQLite passes back the context registered below, never nil
                    let checkpointer = Unmanaged<SQLiteCheckpointer>.fromOpaque(context!).takeUnretainedValue()
                    checkpointer.committed(frames: Int(frames))
                    return SQLITE_OK
                }, Unmanaged.passUnretained(checkpointer).toOpaque())
        }
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    var isInTransaction: Bool { sqlite_nio_sqlite3_get_autocommit(handle) == 0 }

    /// Rows inserted, updated or deleted through this connection since it was opened.
    var totalChanges: Int64 { sqlite_nio_sqlite3_total_changes64(handle) }

    /// A PASSIVE checkpoint of the main database: the frames in the WAL, and how many of them are now in the
    /// database file.
    func checkpoint() throws -> (log: Int, checkpointed: Int) {
        var log: Int32 = 0
        var checkpointed: Int32 = 0
        let result = sqlite_nio_sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &checkpointed)
        guard result == SQLITE_OK else { throw error(result) }
        return (Int(log), Int(checkpointed))
    }

    /// Closes the connection, unless its WAL could not be synced (`SQLiteCheckpointer.halted`): then it stays
    /// open until the process ends, as closing the last connection would checkpoint the WAL.
    func close() {
        if checkpointer?.halted == true { return }
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
        statements.removeAll()
        sqlite_nio_sqlite3_close_v2(handle)
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite_nio_sqlite3_errmsg(handle)))
    }

    private func prepare(_ sql: String) throws -> PreparedStatement {
        if let cached = statements[sql] { return cached }
        var handle: OpaquePointer?
        let result = sqlite_nio_sqlite3_prepare_v3(self.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard result == SQLITE_OK, let handle else { throw error(result) }
        if statements.count >= 128 {
            for cached in statements.values { sqlite_nio_sqlite3_finalize(cached.handle) }
            statements.removeAll()
        }
        let statement = PreparedStatement(handle: handle)
        statements[sql] = statement
        return statement
    }

    /// Runs one statement, calling `onRow` with the column names and values of each result row.
    func execute(_ sql: String, binds: [any Encodable & Sendable], onRow: ([String], [SQLiteValue]) -> Void) throws {
        try execute(sql, parameters: binds.count, bind: { try self.bind(binds[$0], at: Int32($0 + 1), to: $1) }, onRow: onRow)
    }

    /// Runs one statement with typed values (`FixedSQL`).
    func execute(_ sql: String, values: [SQLValue], onRow: ([String], [SQLiteValue]) -> Void) throws {
        try execute(sql, parameters: values.count, bind: { Self.bind(values[$0], at: Int32($0 + 1), to: $1) }, onRow: onRow)
    }

    private func execute(
        _ sql: String, parameters: Int, bind: (Int, OpaquePointer) throws -> Int32, onRow: ([String], [SQLiteValue]) -> Void
    ) throws {
        let prepared = try prepare(sql)
        let statement = prepared.handle
        // Every parameter is bound anew on each run, so bindings are never cleared: clearing them marks a
        // statement whose plan looked at a parameter (a sorted read, for one) as expired, and SQLite would
        // compile it again on every run.
        defer { sqlite_nio_sqlite3_reset(statement) }
        guard parameters == prepared.parameterCount else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(parameters) values for the \(prepared.parameterCount) parameters of: \(sql)")
        }
        for index in 0..<parameters {
            let result = try bind(index, statement)
            guard result == SQLITE_OK else { throw error(result) }
        }
        var columns: [String]?
        while true {
            let step = sqlite_nio_sqlite3_step(statement)
            if step == SQLITE_DONE { return }
            guard step == SQLITE_ROW else { throw error(step) }
            let names = columns ?? prepared.columns
            columns = names
            let count = Int32(names.count)
            var values: [SQLiteValue] = []
            values.reserveCapacity(Int(count))
            for index in 0..<count {
                switch sqlite_nio_sqlite3_column_type(statement, index) {
                case SQLITE_INTEGER: values.append(.integer(sqlite_nio_sqlite3_column_int64(statement, index)))
                case SQLITE_FLOAT: values.append(.double(sqlite_nio_sqlite3_column_double(statement, index)))
                case SQLITE_TEXT:
                    let length = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
                    let pointer = sqlite_nio_sqlite3_column_text(statement, index)
                    values.append(
                        .text(pointer.map { String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self) } ?? ""))
                case SQLITE_BLOB:
                    let length = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
                    let pointer = sqlite_nio_sqlite3_column_blob(statement, index)?.assumingMemoryBound(to: UInt8.self)
                    values.append(.blob(pointer.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []))
                default: values.append(.null)
                }
            }
            onRow(names, values)
        }
    }

    private static func bind(_ value: SQLValue, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .text(let text): sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case .integer(let number): sqlite_nio_sqlite3_bind_int64(statement, index, number)
        case .double(let number): sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .null: sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private func bind(_ value: Any, at index: Int32, to statement: OpaquePointer) throws -> Int32 {
        switch value {
        case let value as SQLValue: return Self.bind(value, at: index, to: statement)
        case let text as String:
            return sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), transient, UInt8(SQLITE_UTF8))
        case let number as Int: return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
        case let number as Int64: return sqlite_nio_sqlite3_bind_int64(statement, index, number)
        case let number as Int32: return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(number))
        case let number as Double: return sqlite_nio_sqlite3_bind_double(statement, index, number)
        case let flag as Bool: return sqlite_nio_sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case let bytes as [UInt8]:
            return bytes.withUnsafeBytes { sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient) }
        case let data as Data:
            return data.withUnsafeBytes { sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), transient) }
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                guard let wrapped = mirror.children.first?.value else {
                    return sqlite_nio_sqlite3_bind_null(statement, index)
                }
                return try bind(wrapped, at: index, to: statement)
            }
            throw SQLiteError(code: SQLITE_MISMATCH, message: "cannot bind a value of type \(type(of: value))")
        }
    }
}

/// A fixed-size pool of connections to one database file. Checkout waits (asynchronously) when all are busy.
final class DirectSQLitePool: Sendable {
    private struct State {
        var idle: [DirectSQLiteConnection] = []
        var opened = 0
        var waiters: [CheckedContinuation<DirectSQLiteConnection, any Error>] = []
        var closed = false
    }

    let path: String
    private let limit: Int
    private let state = Mutex(State())
    /// Told the WAL's length by every connection, and runs the checkpoints (it outlives the connections).
    let checkpointer: SQLiteCheckpointer

    init(
        path: String, limit: Int, walRestartFrames: Int, checkpointInterval: Duration,
        checkpointClock: any Clock<Duration> = ContinuousClock(), logger: Logger
    ) {
        self.path = path
        self.limit = max(1, limit)
        self.checkpointer = SQLiteCheckpointer(
            path: path, interval: checkpointInterval, restartFrames: walRestartFrames, clock: checkpointClock, logger: logger)
    }

    func checkout() async throws -> DirectSQLiteConnection {
        enum Next {
            case ready(DirectSQLiteConnection)
            case open
            case wait
            case closed
        }
        let next = state.withLock { state -> Next in
            if state.closed { return .closed }
            if let connection = state.idle.popLast() { return .ready(connection) }
            if state.opened < limit {
                state.opened += 1
                return .open
            }
            return .wait
        }
        switch next {
        case .ready(let connection): return connection
        case .open:
            do {
                return try DirectSQLiteConnection(path: path, checkpointer: checkpointer)
            } catch {
                state.withLock { $0.opened -= 1 }
                throw error
            }
        case .closed:
            throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed")
        case .wait:
            return try await withCheckedThrowingContinuation { continuation in
                let immediate = state.withLock { state -> Result<DirectSQLiteConnection, any Error>? in
                    if state.closed { return .failure(SQLiteError(code: SQLITE_MISUSE, message: "the database is closed")) }
                    if let connection = state.idle.popLast() { return .success(connection) }
                    state.waiters.append(continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        }
    }

    func checkin(_ connection: DirectSQLiteConnection) {
        // A connection still inside a transaction (its ROLLBACK failed, or a body left one open) would hold the
        // write lock and show the next user uncommitted rows: it is rolled back, or closed and replaced.
        if connection.isInTransaction {
            try? connection.execute("ROLLBACK", binds: []) { _, _ in }
            if connection.isInTransaction {
                connection.close()
                replaceClosedConnection()
                return
            }
        }
        enum Next {
            case handOver(CheckedContinuation<DirectSQLiteConnection, any Error>)
            case keep
            case close
        }
        let next = state.withLock { state -> Next in
            if state.closed { return .close }
            if !state.waiters.isEmpty { return .handOver(state.waiters.removeFirst()) }
            state.idle.append(connection)
            return .keep
        }
        switch next {
        case .handOver(let waiter): waiter.resume(returning: connection)
        case .keep: break
        case .close: connection.close()
        }
    }

    /// A connection was closed instead of being checked in: its slot is free again, and a waiting checkout
    /// gets a new connection.
    private func replaceClosedConnection() {
        let waiter = state.withLock { state -> CheckedContinuation<DirectSQLiteConnection, any Error>? in
            guard !state.closed, !state.waiters.isEmpty else {
                state.opened -= 1
                return nil
            }
            return state.waiters.removeFirst()  // the slot passes to it
        }
        guard let waiter else { return }
        do {
            waiter.resume(returning: try DirectSQLiteConnection(path: path, checkpointer: checkpointer))
        } catch {
            state.withLock { $0.opened -= 1 }
            waiter.resume(throwing: error)
        }
    }

    func shutdown() {
        let (idle, waiters) = state.withLock {
            state -> ([DirectSQLiteConnection], [CheckedContinuation<DirectSQLiteConnection, any Error>]) in
            state.closed = true
            defer {
                state.idle.removeAll()
                state.waiters.removeAll()
            }
            return (state.idle, state.waiters)
        }
        for connection in idle { connection.close() }
        for waiter in waiters { waiter.resume(throwing: SQLiteError(code: SQLITE_MISUSE, message: "the database is closed")) }
    }
}

/// A row materialised from a result.
struct DirectSQLiteRow: SQLRow {
    let columns: [String]
    let values: [SQLiteValue]

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool { columns.contains(column) }

    private func value(_ column: String) throws -> SQLiteValue {
        guard let index = columns.firstIndex(of: column) else {
            throw DecodingError.keyNotFound(
                SQLCodingKey(column), .init(codingPath: [], debugDescription: "no column \(column)"))
        }
        return values[index]
    }

    func decodeNil(column: String) throws -> Bool {
        if case .null = try value(column) { return true }
        return false
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let decoder = SQLiteValueDecoder(value: try value(column), column: column)
        // The column types every query reads, without a trip through `Decoder` (the same conversions).
        // cannot trap: each cast is to the type just compared
        if D.self == String.self { return try decoder.decode(String.self) as! D }
        if D.self == Int.self { return try decoder.decode(Int.self) as! D }
        if D.self == Int64.self { return try decoder.decode(Int64.self) as! D }
        if D.self == Double.self { return try decoder.decode(Double.self) as! D }
        if D.self == String?.self { return (decoder.decodeNil() ? nil : try decoder.decode(String.self)) as String? as! D }
        if D.self == Int?.self { return (decoder.decodeNil() ? nil : try decoder.decode(Int.self)) as Int? as! D }
        if D.self == Int64?.self { return (decoder.decodeNil() ? nil : try decoder.decode(Int64.self)) as Int64? as! D }
        if D.self == Double?.self { return (decoder.decodeNil() ? nil : try decoder.decode(Double.self)) as Double? as! D }
        return try D(from: decoder)
    }
}

private struct SQLCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Decodes one column value as a single value (optionals, numbers, strings, bytes).
private struct SQLiteValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: SQLiteValue
    let column: String
    var codingPath: [any CodingKey] { [SQLCodingKey(column)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "a column holds a single value"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a column holds a single value"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    private func mismatch<T>(_ type: T.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "column \(column) holds \(value)"))
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decode(Int64.self) != 0 }
    func decode(_ type: String.Type) throws -> String {
        switch value {
        case .text(let text): return text
        case .integer(let number): return String(number)
        case .double(let number): return String(number)
        default: throw mismatch(type)
        }
    }
    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .double(let number): return number
        case .integer(let number): return Double(number)
        default: throw mismatch(type)
        }
    }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int64.Type) throws -> Int64 {
        switch value {
        case .integer(let number): return number
        case .double(let number): if let whole = Int64(exactly: number) { return whole } else { throw mismatch(type) }
        default: throw mismatch(type)
        }
    }
    /// A stored integer as a narrower type; one outside the type's range is a mismatch, not a trap.
    private func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard let value = I(exactly: try decode(Int64.self)) else { throw mismatch(type) }
        return value
    }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if case .blob(let bytes) = value {
            // cannot trap: each cast is to the type just compared
            if T.self == [UInt8].self { return bytes as! T }
            if T.self == Data.self { return Data(bytes) as! T }
        }
        return try T(from: self)
    }
}

/// An `SQLDatabase` over `DirectSQLitePool`: each statement runs in-line on a checked-out connection;
/// `withSession` keeps one connection for the whole closure (transactions).
struct DirectSQLiteDatabase: SQLDatabase {
    let pool: DirectSQLitePool
    let session: DirectSQLiteConnection?
    let logger: Logger

    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        func run(on connection: DirectSQLiteConnection) throws {
            if let fixed = query as? FixedSQL.Bound {
                // Fixed text and typed values: no serializer.
                try connection.execute(fixed.statement.sqlite, values: fixed.values) { onRow(DirectSQLiteRow(columns: $0, values: $1)) }
            } else {
                let (sql, binds) = serialize(query)
                try connection.execute(sql, binds: binds) { onRow(DirectSQLiteRow(columns: $0, values: $1)) }
            }
        }
        if let session { return try run(on: session) }
        let connection = try await pool.checkout()
        defer { pool.checkin(connection) }
        try run(on: connection)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        if session != nil { return try await closure(self) }
        let connection = try await pool.checkout()
        defer { pool.checkin(connection) }
        return try await closure(DirectSQLiteDatabase(pool: pool, session: connection, logger: logger))
    }
}
