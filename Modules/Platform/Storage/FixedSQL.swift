import SQLKit
import Synchronization

/// A statement whose text never changes, only its values: written once with a `?` for each value (never
/// inside a string literal) and turned into each engine's placeholders once, so running it builds no SQL.
/// For the statements of the hottest paths; everything else uses SQLKit's interpolated `raw` queries.
///
///     static let rename = FixedSQL("UPDATE notes SET title = ? WHERE id = ?")
///     try await tx.sql.run(Self.rename(title, id))
public struct FixedSQL: Sendable {
    let sqlite: String
    let postgres: String

    /// The same text on both engines.
    public init(_ text: String) {
        self.init(sqlite: text, postgres: text)
    }

    /// A text per engine (e.g. a row lock that only PostgreSQL needs); both take their values in one order.
    public init(sqlite: String, postgres: String) {
        self.sqlite = Self.numbered(sqlite, prefix: "?")
        self.postgres = Self.numbered(postgres, prefix: "$")
    }

    private static func numbered(_ text: String, prefix: String) -> String {
        var result = ""
        var position = 0
        for character in text {
            if character == "?" {
                position += 1
                result += "\(prefix)\(position)"
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// This statement with its values, in the order of the `?`s.
    public func callAsFunction(_ values: SQLValue...) -> Bound {
        Bound(statement: self, values: values)
    }

    /// A statement with its values: an `SQLExpression` for `SQLDatabase.run`, `first` and `all` below. SQLite
    /// runs it as it is (no serializer, no casts of the values).
    public struct Bound: SQLExpression {
        let statement: FixedSQL
        let values: [SQLValue]

        public func serialize(to serializer: inout SQLSerializer) {
            serializer.write(serializer.dialect.name == "postgresql" ? statement.postgres : statement.sqlite)
            serializer.binds.append(contentsOf: values as [any Encodable & Sendable])
        }
    }
}

/// A value of a `FixedSQL` statement, typed so the SQLite driver binds it without a dynamic cast.
public enum SQLValue: Sendable, Encodable, Equatable {
    case text(String)
    case integer(Int64)
    case double(Double)
    case null

    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Int64?) { self = value.map { .integer($0) } ?? .null }
    public init(_ value: Double?) { self = value.map { .double($0) } ?? .null }

    /// As the plain value (PostgreSQL's binds).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .double(let number): try container.encode(number)
        case .null: try container.encodeNil()
        }
    }
}

extension SQLDatabase {
    /// Runs a statement, ignoring any rows.
    public func run(_ statement: FixedSQL.Bound) async throws {
        try await execute(sql: statement) { _ in }
    }

    /// The first row of a statement's result, if any.
    public func first(_ statement: FixedSQL.Bound) async throws -> (any SQLRow)? {
        let first = Mutex<(any SQLRow)?>(nil)
        try await execute(sql: statement) { row in
            first.withLock { if $0 == nil { $0 = row } }
        }
        return first.withLock { $0 }
    }

    /// Every row of a statement's result.
    public func all(_ statement: FixedSQL.Bound) async throws -> [any SQLRow] {
        let rows = Mutex<[any SQLRow]>([])
        try await execute(sql: statement) { row in rows.withLock { $0.append(row) } }
        return rows.withLock { $0 }
    }
}
