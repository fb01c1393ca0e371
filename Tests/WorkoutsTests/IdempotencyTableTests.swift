import Foundation
import Platform
import SQLKit
import TestSupport
import Testing

@testable import Workouts

/// `workouts_idempotency`, made by Workouts' migrations one step at a time, is an idempotency table as
/// `IdempotencyStore.tableStatements` makes one: the store reads and writes it as it would a new module's.
@Suite struct IdempotencyTableTests {
    static func columns(_ table: String, in db: Database) async throws -> [String] {
        let query: SQLQueryString =
            db.engine == .sqlite
            ? "SELECT name FROM pragma_table_info(\(bind: table)) ORDER BY name"
            : "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(bind: table) ORDER BY column_name"
        return try await db.sql.raw(query).all(decodingColumn: "name", as: String.self)
    }

    @Test(arguments: TestDatabases.engines)
    func workoutsKeepsItsAnswersInAPlatformIdempotencyTable(engine: SQLEngine) async throws {
        try await TestDatabases.with(engine, migrate: [("workouts", WorkoutsModule.migrations)]) { db in
            for statement in IdempotencyStore.tableStatements("workouts_idempotency_shape", engine: engine) {
                try await db.sql.raw(SQLQueryString(statement)).run()
            }
            let expected = try await Self.columns("workouts_idempotency_shape", in: db)
            #expect(expected.count == 7)
            #expect(try await Self.columns("workouts_idempotency", in: db) == expected)
        }
    }
}
